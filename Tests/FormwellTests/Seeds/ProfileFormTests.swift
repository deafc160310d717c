import Testing
@testable import Formwell

/// Seed 03 example 3: a profile edit form with initial values.
@Suite struct ProfileFormTests {
    static let allUntouched: [String: Look] = [
        "displayName": .untouched, "bio": .untouched, "website": .untouched, "location": .untouched,
    ]
    static let initialValues = [
        "displayName": "Ada Lovelace", "bio": "", "website": "https://ada.dev", "location": "London",
    ]

    @Test("initial values are the values; the fields start idle and untouched; the form is valid")
    func fresh() throws {
        let form = try SeedForms.profile()
        #expect(form.values == Self.initialValues)
        expectLooks(form, Self.allUntouched)
        #expect(form.isValid)
        #expect(form.firstInvalidFieldID == nil)
    }

    @Test("initial values are judged at once for isValid, without surfacing anything")
    func invalidInitialValues() throws {
        let form = try SeedForms.profile(displayName: "", website: "ada.dev")
        expectLooks(form, Self.allUntouched)
        #expect(form.isValid == false)
        #expect(form.firstInvalidFieldID == "displayName")
    }

    @Test("saving unchanged: validate touches everything; the empty optional bio shows nothing")
    func saveUnchanged() throws {
        var form = try SeedForms.profile()
        #expect(try form.validate())
        expectLooks(form, ["displayName": .blurredValid, "bio": .touchedIdle,
                           "website": .blurredValid, "location": .blurredValid])
    }

    @Test("editing the profile, mistakes included, then reset restores the initial values")
    func editAndReset() throws {
        var form = try SeedForms.profile()
        var looks = Self.allUntouched

        // Website: drop the scheme.
        try form.focus("website")
        looks["website"] = .typing(.valid)
        expectLooks(form, looks, "focus website")
        try form.setValue("ada.dev", for: "website")
        looks["website"] = .typing(.invalid(SeedForms.badURL))
        expectLooks(form, looks, "website without scheme")

        // Bio: too long, then at the limit (counted in characters, not bytes).
        try form.focus("bio")
        looks["website"] = .blurredInvalid(SeedForms.badURL)
        looks["bio"] = .typing(.empty)
        expectLooks(form, looks, "focus bio")
        try form.setValue(String(repeating: "é", count: 281), for: "bio")
        looks["bio"] = .typing(.invalid("Bio must be 280 characters or fewer"))
        expectLooks(form, looks, "bio of 281")
        try form.setValue(String(repeating: "é", count: 280), for: "bio")
        looks["bio"] = .typing(.valid)
        expectLooks(form, looks, "bio of 280")
        #expect(form.firstInvalidFieldID == "website")

        // Display name: cleared, then too long.
        try form.focus("displayName")
        looks["bio"] = .blurredValid
        looks["displayName"] = .typing(.valid)
        expectLooks(form, looks, "focus displayName")
        try form.setValue("", for: "displayName")
        looks["displayName"] = .typing(.empty)
        expectLooks(form, looks, "displayName cleared")
        #expect(form.firstInvalidFieldID == "displayName")
        try form.blur("displayName")
        looks["displayName"] = .blurredInvalid("Display name is required")
        expectLooks(form, looks, "blur empty displayName")
        try form.focus("displayName")
        try form.setValue(String(repeating: "x", count: 51), for: "displayName")
        looks["displayName"] = .retyping(.invalid("50 characters maximum"), .error("50 characters maximum"))
        expectLooks(form, looks, "displayName of 51")
        try form.blur("displayName")
        looks["displayName"] = .blurredInvalid("50 characters maximum")
        expectLooks(form, looks, "blur displayName of 51")

        #expect(try form.validate() == false)
        looks["location"] = .blurredValid
        expectLooks(form, looks, "submit")
        #expect(form.firstInvalidFieldID == "displayName")

        // Cancel: everything back as it was loaded.
        try form.reset()
        expectLooks(form, Self.allUntouched, "reset")
        #expect(form.values == Self.initialValues)
        #expect(form.isValid)
        #expect(form.focusedFieldID == nil)
    }

    @Test("programmatic setValue on unfocused fields: strict stage, untouched, nothing displayed")
    func programmaticSetValue() throws {
        var form = try SeedForms.profile()
        try form.setValue("Paris", for: "location")
        try form.setValue("https://example.org/ada", for: "website")
        try form.setValue(String(repeating: "x", count: 101), for: "location")
        expectLooks(form, [
            "displayName": .untouched, "bio": .untouched,
            "website": Look(.inactive(.valid)),
            "location": Look(.inactive(.invalid("100 characters maximum"))),
        ])
        #expect(form.firstInvalidFieldID == "location")
        // Clearing the optional website leaves it idle; clearing the required name is an error.
        try form.setValue("", for: "website")
        try form.setValue("", for: "displayName")
        expectLooks(form, [
            "displayName": Look(.inactive(.invalid("Display name is required"))), "bio": .untouched,
            "website": .untouched,
            "location": Look(.inactive(.invalid("100 characters maximum"))),
        ])
        #expect(form.firstInvalidFieldID == "displayName")
        #expect(form.values == ["displayName": "", "bio": "", "website": "", "location": String(repeating: "x", count: 101)])

        // After a touch the same states are surfaced.
        try form.touchAll()
        expectLooks(form, [
            "displayName": .blurredInvalid("Display name is required"), "bio": .touchedIdle,
            "website": .touchedIdle, "location": .blurredInvalid("100 characters maximum"),
        ])
        try form.reset()
        expectLooks(form, Self.allUntouched)
        #expect(form.values == Self.initialValues)
    }

    @Test("an emptied optional field with a value passes after blur: idle, touched, nothing shown")
    func clearOptionalWebsite() throws {
        var form = try SeedForms.profile()
        try form.focus("website")
        try form.setValue("", for: "website")
        expectLooks(form, ["displayName": .untouched, "bio": .untouched, "website": .typing(.empty), "location": .untouched])
        try form.blur("website")
        expectLooks(form, ["displayName": .untouched, "bio": .untouched, "website": .touchedIdle, "location": .untouched])
        #expect(form.isValid)
    }
}
