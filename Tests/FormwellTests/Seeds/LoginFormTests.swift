import Testing
@testable import Formwell

/// Seed 03 example 1: email (required + email), password (required + minLength 8).
@Suite struct LoginFormTests {
    @Test("a fresh login form: idle, untouched, not yet valid")
    func fresh() throws {
        let form = try SeedForms.login()
        #expect(form.fieldIDs == ["email", "password"])
        expectLooks(form, ["email": .untouched, "password": .untouched])
        #expect(form.values == ["email": "", "password": ""])
        #expect(form.isValid == false)
        #expect(form.firstInvalidFieldID == "email")
        #expect(form.focusedFieldID == nil)
    }

    @Test("the happy path, typed character by character")
    func happyPath() throws {
        var form = try SeedForms.login()

        try form.focus("email")
        expectLooks(form, ["email": .typing(.empty), "password": .untouched], "focus email")

        try form.setValue("j", for: "email")
        expectLooks(form, ["email": .typing(.invalid("Invalid email format")), "password": .untouched], "typing j")

        try type("ane@example.c", into: "email", of: &form, after: "j")
        expectLooks(form, ["email": .typing(.invalid("Invalid email format")), "password": .untouched],
                    "one-letter TLD")

        try form.setValue("jane@example.co", for: "email")
        expectLooks(form, ["email": .typing(.valid), "password": .untouched], "a valid address")
        try form.setValue("jane@example.com", for: "email")
        expectLooks(form, ["email": .typing(.valid), "password": .untouched], "a valid address")
        #expect(form.isValid == false)
        #expect(form.firstInvalidFieldID == "password")

        try form.focus("password")
        expectLooks(form, ["email": .blurredValid, "password": .typing(.empty)], "focus password")

        try type("hunter2", into: "password", of: &form)
        expectLooks(form, [
            "email": .blurredValid,
            "password": .typing(.invalid("Must be at least 8 characters")),
        ], "7 characters")

        try form.setValue("hunter22", for: "password")
        expectLooks(form, ["email": .blurredValid, "password": .typing(.valid)], "8 characters")
        #expect(form.isValid)
        #expect(form.firstInvalidFieldID == nil)

        try form.blur("password")
        expectLooks(form, ["email": .blurredValid, "password": .blurredValid], "blur password")
        #expect(form.focusedFieldID == nil)

        #expect(try form.validate())
        expectLooks(form, ["email": .blurredValid, "password": .blurredValid], "validate")
        #expect(form.values == ["email": "jane@example.com", "password": "hunter22"])
    }

    @Test("a short password is flagged on blur and cleared when fixed")
    func shortPasswordThenFix() throws {
        var form = try SeedForms.login()
        try form.focus("email")
        try form.setValue("jane@example.com", for: "email")
        try form.focus("password")
        try form.setValue("hunter2", for: "password")
        try form.blur("password")
        expectLooks(form, [
            "email": .blurredValid,
            "password": .blurredInvalid("Must be at least 8 characters"),
        ], "blur with 7 characters")
        #expect(form.isValid == false)
        #expect(form.firstInvalidFieldID == "password")

        try form.focus("password")
        expectLooks(form, [
            "email": .blurredValid,
            "password": .retyping(.invalid("Must be at least 8 characters"), .error("Must be at least 8 characters")),
        ], "refocus")

        try form.setValue("hunter22", for: "password")
        expectLooks(form, ["email": .blurredValid, "password": .retyping(.valid, .valid)], "fixed")

        try form.blur("password")
        expectLooks(form, ["email": .blurredValid, "password": .blurredValid], "blur fixed")
        #expect(form.isValid)
    }

    @Test("tabbing through without typing flags both required fields")
    func tabThroughEmpty() throws {
        var form = try SeedForms.login()
        try form.focus("email")
        try form.focus("password")
        expectLooks(form, [
            "email": .blurredInvalid("This field is required"),
            "password": .typing(.empty),
        ], "tab to password")
        try form.blur("password")
        expectLooks(form, [
            "email": .blurredInvalid("This field is required"),
            "password": .blurredInvalid("This field is required"),
        ], "tab out")
        #expect(form.firstInvalidFieldID == "email")
    }

    @Test("submitting an untouched form flags every field")
    func submitUntouched() throws {
        var form = try SeedForms.login()
        #expect(try form.validate() == false)
        expectLooks(form, [
            "email": .blurredInvalid("This field is required"),
            "password": .blurredInvalid("This field is required"),
        ])
        #expect(form.firstInvalidFieldID == "email")
    }

    @Test("submitting while typing: the focused field keeps its lenient input, its display turns strict")
    func submitWhileTyping() throws {
        var form = try SeedForms.login()
        try form.focus("email")
        try form.setValue("jane@", for: "email")
        #expect(try form.validate() == false)
        #expect(form.focusedFieldID == "email")
        expectLooks(form, [
            "email": .retyping(.invalid("Invalid email format"), .error("Invalid email format")),
            "password": .blurredInvalid("This field is required"),
        ])
        #expect(form.firstInvalidFieldID == "email")
    }

    @Test("reset after a failed submit: empty values, idle, untouched, no focus")
    func resetAfterSubmit() throws {
        var form = try SeedForms.login()
        try form.focus("email")
        try form.setValue("jane@example.com", for: "email")
        try form.validate()
        try form.reset()
        expectLooks(form, ["email": .untouched, "password": .untouched])
        #expect(form.values == ["email": "", "password": ""])
        #expect(form.focusedFieldID == nil)
        #expect(form.isValid == false)
        #expect(form.firstInvalidFieldID == "email")
    }

    @Test("programmatic fill (e.g. autofill) of unfocused fields applies the strict stage without touching")
    func autofill() throws {
        var form = try SeedForms.login()
        try form.setValue("jane@example.com", for: "email")
        try form.setValue("hunter22", for: "password")
        expectLooks(form, ["email": Look(.inactive(.valid)), "password": Look(.inactive(.valid))])
        #expect(form.isValid)
        #expect(try form.validate())
        expectLooks(form, ["email": .blurredValid, "password": .blurredValid])
    }
}
