import Testing
@testable import Formwell

/// Issue 11's behaviour beyond what the conformance vectors walk through: modes changed on a live
/// form, error mode switched, groups added later, external errors in the corners, removal with
/// `matches` rules, spec round trips, and change tracking's cost-free no-ops.
@Suite struct FormBehaviourTests {
    static func signUp() throws -> Form {
        var form = Form()
        try form.addField("email", label: "Email", rules: [.required(), .email()], groups: ["account"])
        try form.addField("password", label: "Password", rules: [.required(), .minLength(8), .regex("(?=.*\\d).*")],
                          mode: .onBlur, groups: ["account"])
        try form.addField("confirm", rules: [.matches("password")], groups: ["account"])
        try form.addField("name", label: "Name", rules: [.required()], groups: ["profile"])
        return form
    }

    @Test("changing the form's mode changes what its following fields show, at once, and stamps every following field")
    func modeChangeOnALiveForm() throws {
        var form = try Self.signUp()
        try form.focus("email")
        try form.setValue("", for: "email")
        #expect(try form.state(of: "email").validity == .empty)  // two-stage: lenient while focused
        let revision = form.revision
        form.setValidationMode(.onChange)
        #expect(try form.state(of: "email").validity == .invalid("This field is required"))
        #expect(try form.state(of: "email").mode == .onChange)
        #expect(try form.state(of: "password").mode == .onBlur)  // its own mode wins
        // Every field that follows the form's mode changed (its `mode` is part of its state).
        #expect(form.changedFieldIDs(since: revision) == ["email", "confirm", "name"])
        try form.setValidationMode(nil, for: "password")
        #expect(try form.state(of: "password").mode == .onChange)
        #expect(try form.ownValidationMode(of: "password") == nil)
    }

    @Test("error mode all lists every failing rule's message in rule order; switching back re-runs the rules")
    func errorModeSwitch() throws {
        var form = try Self.signUp()
        try form.setValue("abc", for: "password")
        try form.touch("password")
        #expect(try form.state(of: "password").errors == ["Must be at least 8 characters"])
        try form.setErrorReporting(.all)
        try form.touch("password")  // on_blur: the shown copy is refreshed by touch
        let state = try form.state(of: "password")
        #expect(state.errors == ["Must be at least 8 characters", "Invalid format"])
        #expect(state.message == "Must be at least 8 characters")
        #expect(state.failingRule == 1)
        try form.setErrorReporting(.first)
        try form.touch("password")
        #expect(try form.state(of: "password").errors == ["Must be at least 8 characters"])
    }

    @Test("groups: added later, validated alone, unknown ones refused")
    func groups() throws {
        var form = try Self.signUp()
        try form.addGroup("profile", to: "email")
        #expect(try form.groups(of: "email") == ["account", "profile"])
        #expect(form.groupNames == ["account", "profile"])
        #expect(try form.validate(group: "profile") == false)
        let (emailTouched, passwordTouched) = (try form.state(of: "email").touched, try form.state(of: "password").touched)
        #expect(emailTouched && !passwordTouched)
        #expect(form.submitCount == 0)
        #expect(try form.firstInvalidFieldID(in: "profile") == "email")
        #expect(throws: FormError.invalidArgument("no field belongs to group 'acount'")) { try form.isValid(in: "acount") }
        #expect(throws: FormError.invalidArgument("a group name must not be empty")) { try form.addGroup("", to: "email") }
    }

    @Test("an external error on an idle field counts for is_valid but shows only once touched; clearing it on an empty optional field makes it idle again")
    func externalErrorCorners() throws {
        var form = Form()
        try form.addField("nickname")
        try form.setError("Taken", for: "nickname")
        var state = try form.state(of: "nickname")
        #expect(state.input == .idle && state.display == .none && state.errors.isEmpty && state.externalError)
        #expect(!form.isValid && form.firstInvalidFieldID == "nickname")
        try form.touch("nickname")
        state = try form.state(of: "nickname")
        #expect(state.input == .inactive(.invalid("Taken")) && state.display == .error("Taken"))
        #expect(state.accessibilityHint == "Correct this field" && state.accessibilityValue == "Taken")
        try form.clearError(for: "nickname")
        state = try form.state(of: "nickname")
        #expect(state.input == .idle && state.display == .none && !state.externalError && form.isValid)
        #expect(throws: FormError.invalidArgument("an external error message must not be empty")) {
            try form.setError("", for: "nickname")
        }
    }

    @Test("a field named by a matches rule cannot be removed; after removing its dependent it can, and later fields keep working")
    func removal() throws {
        var form = try Self.signUp()
        #expect(throws: FormError.self) { try form.removeField("password") }
        #expect(form.fieldIDs == ["email", "password", "confirm", "name"])
        try form.removeField("email")
        // `confirm` still compares with `password`, now one position earlier.
        try form.setValue("longpassword1", for: "password")
        try form.setValue("longpassword1", for: "confirm")
        #expect(try form.state(of: "confirm").validity == .valid)
        try form.setValue("other", for: "password")
        try form.touch("confirm")
        #expect(try form.state(of: "confirm").validity == .invalid("Must match Password"))
        try form.removeField("confirm")
        try form.removeField("password")
        #expect(form.fieldIDs == ["name"])
        #expect(try form.fieldIndex(of: "name") == 0)
        #expect(throws: FormError.unknownField("email")) { try form.removeField("email") }
    }

    @Test("modes, groups and hints survive a spec round trip")
    func specRoundTrip() throws {
        var form = try Self.signUp()
        form.setValidationMode(.onTouched)
        try form.setErrorReporting(.all)
        try form.addRule(Rule.phone(hint: "Ten digits, no spaces"), to: "name")
        let json = try form.spec().json
        #expect(json.contains("\"mode\" : \"on_touched\"") && json.contains("\"errors\" : \"all\""))
        let loaded = try Form(spec: FormSpec(json: json))
        #expect(loaded.validationMode == .onTouched && loaded.errorReporting == .all)
        #expect(try loaded.ownValidationMode(of: "password") == .onBlur)
        #expect(try loaded.groups(of: "name") == ["profile"])
        #expect(try loaded.spec() == form.spec())
        #expect(throws: SpecError.self) { try FormSpec(json: #"{"formwell": 1, "mode": "on_blurr", "fields": []}"#) }
        #expect(throws: SpecError.self) { try FormSpec(json: #"{"formwell": 1, "fields": [{"id": "a", "groups": [""]}]}"#) }
    }

    @Test("presentation: seed 01's tint table, floating label and stroke, for every phase and validity")
    func presentation() throws {
        var form = Form()
        try form.addField("email", label: "Email", rules: [.required(), .email()])
        var state = try form.state(of: "email")
        #expect(state.tint == .neutral && !state.labelRaised && !state.emphasized && state.name == "Email")
        try form.focus("email")
        state = try form.state(of: "email")
        #expect(state.tint == .accent && state.labelRaised && state.emphasized)  // focused(empty)
        try form.setValue("ada", for: "email")
        #expect(try form.state(of: "email").tint == .error)  // focused(invalid)
        try form.setValue("ada@example.com", for: "email")
        #expect(try form.state(of: "email").tint == .accent)  // focused(valid)
        try form.blur("email")
        state = try form.state(of: "email")
        #expect(state.tint == .accent && state.labelRaised && !state.emphasized)  // inactive(valid)
        try form.setValue("", for: "email")
        state = try form.state(of: "email")
        #expect(state.tint == .error && state.accessibilityHint == "Enter a value")  // inactive(invalid): required
    }

    @Test("a set-value that changes nothing observable leaves the revision alone; dirty compares bytes")
    func revisionNoOps() throws {
        var form = Form()
        try form.addField("name", initialValue: "Zoé")
        try form.setValue("Zoé", for: "name")
        let revision = form.revision
        try form.setValue("Zoé", for: "name")
        #expect(form.revision == revision)
        try form.setValue("Zoe\u{301}", for: "name")  // canonically equal, other bytes
        #expect(form.revision == revision + 1 && form.isDirty && form.dirtyFieldIDs == ["name"])
        #expect(try form.state(of: "name").initial == "Zoé")
        try form.reset(values: ["name": "Zoe\u{301}"])
        let initial = try form.initialValue(of: "name")
        #expect(!form.isDirty && initial == "Zoe\u{301}")
        #expect(throws: FormError.unknownField("nope")) { try form.reset(values: ["nope": "x"]) }
    }
}
