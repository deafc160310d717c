import Testing
@testable import Formwell

@Suite struct CustomRuleTests {
    @Test func validVerdict() throws {
        #expect(try strictVerdict([.custom { _ in .valid }], "x") == .valid)
    }

    @Test(".invalid(nil) falls back to the default message")
    func invalidNilDefault() throws {
        #expect(try strictVerdict([.custom { _ in .invalid(nil) }], "x") == .invalid("Invalid value"))
    }

    @Test(".invalid(nil) falls back to the rule's message")
    func invalidNilRuleMessage() throws {
        #expect(try strictVerdict([.custom(message: "Rule says no") { _ in .invalid(nil) }], "x")
                == .invalid("Rule says no"))
    }

    @Test(".invalid(own) reports the validator's own message")
    func invalidOwn() throws {
        #expect(try strictVerdict([.custom { _ in .invalid("own") }], "x") == .invalid("own"))
    }

    @Test("the rule's message replaces the validator's own message")
    func ruleMessageOverridesOwn() throws {
        // README: "Every rule takes an optional custom message that replaces its default", and a
        // custom rule's default is "its own message, else Invalid value".
        #expect(try strictVerdict([.custom(message: "Rule says no") { _ in .invalid("own") }], "x")
                == .invalid("Rule says no"))
    }

    @Test("the closure receives the current non-empty value and is not called for an empty one")
    func receivesValue() throws {
        let rule = Rule.custom { value in
            #expect(!value.isEmpty)
            return value.hasPrefix("+") ? .valid : .invalid("Number must start with '+'")
        }
        #expect(try strictVerdict([.required(), .phone(), rule], "0123456789") == .invalid("Number must start with '+'"))
        #expect(try strictVerdict([rule], "+1") == .valid)
        #expect(try strictVerdict([rule], "") == .empty)
    }

    @Test("a verdict may depend on the value")
    func valueDependent() throws {
        let taken = Rule.custom { value in
            ["ada", "grace"].contains(value.lowercased()) ? .invalid("That username is already taken") : .valid
        }
        #expect(try strictVerdict([taken], "Ada") == .invalid("That username is already taken"))
        #expect(try strictVerdict([taken], "alan") == .valid)
    }

    // MARK: A throwing validator

    static let exploded = FormError.callbackFailed("custom validator of field 'f' failed: validator exploded")

    /// A form whose field "f" has a passing value and a tripwire validator, plus a field "g".
    static func armedForm(_ tripwire: Tripwire) throws -> Form {
        var form = Form()
        try form.addField("f", rules: [.required(), tripwire.rule])
        try form.addField("g", rules: [.required()])
        try form.focus("f")
        try form.setValue("good", for: "f")
        tripwire.arm()
        return form
    }

    @Test("a throwing validator makes addField throw callbackFailed and adds nothing")
    func throwsOnAddField() throws {
        var form = Form()
        try form.addField("g")
        let before = try Snapshot(form)
        #expect(throws: Self.exploded) {
            try form.addField("f", initialValue: "x", rules: [.custom { _ in throw ValidatorExploded() }])
        }
        #expect(try Snapshot(form) == before)
        #expect(form.fieldIDs == ["g"])
    }

    @Test("a throwing validator makes setValue throw and leaves the form exactly as before")
    func throwsOnSetValue() throws {
        let tripwire = Tripwire()
        var form = try Self.armedForm(tripwire)
        let before = try Snapshot(form)
        #expect(throws: Self.exploded) { try form.setValue("bad", for: "f") }
        #expect(try Snapshot(form) == before)
        #expect(try form.value(of: "f") == "good")
        #expect(try form.state(of: "f").input == .focused(.valid))
    }

    @Test("a throwing validator makes blur throw; the field stays focused and untouched")
    func throwsOnBlur() throws {
        let tripwire = Tripwire()
        var form = try Self.armedForm(tripwire)
        let before = try Snapshot(form)
        #expect(throws: Self.exploded) { try form.blur("f") }
        #expect(try Snapshot(form) == before)
        #expect(form.focusedFieldID == "f")
        #expect(try form.state(of: "f").touched == false)
    }

    @Test("focusing another field blurs a field whose validator throws: nothing changes, focus stays")
    func throwsOnFocusElsewhere() throws {
        let tripwire = Tripwire()
        var form = try Self.armedForm(tripwire)
        let before = try Snapshot(form)
        #expect(throws: Self.exploded) { try form.focus("g") }
        #expect(try Snapshot(form) == before)
        #expect(form.focusedFieldID == "f")
        #expect(try form.state(of: "g").input == .idle)
    }

    @Test("a throwing validator makes touch, touchAll and validate throw and change nothing")
    func throwsOnTouchTouchAllValidate() throws {
        let tripwire = Tripwire()
        var form = try Self.armedForm(tripwire)
        let before = try Snapshot(form)
        #expect(throws: Self.exploded) { try form.touch("f") }
        #expect(try Snapshot(form) == before)
        #expect(throws: Self.exploded) { try form.touchAll() }
        #expect(try Snapshot(form) == before)
        // touchAll must not have touched "g" (registered after "f") either.
        #expect(try form.state(of: "g").touched == false)
        #expect(throws: Self.exploded) { try form.validate() }
        #expect(try Snapshot(form) == before)
    }

    @Test("a throwing validator makes reset throw and change nothing")
    func throwsOnReset() throws {
        let tripwire = Tripwire()
        var form = Form()
        try form.addField("f", initialValue: "start", rules: [tripwire.rule])
        try form.focus("f")
        try form.setValue("edited", for: "f")
        tripwire.arm()
        let before = try Snapshot(form)
        #expect(throws: FormError.self) { try form.reset() }
        #expect(try Snapshot(form) == before)
        #expect(try form.value(of: "f") == "edited")
        #expect(form.focusedFieldID == "f")
    }

    @Test("a throwing validator makes addRule throw and leaves the field's rules as they were")
    func throwsOnAddRule() throws {
        var form = Form()
        try form.addField("f", initialValue: "x")
        try form.setValue("y", for: "f")
        let before = try Snapshot(form)
        #expect(throws: Self.exploded) { try form.addRule(.custom { _ in throw ValidatorExploded() }, to: "f") }
        #expect(try Snapshot(form) == before)
        try form.setValue("z", for: "f")   // no throwing rule was kept
        #expect(try form.state(of: "f").input == .inactive(.valid))
    }

    @Test("a dependent's throwing validator makes the other field's setValue throw and change nothing")
    func throwsInDependent() throws {
        let tripwire = Tripwire()
        var form = Form()
        try form.addField("password")
        try form.addField("confirm", rules: [tripwire.rule, .matches("password")])
        try form.setValue("abc", for: "password")
        try form.setValue("abc", for: "confirm")
        tripwire.arm()
        let before = try Snapshot(form)
        #expect(throws: FormError.callbackFailed("custom validator of field 'confirm' failed: validator exploded")) {
            try form.setValue("abcd", for: "password")
        }
        #expect(try Snapshot(form) == before)
        #expect(try form.value(of: "password") == "abc")
    }

    @Test("after the validator stops throwing, the form works on from where it was")
    func recovers() throws {
        let tripwire = Tripwire()
        var form = try Self.armedForm(tripwire)
        #expect(throws: FormError.self) { try form.focus("g") }
        tripwire.disarm()
        try form.focus("g")
        expectLooks(form, ["f": .blurredValid, "g": .typing(.empty)])
    }
}
