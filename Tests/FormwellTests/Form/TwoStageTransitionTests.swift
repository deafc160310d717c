import Testing
@testable import Formwell

/// Seed 02's two-stage table, one transition per test:
///
/// | focused | value                    | state                                    |
/// |---------|--------------------------|------------------------------------------|
/// | yes     | empty                    | .focused(.empty)                         |
/// | yes     | first failing rule (not required) | .focused(.invalid(msg))         |
/// | yes     | all rules pass           | .focused(.valid)                         |
/// | no      | empty, required          | .inactive(.invalid("This field is required")) |
/// | no      | empty, optional          | .idle                                    |
/// | no      | first failing rule       | .inactive(.invalid(msg))                 |
/// | no      | all rules pass           | .inactive(.valid)                        |
@Suite struct TwoStageTransitionTests {
    /// A named rule list, so parameterized cases read well in the test report.
    struct Rules: Sendable, CustomTestStringConvertible {
        let name: String
        let rules: [Rule]
        var testDescription: String { name }
    }

    static let ruleSets: [Rules] = [
        Rules(name: "no rules", rules: []),
        Rules(name: "required", rules: [.required()]),
        Rules(name: "required + email", rules: [.required(), .email()]),
        Rules(name: "required(custom message) + minLength 8", rules: [.required(message: "Need it"), .minLength(8)]),
        Rules(name: "phone", rules: [.phone()]),
        Rules(name: "custom always invalid", rules: [.custom { _ in .invalid("never") }]),
    ]

    // MARK: Stage 1: focused (lenient)

    @Test("focused + empty => .focused(.empty)", arguments: ruleSets)
    func focusedEmpty(_ set: Rules) throws {
        var form = Form()
        try form.addField("f", rules: set.rules)
        try form.focus("f")
        #expect(try form.state(of: "f").input == .focused(.empty))
        // Typing then deleting everything comes back to .focused(.empty), never to an error.
        try form.setValue("x", for: "f")
        try form.setValue("", for: "f")
        #expect(try form.state(of: "f").input == .focused(.empty))
        #expect(try form.state(of: "f").message == nil)
    }

    @Test("focused skips required: an empty required field is not flagged while typing")
    func focusedSkipsRequired() throws {
        var form = Form()
        try form.addField("name", rules: [.required(message: "Name is required")])
        try form.focus("name")
        try form.setValue("A", for: "name")
        #expect(try form.state(of: "name").input == .focused(.valid))
        try form.setValue("", for: "name")
        let state = try form.state(of: "name")
        #expect(state.input == .focused(.empty))
        #expect(state.phase == .focused)
        #expect(state.validity == .empty)
        #expect(state.message == nil)
        // The same value, once blurred, is the strict stage's required error.
        try form.blur("name")
        #expect(try form.state(of: "name").input == .inactive(.invalid("Name is required")))
    }

    @Test("focused + first failing rule => .focused(.invalid(msg))", arguments: [
        ("a", [Rule.required(), .email()], "Invalid email format"),
        ("12345", [Rule.required(), .phone()], "Invalid phone number"),
        ("abc", [Rule.required(), .minLength(8)], "Must be at least 8 characters"),
        ("abc", [Rule.minLength(8, message: "Too short"), .email()], "Too short"),
        ("abcdefghi", [Rule.minLength(2), .maxLength(4), .email()], "Must be 4 characters or fewer"),
        ("ABC", [Rule.regex("[a-z]+")], "Invalid format"),
        ("x", [Rule.custom { _ in .invalid("Number must start with '+'") }], "Number must start with '+'"),
    ])
    func focusedFirstFailing(value: String, rules: [Rule], message: String) throws {
        var form = Form()
        try form.addField("f", rules: rules)
        try form.focus("f")
        try form.setValue(value, for: "f")
        let state = try form.state(of: "f")
        #expect(state.input == .focused(.invalid(message)))
        #expect(state.message == message)
        #expect(state.display == .none)   // untouched: seed 03 surfaces nothing yet
    }

    @Test("focused + all rules pass => .focused(.valid)", arguments: [
        ("jane@example.com", [Rule.required(), .email()]),
        ("0123456789", [Rule.phone()]),
        ("hunter22", [Rule.required(), .minLength(8)]),
        ("anything", [Rule]()),
        ("abc", [Rule.regex("[a-z]+"), .maxLength(3)]),
    ])
    func focusedAllPass(value: String, rules: [Rule]) throws {
        var form = Form()
        try form.addField("f", rules: rules)
        try form.focus("f")
        try form.setValue(value, for: "f")
        #expect(try form.state(of: "f").input == .focused(.valid))
    }

    // MARK: Stage 2: not focused (strict)

    @Test("not focused + required + empty => .inactive(.invalid(\"This field is required\"))")
    func inactiveRequiredEmpty() throws {
        var form = Form()
        try form.addField("email", rules: [.required(), .email()])
        try form.focus("email")
        try form.blur("email")
        #expect(try form.state(of: "email").input == .inactive(.invalid("This field is required")))
        #expect(try form.state(of: "email").message == "This field is required")
    }

    @Test("not focused + required(message:) + empty => .inactive(.invalid(message))")
    func inactiveRequiredEmptyCustomMessage() throws {
        var form = Form()
        try form.addField("confirm", rules: [.required(message: "Please confirm your password")])
        try form.touch("confirm")
        #expect(try form.state(of: "confirm").input == .inactive(.invalid("Please confirm your password")))
    }

    @Test("not focused + empty + optional => .idle", arguments: [
        Rules(name: "no rules", rules: []),
        Rules(name: "email", rules: [.email()]),
        Rules(name: "minLength 3", rules: [.minLength(3)]),
        Rules(name: "custom always invalid", rules: [.custom { _ in .invalid("never") }]),
    ])
    func inactiveEmptyOptional(_ set: Rules) throws {
        var form = Form()
        try form.addField("f", rules: set.rules)
        try form.focus("f")
        try form.setValue("abc", for: "f")
        try form.setValue("", for: "f")
        try form.blur("f")
        let state = try form.state(of: "f")
        #expect(state.input == .idle)
        #expect(state.validity == .empty)
        #expect(state.touched)
    }

    @Test("not focused + first failing rule => .inactive(.invalid(msg))", arguments: [
        ("a@b", [Rule.required(), .email()], "Invalid email format"),
        ("+123456789", [Rule.phone()], "Invalid phone number"),
        ("hunter2", [Rule.required(), .minLength(8)], "Must be at least 8 characters"),
        ("abc1", [Rule.regex("[a-z]+", message: "Letters only")], "Letters only"),
    ])
    func inactiveFirstFailing(value: String, rules: [Rule], message: String) throws {
        var form = Form()
        try form.addField("f", rules: rules)
        try form.focus("f")
        try form.setValue(value, for: "f")
        try form.blur("f")
        #expect(try form.state(of: "f").input == .inactive(.invalid(message)))
    }

    @Test("not focused + all rules pass => .inactive(.valid)", arguments: [
        (" ", [Rule.required()]),   // whitespace is not empty (seed 02 checks text.isEmpty)
        ("jane@example.com", [Rule.required(), .email()]),
        ("hunter22", [Rule.required(), .minLength(8)]),
        ("free text", [Rule]()),
    ])
    func inactiveAllPass(value: String, rules: [Rule]) throws {
        var form = Form()
        try form.addField("f", rules: rules)
        try form.focus("f")
        try form.setValue(value, for: "f")
        try form.blur("f")
        #expect(try form.state(of: "f").input == .inactive(.valid))
    }

    // MARK: Entering the stages

    @Test("a new field is idle, untouched, with nothing displayed, whatever its value")
    func newFieldIsIdle() throws {
        var form = Form()
        try form.addField("a", rules: [.required()])
        try form.addField("b", initialValue: "not an email", rules: [.email()])
        expectLooks(form, ["a": .untouched, "b": .untouched])
        #expect(try form.value(of: "b") == "not an email")
    }

    @Test("focusing a field with a value applies the lenient stage to that value")
    func focusJudgesExistingValue() throws {
        var form = Form()
        try form.addField("e", initialValue: "not an email", rules: [.required(), .email()])
        try form.focus("e")
        #expect(try form.state(of: "e").input == .focused(.invalid("Invalid email format")))
        #expect(form.focusedFieldID == "e")
    }

    @Test("setValue on an unfocused field applies the strict stage (seed 01: onChange(of: text))")
    func programmaticSetValueIsStrict() throws {
        var form = Form()
        try form.addField("e", rules: [.required(), .email()])
        try form.setValue("a@b", for: "e")
        #expect(Look(try form.state(of: "e")) == Look(.inactive(.invalid("Invalid email format"))))
        try form.setValue("a@b.co", for: "e")
        #expect(Look(try form.state(of: "e")) == Look(.inactive(.valid)))
        try form.setValue("", for: "e")
        #expect(Look(try form.state(of: "e")) == Look(.inactive(.invalid("This field is required"))))
    }

    @Test("setValue to empty on an unfocused optional field goes back to .idle")
    func programmaticClearOfOptionalIsIdle() throws {
        var form = Form()
        try form.addField("bio", initialValue: "hello", rules: [.maxLength(280)])
        try form.setValue("", for: "bio")
        #expect(try form.state(of: "bio").input == .idle)
    }

    @Test("InputState accessors: phase and validity (an idle field reads .empty)")
    func inputStateAccessors() {
        #expect(InputState.idle.phase == .idle)
        #expect(InputState.idle.validity == .empty)
        #expect(InputState.focused(.valid).phase == .focused)
        #expect(InputState.focused(.invalid("m")).validity == .invalid("m"))
        #expect(InputState.inactive(.empty).phase == .inactive)
        #expect(Validity.invalid("m").message == "m")
        #expect(Validity.valid.message == nil)
        #expect(DisplayState.error("e").message == "e")
        #expect(DisplayState.valid.message == nil)
    }
}
