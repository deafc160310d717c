import Testing
@testable import Formwell

/// Seed 03's surfacing rules: `.none` until touched; then `.valid` / `.error(msg)` from the strict
/// verdict, and `.none` for a touched, empty, optional field.
@Suite struct DisplayStateTests {
    @Test("an untouched field displays .none even when its value is invalid")
    func noneUntilTouched() throws {
        var form = Form()
        try form.addField("email", rules: [.required(), .email()])
        try form.setValue("nope", for: "email")
        let state = try form.state(of: "email")
        #expect(state.input == .inactive(.invalid("Invalid email format")))
        #expect(state.display == .none)
        #expect(state.touched == false)
    }

    @Test("an untouched focused field with an invalid value displays .none")
    func noneWhileFirstTyping() throws {
        var form = Form()
        try form.addField("email", rules: [.required(), .email()])
        try form.focus("email")
        try form.setValue("jane@", for: "email")
        #expect(Look(try form.state(of: "email")) == .typing(.invalid("Invalid email format")))
    }

    @Test("touched + empty + optional => .none")
    func touchedEmptyOptional() throws {
        var form = Form()
        try form.addField("bio", rules: [.maxLength(280)])
        try form.touch("bio")
        #expect(Look(try form.state(of: "bio")) == .touchedIdle)
    }

    @Test("touched + empty + required => .error(required message)")
    func touchedEmptyRequired() throws {
        var form = Form()
        try form.addField("name", rules: [.required(message: "Name is required")])
        try form.touch("name")
        #expect(Look(try form.state(of: "name")) == .blurredInvalid("Name is required"))
    }

    @Test("touched + passing => .valid")
    func touchedValid() throws {
        var form = Form()
        try form.addField("email", initialValue: "a@b.co", rules: [.required(), .email()])
        try form.touch("email")
        #expect(Look(try form.state(of: "email")) == .blurredValid)
    }

    @Test("touched + failing => .error(first failing message)")
    func touchedError() throws {
        var form = Form()
        try form.addField("pw", initialValue: "short", rules: [.required(), .minLength(8)])
        try form.touch("pw")
        #expect(Look(try form.state(of: "pw")) == .blurredInvalid("Must be at least 8 characters"))
        #expect(try form.state(of: "pw").display.message == "Must be at least 8 characters")
    }

    @Test("a touched field being edited again displays the strict verdict while its input is lenient")
    func touchedAndFocusedShowsStrictVerdict() throws {
        var form = Form()
        try form.addField("name", rules: [.required(), .minLength(3)])
        try form.focus("name")
        try form.setValue("Ada", for: "name")
        try form.blur("name")
        try form.focus("name")
        #expect(Look(try form.state(of: "name")) == .retyping(.valid, .valid))
        try form.setValue("Ad", for: "name")
        #expect(Look(try form.state(of: "name"))
                == .retyping(.invalid("Must be at least 3 characters"), .error("Must be at least 3 characters")))
        try form.setValue("", for: "name")
        #expect(Look(try form.state(of: "name")) == .retyping(.empty, .error("This field is required")))
    }

    @Test("the display follows later value changes of a touched field")
    func displayFollowsValue() throws {
        var form = Form()
        try form.addField("phone", rules: [.phone()])
        try form.touch("phone")
        #expect(Look(try form.state(of: "phone")) == .touchedIdle)
        try form.setValue("12345", for: "phone")
        #expect(Look(try form.state(of: "phone")) == .blurredInvalid("Invalid phone number"))
        try form.setValue("0123456789", for: "phone")
        #expect(Look(try form.state(of: "phone")) == .blurredValid)
        try form.setValue("", for: "phone")
        #expect(Look(try form.state(of: "phone")) == .touchedIdle)
    }
}

/// The touched flag: set by blur, touch, touchAll and validate; cleared by reset; not set by
/// focus or by setting a value.
@Suite struct TouchedFlagTests {
    static func twoFields() throws -> Form {
        var form = Form()
        try form.addField("a", rules: [.required()])
        try form.addField("b", rules: [.email()])
        return form
    }

    @Test("focus and setValue do not touch")
    func focusAndTypingDoNotTouch() throws {
        var form = try Self.twoFields()
        try form.focus("a")
        try form.setValue("x", for: "a")
        try form.setValue("y", for: "b")
        #expect(try form.state(of: "a").touched == false)
        #expect(try form.state(of: "b").touched == false)
    }

    @Test("blur touches the field it blurs")
    func blurTouches() throws {
        var form = try Self.twoFields()
        try form.focus("a")
        try form.blur("a")
        expectLooks(form, ["a": .blurredInvalid("This field is required"), "b": .untouched])
        #expect(form.focusedFieldID == nil)
    }

    @Test("blur of a field that never had focus still touches it, and leaves the focus where it is")
    func blurUnfocusedField() throws {
        var form = try Self.twoFields()
        try form.focus("b")
        try form.blur("a")
        expectLooks(form, ["a": .blurredInvalid("This field is required"), "b": .typing(.empty)])
        #expect(form.focusedFieldID == "b")
    }

    @Test("touch touches one field and runs its rules")
    func touchOne() throws {
        var form = try Self.twoFields()
        try form.touch("b")
        expectLooks(form, ["a": .untouched, "b": .touchedIdle])
        try form.touch("a")
        expectLooks(form, ["a": .blurredInvalid("This field is required"), "b": .touchedIdle])
    }

    @Test("touching the focused field keeps its focus and its lenient input state")
    func touchFocused() throws {
        var form = try Self.twoFields()
        try form.focus("a")
        try form.touch("a")
        expectLooks(form, ["a": .retyping(.empty, .error("This field is required")), "b": .untouched])
        #expect(form.focusedFieldID == "a")
    }

    @Test("touchAll touches every field")
    func touchAll() throws {
        var form = try Self.twoFields()
        try form.setValue("x@y", for: "b")
        try form.touchAll()
        expectLooks(form, ["a": .blurredInvalid("This field is required"), "b": .blurredInvalid("Invalid email format")])
    }

    @Test("validate touches every field and answers isValid")
    func validateTouches() throws {
        var form = try Self.twoFields()
        #expect(try form.validate() == false)
        expectLooks(form, ["a": .blurredInvalid("This field is required"), "b": .touchedIdle])
        try form.setValue("x", for: "a")
        #expect(try form.validate() == true)
        expectLooks(form, ["a": .blurredValid, "b": .touchedIdle])
    }

    @Test("reset clears touched, focus and states")
    func resetClears() throws {
        var form = try Self.twoFields()
        try form.focus("a")
        try form.setValue("x", for: "a")
        try form.touchAll()
        try form.reset()
        expectLooks(form, ["a": .untouched, "b": .untouched])
        #expect(form.focusedFieldID == nil)
        #expect(form.values == ["a": "", "b": ""])
    }
}

/// One focus per form (seed 01's @FocusState): focusing B blurs A.
@Suite struct FocusTests {
    @Test("focusing B blurs A: A takes the strict stage and counts as touched")
    func focusMovesAndBlurs() throws {
        var form = Form()
        try form.addField("a", rules: [.required(), .email()])
        try form.addField("b", rules: [.required()])
        try form.focus("a")
        try form.setValue("a@b", for: "a")
        expectLooks(form, ["a": .typing(.invalid("Invalid email format")), "b": .untouched])
        try form.focus("b")
        #expect(form.focusedFieldID == "b")
        expectLooks(form, ["a": .blurredInvalid("Invalid email format"), "b": .typing(.empty)])
        try form.focus("a")
        #expect(form.focusedFieldID == "a")
        expectLooks(form, [
            "a": .retyping(.invalid("Invalid email format"), .error("Invalid email format")),
            "b": .blurredInvalid("This field is required"),
        ])
    }

    @Test("focusing the focused field again changes nothing")
    func refocus() throws {
        var form = Form()
        try form.addField("a", rules: [.required()])
        try form.focus("a")
        try form.focus("a")
        #expect(form.focusedFieldID == "a")
        expectLooks(form, ["a": .typing(.empty)])
    }

    @Test("blurring the focused field leaves the form without focus")
    func blurClearsFocus() throws {
        var form = Form()
        try form.addField("a")
        #expect(form.focusedFieldID == nil)
        try form.focus("a")
        try form.blur("a")
        #expect(form.focusedFieldID == nil)
        expectLooks(form, ["a": .touchedIdle])
    }

    @Test("validate keeps the focused field focused")
    func validateKeepsFocus() throws {
        var form = Form()
        try form.addField("a", rules: [.required()])
        try form.addField("b", rules: [.required()])
        try form.focus("b")
        #expect(try form.validate() == false)
        #expect(form.focusedFieldID == "b")
        expectLooks(form, [
            "a": .blurredInvalid("This field is required"),
            "b": .retyping(.empty, .error("This field is required")),
        ])
    }
}
