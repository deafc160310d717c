import Testing
@testable import Formwell

/// Asynchronous rules: the request/resolve protocol on the host's clock (issue 12).
@Suite struct AsyncRuleTests {
    static func usernameForm(debounce: UInt64 = 500) throws -> Form {
        var form = Form()
        try form.addField("username", label: "Username", rules: [.required(), .minLength(3)])
        try form.addAsyncRule(AsyncRule("username_available", debounceMilliseconds: debounce), to: "username")
        try form.addField("email", rules: [.email()])
        return form
    }

    static func take(_ form: inout Form, _ now: UInt64) throws -> AsyncRequest {
        let request = form.nextRequest(now: now)
        return try #require(request)
    }

    @Test("typing again before a request is due replaces it; the replaced one is never handed out")
    func debounce() throws {
        var form = try Self.usernameForm()
        try form.focus("username")
        form.tick(1_000)
        try form.setValue("ada", for: "username")
        #expect(try form.state(of: "username").validity == .pending)
        #expect(form.nextDueTime == 1_500)
        form.tick(1_200)
        try form.setValue("adam", for: "username")
        #expect(form.nextDueTime == 1_700)
        #expect(form.nextRequest(now: 1_600) == nil)  // "ada" was replaced, "adam" is not due
        let request = try Self.take(&form, 1_700)
        #expect(request.value == "adam" && request.fieldID == "username" && request.rule == "username_available")
        #expect(request.id == 2 && request.due == 1_700)
        #expect(form.nextRequest(now: 5_000) == nil)  // handed out once
        #expect(try form.resolve(request.id, .valid) == .applied)
        #expect(try form.state(of: "username").validity == .valid)
    }

    @Test("an edit the normalisers undo keeps the answer: a trimmed field typed a trailing space stays valid")
    func normalisedValueKeepsItsAnswer() throws {
        var form = Form()
        try form.addField("username", rules: [.required(), .minLength(3)], normalizers: [.trim])
        try form.addAsyncRule(AsyncRule("username_available", debounceMilliseconds: 0), to: "username")
        try form.focus("username")
        try form.setValue("ada", for: "username")
        let request = try Self.take(&form, 0)
        #expect(try form.resolve(request.id, .valid) == .applied)
        try form.setValue("ada ", for: "username")
        #expect(try form.state(of: "username").validity == .valid)
        #expect(form.nextRequest(now: 10_000) == nil)
        #expect(form.pendingFieldIDs.isEmpty)
        #expect(try form.submit(["username": " ada"]))  // a submit of the same normalised value is not pending
        #expect(try form.state(of: "username").validity == .valid)
        #expect(form.nextRequest(now: 10_000) == nil)
        // A change of the normalised value still asks again.
        try form.setValue("adam ", for: "username")
        #expect(try form.state(of: "username").validity == .pending)
        #expect(try Self.take(&form, 10_000).value == "adam")
    }

    @Test("results in any order: a slow first request resolving after a fast second one is stale")
    func outOfOrder() throws {
        var form = try Self.usernameForm(debounce: 0)
        try form.focus("username")
        try form.setValue("ada", for: "username")
        let first = try Self.take(&form, 0)
        try form.setValue("adam", for: "username")
        let second = try Self.take(&form, 0)
        #expect(try form.resolve(second.id, .invalid("Username is already taken")) == .applied)
        #expect(try form.resolve(first.id, .valid) == .stale)
        let state = try form.state(of: "username")
        #expect(state.validity == .invalid("Username is already taken") && state.failingRule == 2)
        #expect(form.staleResults == 1)
        #expect(throws: FormError.requestClosed(second.id)) { try form.resolve(second.id, .valid) }
        #expect(throws: FormError.unknownRequest(99)) { try form.resolve(99, .valid) }
        #expect(throws: FormError.unknownRequest(0)) { try form.resolve(0, .valid) }
    }

    @Test("a value that fails a synchronous rule (or is empty) sends nothing to the host")
    func onlyWhenSynchronousRulesPass() throws {
        var form = try Self.usernameForm(debounce: 0)
        try form.setValue("ad", for: "username")
        #expect(form.nextRequest(now: 10) == nil)
        #expect(try form.state(of: "username").validity == .invalid("Must be at least 3 characters"))
        try form.setValue("", for: "username")
        #expect(form.openRequests.isEmpty)
    }

    @Test("submit makes debounced requests due at once and says pending; is_valid is false while pending")
    func submitFlushes() throws {
        var form = try Self.usernameForm()
        form.tick(100)
        try form.setValue("ada", for: "username")
        #expect(!form.isValid && form.firstInvalidFieldID == nil && form.pendingFieldIDs == ["username"])
        #expect(try form.submit() == .pending(["username"]))
        #expect(!form.submitFailed && form.submitCount == 1)
        let request = try Self.take(&form, 100)  // due now, not at 600
        try form.resolve(request.id, .invalid(nil))
        #expect(try form.state(of: "username").display == .error("Invalid value"))
        #expect(try form.submit() == .invalid)
        #expect(form.announcement == "1 field needs attention: Username")
    }

    @Test("reset and removal cancel requests; their late results are stale, the form stays usable")
    func cancellation() throws {
        var form = try Self.usernameForm(debounce: 0)
        try form.setValue("ada", for: "username")
        let request = try Self.take(&form, 0)
        try form.reset()
        #expect(form.openRequests.isEmpty && form.pendingFieldIDs.isEmpty)
        #expect(try form.resolve(request.id, .valid) == .stale)
        try form.setValue("bob", for: "username")
        let second = try Self.take(&form, 0)
        try form.removeField("username")
        #expect(try form.resolve(second.id, .valid) == .stale)
        #expect(form.fieldIDs == ["email"])
    }

    @Test("an error verdict reads invalid until the value changes; a custom message on the rule wins")
    func errorsAndMessages() throws {
        var form = Form()
        try form.addField("username")
        try form.addAsyncRule(AsyncRule("available", debounceMilliseconds: 0, message: "Taken", hint: "Pick another name"),
                              to: "username")
        try form.setValue("ada", for: "username")
        try form.resolve(try Self.take(&form, 0).id, .error(nil))
        #expect(try form.state(of: "username").validity == .invalid("Could not check this value"))
        try form.setValue("adb", for: "username")
        try form.resolve(try Self.take(&form, 0).id, .invalid("host says no"))
        try form.touch("username")
        let state = try form.state(of: "username")
        #expect(state.display == .error("Taken") && state.accessibilityHint == "Pick another name")
    }

    @Test("an on_blur field showing pending takes the result when it arrives")
    func frozenPendingRefreshes() throws {
        var form = try Self.usernameForm(debounce: 0)
        try form.setValidationMode(.onBlur, for: "username")
        try form.focus("username")
        try form.setValue("ada", for: "username")
        try form.blur("username")
        #expect(try form.state(of: "username").validity == .pending)
        try form.resolve(try Self.take(&form, 0).id, .valid)
        #expect(try form.state(of: "username").validity == .valid)
    }

    @Test("initial values are taken as checked; the clock never goes back; a spec names async rules")
    func initialValuesClockAndSpec() throws {
        var form = try Form(spec: FormSpec(json: """
            {"formwell": 1, "fields": [{"id": "username", "initial": "ada",
              "rules": [{"rule": "required"}, {"rule": "async", "name": "available", "debounce_ms": 250}]}]}
            """))
        #expect(form.isValid && form.openRequests.isEmpty)
        form.tick(1_000)
        form.tick(10)
        #expect(form.now == 1_000)
        try form.setValue("bob", for: "username")
        #expect(form.nextDueTime == 1_250)
        #expect(try form.asyncRules(of: "username") == [AsyncRule("available", debounceMilliseconds: 250)])
        let json = try form.spec().json
        #expect(json.contains("\"debounce_ms\" : 250") && json.contains("\"rule\" : \"async\""))
        #expect(try Form(spec: FormSpec(json: json)).spec() == form.spec())
    }
}
