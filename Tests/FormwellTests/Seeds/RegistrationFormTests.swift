import Testing
@testable import Formwell

/// Seed 03 example 2: name, email, username, password (with PasswordStrength), confirm (matches).
@Suite struct RegistrationFormTests {
    static let usernameCharset = "Lowercase letters, numbers, and underscores only"

    @Test("a fresh registration form")
    func fresh() throws {
        let form = try SeedForms.registration()
        #expect(form.fieldIDs == ["name", "email", "username", "password", "confirm"])
        expectLooks(form, ["name": .untouched, "email": .untouched, "username": .untouched,
                           "password": .untouched, "confirm": .untouched])
        #expect(form.isValid == false)
        #expect(form.firstInvalidFieldID == "name")
    }

    @Test("submitting the empty form shows every field's required message")
    func submitEmpty() throws {
        var form = try SeedForms.registration()
        #expect(try form.validate() == false)
        expectLooks(form, [
            "name": .blurredInvalid("Name is required"),
            "email": .blurredInvalid("This field is required"),
            "username": .blurredInvalid("This field is required"),
            "password": .blurredInvalid("This field is required"),
            "confirm": .blurredInvalid("Please confirm your password"),
        ])
        #expect(form.firstInvalidFieldID == "name")
    }

    @Test("filling the form in, mistakes included, then changing the password")
    func walkthrough() throws {
        var form = try SeedForms.registration()
        var looks: [String: Look] = ["name": .untouched, "email": .untouched, "username": .untouched,
                                     "password": .untouched, "confirm": .untouched]

        // Name
        try form.focus("name")
        looks["name"] = .typing(.empty)
        expectLooks(form, looks, "focus name")
        try type("Ada", into: "name", of: &form)
        looks["name"] = .typing(.valid)
        expectLooks(form, looks, "name typed")

        // Email
        try form.focus("email")
        looks["name"] = .blurredValid
        looks["email"] = .typing(.empty)
        expectLooks(form, looks, "focus email")
        try form.setValue("ada@example", for: "email")
        looks["email"] = .typing(.invalid("Invalid email format"))
        expectLooks(form, looks, "partial email")
        try form.setValue("ada@example.com", for: "email")
        looks["email"] = .typing(.valid)
        expectLooks(form, looks, "email typed")

        // Username: too short, wrong characters, too long, then right.
        try form.focus("username")
        looks["email"] = .blurredValid
        looks["username"] = .typing(.empty)
        expectLooks(form, looks, "focus username")
        try form.setValue("Ad", for: "username")
        looks["username"] = .typing(.invalid("At least 3 characters"))
        expectLooks(form, looks, "username Ad")
        try form.setValue("Ada Lovelace", for: "username")
        looks["username"] = .typing(.invalid(Self.usernameCharset))
        expectLooks(form, looks, "username with capitals and a space")
        try form.setValue("ada_lovelace_countess_of_lovelace", for: "username")
        looks["username"] = .typing(.invalid("20 characters maximum"))
        expectLooks(form, looks, "username of 33 characters")
        try form.setValue("ada_lovelace_1815", for: "username")
        looks["username"] = .typing(.valid)
        expectLooks(form, looks, "username right")

        // Password: short (minLength first), weak, strong.
        try form.focus("password")
        looks["username"] = .blurredValid
        looks["password"] = .typing(.empty)
        expectLooks(form, looks, "focus password")
        try form.setValue("pass", for: "password")
        looks["password"] = .typing(.invalid("Must be at least 8 characters"))
        expectLooks(form, looks, "password pass")
        try form.setValue("password", for: "password")
        looks["password"] = .typing(.invalid(SeedForms.weakPassword))
        expectLooks(form, looks, "password weak")
        try form.setValue("Passw0rd", for: "password")
        looks["password"] = .typing(.valid)
        expectLooks(form, looks, "password strong")
        #expect(form.firstInvalidFieldID == "confirm")

        // Confirm: a typo, then right.
        try form.focus("confirm")
        looks["password"] = .blurredValid
        looks["confirm"] = .typing(.empty)
        expectLooks(form, looks, "focus confirm")
        try form.setValue("Passw0r", for: "confirm")
        looks["confirm"] = .typing(.invalid("Passwords don't match"))
        expectLooks(form, looks, "confirm typo")
        try form.setValue("Passw0rd", for: "confirm")
        looks["confirm"] = .typing(.valid)
        expectLooks(form, looks, "confirm right")
        try form.blur("confirm")
        looks["confirm"] = .blurredValid
        expectLooks(form, looks, "blur confirm")
        #expect(form.isValid)
        #expect(form.firstInvalidFieldID == nil)

        // Back to the password: changing it breaks the confirmation at once.
        try form.focus("password")
        looks["password"] = .retyping(.valid, .valid)
        expectLooks(form, looks, "refocus password")
        try form.setValue("Passw0rd!", for: "password")
        looks["confirm"] = .blurredInvalid("Passwords don't match")
        expectLooks(form, looks, "password changed")
        #expect(form.isValid == false)
        #expect(form.firstInvalidFieldID == "confirm")
        try form.blur("password")
        looks["password"] = .blurredValid
        expectLooks(form, looks, "blur password")

        // Fix the confirmation.
        try form.focus("confirm")
        looks["confirm"] = .retyping(.invalid("Passwords don't match"), .error("Passwords don't match"))
        expectLooks(form, looks, "refocus confirm")
        try form.setValue("Passw0rd!", for: "confirm")
        looks["confirm"] = .retyping(.valid, .valid)
        expectLooks(form, looks, "confirm fixed")
        try form.blur("confirm")
        looks["confirm"] = .blurredValid
        expectLooks(form, looks, "blur confirm again")

        #expect(try form.validate())
        expectLooks(form, looks, "submit")
        #expect(form.values == ["name": "Ada", "email": "ada@example.com", "username": "ada_lovelace_1815",
                                "password": "Passw0rd!", "confirm": "Passw0rd!"])
    }

    @Test("an untouched confirm field stays idle while the password is typed")
    func idleConfirm() throws {
        var form = try SeedForms.registration()
        try form.focus("password")
        try form.setValue("Passw0rd", for: "password")
        expectLooks(form, ["name": .untouched, "email": .untouched, "username": .untouched,
                           "password": .typing(.valid), "confirm": .untouched])
        try form.blur("password")
        expectLooks(form, ["name": .untouched, "email": .untouched, "username": .untouched,
                           "password": .blurredValid, "confirm": .untouched])
        #expect(form.firstInvalidFieldID == "name")
    }

    @Test("leaving the confirmation empty shows its own required message")
    func emptyConfirm() throws {
        var form = try SeedForms.registration()
        try form.focus("password")
        try form.setValue("Passw0rd", for: "password")
        try form.focus("confirm")
        try form.blur("confirm")
        expectLooks(form, ["name": .untouched, "email": .untouched, "username": .untouched,
                           "password": .blurredValid, "confirm": .blurredInvalid("Please confirm your password")])
    }

    @Test("username boundaries: 3 and 20 characters pass, 2 and 21 fail", arguments: [
        ("abc", nil), ("ab", "At least 3 characters"),
        (String(repeating: "a", count: 20), nil), (String(repeating: "a", count: 21), "20 characters maximum"),
        ("ada-l", usernameCharset), ("ådå", usernameCharset), ("a__1", nil),
    ] as [(String, String?)])
    func usernameBoundaries(value: String, message: String?) throws {
        var form = try SeedForms.registration()
        try form.focus("username")
        try form.setValue(value, for: "username")
        try form.blur("username")
        #expect(Look(try form.state(of: "username")) == (message.map { .blurredInvalid($0) } ?? .blurredValid))
    }

    @Test("submitting half-filled: the first invalid field is the first in registration order")
    func submitHalfFilled() throws {
        var form = try SeedForms.registration()
        try form.setValue("Ada", for: "name")
        try form.setValue("ada@example.com", for: "email")
        try form.setValue("Ada!", for: "username")
        try form.setValue("Passw0rd", for: "password")
        try form.setValue("Password", for: "confirm")
        // Programmatic values on unfocused fields: strict stage, untouched, nothing displayed.
        expectLooks(form, [
            "name": Look(.inactive(.valid)), "email": Look(.inactive(.valid)),
            "username": Look(.inactive(.invalid(Self.usernameCharset))),
            "password": Look(.inactive(.valid)),
            "confirm": Look(.inactive(.invalid("Passwords don't match"))),
        ])
        #expect(form.firstInvalidFieldID == "username")
        #expect(try form.validate() == false)
        expectLooks(form, [
            "name": .blurredValid, "email": .blurredValid,
            "username": .blurredInvalid(Self.usernameCharset),
            "password": .blurredValid,
            "confirm": .blurredInvalid("Passwords don't match"),
        ])
        try form.reset()
        expectLooks(form, ["name": .untouched, "email": .untouched, "username": .untouched,
                           "password": .untouched, "confirm": .untouched])
        #expect(form.values == ["name": "", "email": "", "username": "", "password": "", "confirm": ""])
    }
}
