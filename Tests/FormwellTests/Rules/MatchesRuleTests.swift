import Testing
@testable import Formwell

/// Seed 03's MatchesFieldValidator: equal to another field's value, re-checked when it changes.
@Suite struct MatchesRuleTests {
    static func passwordAndConfirm(message: String? = "Passwords don't match") throws -> Form {
        var form = Form()
        try form.addField("password", label: "Password", rules: [.required()])
        try form.addField("confirm", rules: [.required(), .matches("password", message: message)])
        return form
    }

    @Test func equalValuesPass() throws {
        var form = try Self.passwordAndConfirm()
        try form.setValue("Secret1!", for: "password")
        try form.setValue("Secret1!", for: "confirm")
        #expect(try form.state(of: "confirm").input == .inactive(.valid))
    }

    @Test func differentValuesFail() throws {
        var form = try Self.passwordAndConfirm()
        try form.setValue("Secret1!", for: "password")
        try form.setValue("secret1!", for: "confirm")
        #expect(try form.state(of: "confirm").input == .inactive(.invalid("Passwords don't match")))
    }

    @Test("equality is Unicode canonical equivalence (precomposed é equals e + combining accent)")
    func canonicalEquivalence() throws {
        var form = try Self.passwordAndConfirm()
        try form.setValue("caf\u{E9}", for: "password")
        try form.setValue("cafe\u{301}", for: "confirm")
        #expect(try form.state(of: "confirm").input == .inactive(.valid))
        try form.setValue("cafe", for: "confirm")
        #expect(try form.state(of: "confirm").input == .inactive(.invalid("Passwords don't match")))
    }

    @Test("the default message names the other field by its label, else its id")
    func defaultMessage() throws {
        var form = try Self.passwordAndConfirm(message: nil)
        try form.setValue("a", for: "password")
        try form.setValue("b", for: "confirm")
        #expect(try form.state(of: "confirm").input == .inactive(.invalid("Must match Password")))

        var unlabeled = Form()
        try unlabeled.addField("pin")
        try unlabeled.addField("pin2", rules: [.matches("pin")])
        try unlabeled.setValue("1", for: "pin")
        try unlabeled.setValue("2", for: "pin2")
        #expect(try unlabeled.state(of: "pin2").input == .inactive(.invalid("Must match pin")))
    }

    @Test("an empty dependent is not compared (seed 03: guard !value.isEmpty)")
    func emptyDependentNotCompared() throws {
        var form = Form()
        try form.addField("password")
        try form.addField("confirm", rules: [.matches("password")])
        try form.setValue("x", for: "password")
        try form.touch("confirm")
        expectLooks(form, ["password": Look(.inactive(.valid)), "confirm": .touchedIdle])
    }

    @Test("the dependent is re-validated when the other field changes")
    func revalidatedOnOtherChange() throws {
        var form = try Self.passwordAndConfirm()
        try form.focus("password")
        try form.setValue("Secret1!", for: "password")
        try form.focus("confirm")
        try form.setValue("Secret1!", for: "confirm")
        try form.blur("confirm")
        expectLooks(form, ["password": .blurredValid, "confirm": .blurredValid])

        try form.focus("password")
        try form.setValue("Secret1!x", for: "password")
        expectLooks(form, [
            "password": .retyping(.valid, .valid),
            "confirm": .blurredInvalid("Passwords don't match"),
        ])
        #expect(form.isValid == false)
        #expect(form.firstInvalidFieldID == "confirm")

        try form.setValue("Secret1!", for: "password")
        expectLooks(form, ["password": .retyping(.valid, .valid), "confirm": .blurredValid])
        #expect(form.isValid)
    }

    @Test("a programmatic change of the other field re-checks a focused dependent leniently")
    func focusedDependent() throws {
        var form = try Self.passwordAndConfirm()
        try form.setValue("abc", for: "password")
        try form.focus("confirm")
        try form.setValue("abc", for: "confirm")
        #expect(try form.state(of: "confirm").input == .focused(.valid))
        try form.setValue("abcd", for: "password")
        #expect(try form.state(of: "confirm").input == .focused(.invalid("Passwords don't match")))
    }

    @Test("an idle dependent stays idle when the other field changes")
    func idleDependentStaysIdle() throws {
        var form = try Self.passwordAndConfirm()
        try form.focus("password")
        try form.setValue("Secret1!", for: "password")
        expectLooks(form, ["password": .typing(.valid), "confirm": .untouched])
        try form.blur("password")
        expectLooks(form, ["password": .blurredValid, "confirm": .untouched])
    }

    @Test("an idle dependent with a value stays idle, but isValid sees the new verdict")
    func idleDependentWithValue() throws {
        var form = Form()
        try form.addField("password", initialValue: "abc")
        try form.addField("confirm", initialValue: "abc", rules: [.matches("password")])
        #expect(form.isValid)
        try form.setValue("abcd", for: "password")
        expectLooks(form, ["password": Look(.inactive(.valid)), "confirm": .untouched])
        #expect(form.isValid == false)
        #expect(form.firstInvalidFieldID == "confirm")
        // Once judged, the stored verdict is the one computed against the new value.
        try form.touch("confirm")
        #expect(Look(try form.state(of: "confirm")) == .blurredInvalid("Must match password"))
    }

    @Test("a rule may only name a field added earlier")
    func mustNameEarlierField() throws {
        var form = Form()
        #expect(throws: FormError.unknownField("password")) {
            try form.addField("confirm", rules: [.matches("password")])
        }
        #expect(form.fieldIDs.isEmpty)
    }

    @Test("reset re-judges dependents against the other field's initial value")
    func resetUsesInitialValues() throws {
        var form = Form()
        try form.addField("password", initialValue: "abc")
        try form.addField("confirm", initialValue: "abc", rules: [.matches("password")])
        try form.setValue("zzz", for: "password")
        #expect(form.isValid == false)
        try form.reset()
        #expect(form.isValid)
        #expect(form.values == ["password": "abc", "confirm": "abc"])
    }
}
