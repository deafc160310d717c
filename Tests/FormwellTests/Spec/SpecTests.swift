import Testing
@testable import Formwell

/// The JSON form spec: loading, errors named by JSON path, all-or-nothing loads, export round trips.
@Suite struct SpecTests {
    static let registration = """
    {"formwell": 1, "fields": [
      {"id": "password", "label": "Password", "rules": [{"rule": "required"}, {"rule": "min_length", "length": 8}]},
      {"id": "confirm", "rules": [{"rule": "matches", "field": "password", "message": "Passwords don't match"}]},
      {"id": "phone", "initial": "0123456789", "rules": [{"rule": "custom", "name": "plus"}]}
    ]}
    """

    static let plus = CustomValidator { value in value.hasPrefix("+") ? .valid : .invalid("Number must start with '+'") }

    @Test func loadsFieldsRulesLabelsAndInitialValues() throws {
        let form = try Form(spec: FormSpec(json: Self.registration), validators: ["plus": Self.plus])
        #expect(form.fieldIDs == ["password", "confirm", "phone"])
        #expect(form.values == ["password": "", "confirm": "", "phone": "0123456789"])
        #expect(try form.state(of: "password").label == "Password")
        var submitted = form
        #expect(try submitted.submit(["password": "longenough", "confirm": "different"]) == false)
        #expect(try submitted.state(of: "confirm").display == .error("Passwords don't match"))
        #expect(try submitted.state(of: "phone").display == .error("Number must start with '+'"))
    }

    @Test func matchesMayNameAFieldDefinedLaterInTheSpec() throws {
        let spec = try FormSpec(json: """
        {"formwell": 1, "fields": [{"id": "confirm", "rules": [{"rule": "matches", "field": "password"}]},
                                   {"id": "password", "label": "Password"}]}
        """)
        var form = try Form(spec: spec)
        try form.setValue("secret", for: "password")
        try form.setValue("other", for: "confirm")
        #expect(try form.state(of: "confirm").input == .inactive(.invalid("Must match Password")))
    }

    @Test(arguments: [
        (#"{"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "regex", "pattern": "([a-z]"}]}]}"#,
         "fields[0].rules[0].pattern: missing closing parenthesis at offset 6"),
        (#"{"formwell": 1, "fields": [{"id": "a"}, {"id": "b"}, {"id": "c", "rules": [{"rule": "min_length", "length": -1}]}]}"#,
         "fields[2].rules[0].length: -1 is out of range (0 to 2147483647)"),
        (#"{"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "min_length", "length": 5}, {"rule": "max_length", "length": 2}]}]}"#,
         "fields[0].rules[1].length: min_length 5 is greater than max_length 2 for field 'a'"),
        (#"{"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "matches", "field": "ghost"}]}]}"#,
         "fields[0].rules[0].field: no field with id 'ghost'"),
        (#"{"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "custom", "name": "nobody"}]}]}"#,
         "fields[0].rules[0].name: no validator named 'nobody' is defined"),
        (#"{"formwell": 1, "fields": [{"id": "a"}, {"id": "a"}]}"#,
         "fields[1].id: a field with id 'a' already exists"),
        (#"{"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "emial"}]}]}"#,
         "fields[0].rules[0].rule: unknown rule 'emial'"),
        (#"{"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "email", "mesage": "x"}]}]}"#,
         "fields[0].rules[0].mesage: unknown key (expected one of: hint, message, rule)"),
        (#"{"formwell": 1, "fields": [{"label": "A"}]}"#, "fields[0].id: missing: every field needs an id"),
        (#"{"formwell": 1, "fields": [{"id": "\u0000301"}]}"#, "fields[0].id: a field id must not contain U+0000 (NUL)"),
        // Found by the SpecJSON fuzzer: an initial value (label, message, hint) with U+0000 was loaded,
        // and the C ABI then handed back a text with a NUL inside.
        (#"{"formwell": 1, "fields": [{"id": "a", "initial": "e\u0000"}]}"#, "fields[0].initial: must not contain U+0000 (NUL)"),
        (#"{"formwell": 1, "fields": [{"id": "a", "label": "\u0000"}]}"#, "fields[0].label: must not contain U+0000 (NUL)"),
        (#"{"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "required", "message": "x\u0000y"}]}]}"#,
         "fields[0].rules[0].message: must not contain U+0000 (NUL)"),
        (#"{"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "required", "hint": "\u0000"}]}]}"#,
         "fields[0].rules[0].hint: must not contain U+0000 (NUL)"),
        (#"{"formwell": 1, "fields": [{"id": 3}]}"#, "fields[0].id: expected a string, found a number"),
        (#"{"formwell": 2, "fields": []}"#, "formwell: unsupported spec version 2 (this library reads 1)"),
        (#"{"fields": []}"#, "formwell: missing or not an integer: the spec format version, 1"),
        (#"{"formwell": 1, "fields": {}}"#, "fields: missing or not an array"),
        (#"{"formwell": 1, "fields": ["#, "fields: line 1, column 28: unexpected end of input"),
        ("{\"formwell\": 1,\n \"fields\": [{\"id\": \"a\", \"rules\": [{\"rule\": \"email\"} {}]}]}",
         "fields[0].rules: line 2, column 53: expected ',' or ']' after an array element"),
        (#"{"formwell": 1, "fields": [{"id": "a", "label": "é\x"}]}"#,
         #"fields[0]: line 1, column 51: invalid escape '\x' in a string"#),
        (#"{"formwell": 1, "fields": [{"id": "a", "id": "b"}]}"#, "fields[0].id: duplicate key"),
        (#"{"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "email", "rule": "phone"}]}]}"#,
         "fields[0].rules[0].rule: duplicate key"),
        (#"{"formwell": 1, "formwell": 1, "fields": []}"#, "formwell: duplicate key"),
        (#"{"formwell": 1.5, "fields": []}"#, "formwell: missing or not an integer: the spec format version, 1"),
        (#"{"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "min_length", "length": 1e10}]}]}"#,
         "fields[0].rules[0].length: 10000000000 is out of range (0 to 2147483647)"),
        (#"{"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "min_length", "length": 2.5}]}]}"#,
         "fields[0].rules[0].length: expected an integer, found a number"),
        (#"[1, 2]"#, "expected an object, found an array"),
    ])
    func errorsNameTheJSONPathAndTheProblem(json: String, expected: String) {
        do {
            _ = try Form(spec: FormSpec(json: json))
            Issue.record("loaded a bad spec: \(json)")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func aWholeNumberIsAnIntegerWhateverItsSpelling() throws {
        let spec = try FormSpec(json: #"{"formwell": 1.0, "fields": [{"id": "a", "rules": [{"rule": "min_length", "length": 0.8e1}]}]}"#)
        #expect(spec.fields.first?.rules == [RuleSpec(.minLength(8))])
    }

    @Test func aSyntaxErrorPutsTheContainerInPathAndThePositionInProblem() {
        #expect(throws: SpecError(path: "fields", problem: "line 1, column 28: unexpected end of input")) {
            _ = try FormSpec(json: #"{"formwell": 1, "fields": ["#)
        }
    }

    @Test func aPatternErrorCarriesPCRE2sOffset() {
        #expect(throws: SpecError(path: "fields[0].rules[0].pattern", problem: "missing closing parenthesis at offset 6",
                                  patternOffset: 6)) {
            _ = try Form(spec: FormSpec(json: #"{"formwell": 1, "fields": [{"id": "a", "rules": [{"rule": "regex", "pattern": "([a-z]"}]}]}"#))
        }
    }

    @Test func aFailedLoadLeavesTheFormUnchanged() throws {
        var form = Form()
        try form.addField("existing", initialValue: "kept", rules: [.required()])
        try form.focus("existing")
        let before = try Snapshot(form)
        let bad = try FormSpec(json: #"{"formwell": 1, "fields": [{"id": "new"}, {"id": "other", "rules": [{"rule": "regex", "pattern": "("}]}]}"#)
        #expect(throws: SpecError.self) { try form.load(bad) }
        #expect(try Snapshot(form) == before)
        #expect(throws: SpecError.self) {
            try form.load(FormSpec(json: #"{"formwell": 1, "fields": [{"id": "existing"}]}"#))
        }
        #expect(try Snapshot(form) == before)
    }

    @Test func exportThenLoadThenExportIsStable() throws {
        let form = try Form(spec: FormSpec(json: Self.registration), validators: ["plus": Self.plus])
        let exported = try form.spec().json
        let reloaded = try Form(spec: FormSpec(json: exported), validators: ["plus": Self.plus])
        #expect(try reloaded.spec().json == exported)
        #expect(try reloaded.spec() == form.spec())
        #expect(try FormSpec(json: exported) == form.spec())
    }

    @Test func exportKeepsMessagesLabelsAndInitialValues() throws {
        var form = Form()
        try form.addField("user", label: "Username", initialValue: "ada", rules: [
            .minLength(3, message: "At least 3 characters"), .regex("^[a-z]+$"),
        ])
        let spec = try form.spec()
        #expect(spec == FormSpec(fields: [FieldSpec(id: "user", label: "Username", initial: "ada", rules: [
            RuleSpec(.minLength(3), message: "At least 3 characters"), RuleSpec(.regex("^[a-z]+$")),
        ])]))
    }

    @Test func anAnonymousCustomRuleCannotBeExported() throws {
        var form = Form()
        try form.addField("a", rules: [.custom { _ in .valid }])
        #expect(throws: FormError.invalidArgument("field 'a' has an anonymous custom validator, which a spec cannot name")) {
            _ = try form.spec()
        }
    }

    @Test func submitSetsValuesTouchesAllAndJudgesStrictly() throws {
        var form = try Form(spec: FormSpec(json: Self.registration), validators: ["plus": Self.plus])
        try form.focus("password")
        #expect(try form.submit(["password": "longenough", "confirm": "longenough", "phone": "+123"]))
        #expect(form.focusedFieldID == nil)
        for id in form.fieldIDs {
            #expect(try form.state(of: id).touched)
            #expect(try form.state(of: id).display == .valid)
            #expect(try form.state(of: id).phase == .inactive)
        }
        #expect(throws: FormError.unknownField("nope")) { try form.submit(["nope": "x"]) }
    }
}

/// A spec is refused before anything is built when it would pass the size limits, rule sets
/// counted as their rules.
@Suite struct SpecLimitTests {
    static func spec(fields: Int, setRules: Int, usesPerField: Int = 1) -> String {
        let set = (0..<setRules).map { _ in #"{"rule": "min_length", "length": 1}"# }.joined(separator: ",")
        let uses = Array(repeating: #"{"rule": "set", "name": "s"}"#, count: usesPerField).joined(separator: ",")
        let list = (0..<fields).map { #"{"id": "f\#($0)", "rules": [\#(uses)]}"# }.joined(separator: ",")
        return #"{"formwell": 1, "rule_sets": {"s": [\#(set)]}, "fields": [\#(list)]}"#
    }

    @Test func aSpecPastTheRuleBudgetIsRefused() throws {
        var form = Form()
        let fields = FormLimits.rulesPerSpec / 50_000 + 1
        let spec = try FormSpec(json: Self.spec(fields: fields, setRules: 50_000))
        #expect(throws: SpecError(path: "fields", problem: "the spec expands to more than the \(FormLimits.rulesPerSpec) rules a spec may have, rule sets counted as their rules (FW_LIMIT_RULES_PER_SPEC; reached at fields[\(fields - 1)])")) {
            try form.load(spec)
        }
        #expect(form.fields.isEmpty)
    }

    @Test func aFieldPastTheRuleLimitInASpecIsRefused() throws {
        var form = Form()
        let spec = try FormSpec(json: Self.spec(fields: 1, setRules: 1_000, usesPerField: FormLimits.rulesPerField / 1_000 + 1))
        #expect(throws: SpecError(path: "fields[0].rules", problem: "field 'f0' expands to more than the \(FormLimits.rulesPerField) rules a field may have (FW_LIMIT_RULES_PER_FIELD)")) {
            try form.load(spec)
        }
        #expect(form.fields.isEmpty)
    }
}
