import Testing
@testable import Formwell

@Suite struct RuleSpecTests {
    static let everyKind = """
    {"formwell": 1,
     "rule_sets": {"password": [{"rule": "required"}, {"rule": "min_length", "length": 8, "unit": "utf16"},
                                {"rule": "password_strength", "min_score": 3}]},
     "fields": [
      {"id": "site", "rules": [{"rule": "url", "schemes": ["https"]}]},
      {"id": "mail", "rules": [{"rule": "html_email", "hint": "name@example.com"}]},
      {"id": "tel", "rules": [{"rule": "e164"}]},
      {"id": "age", "rules": [{"rule": "integer", "min": 18, "max": "130"}]},
      {"id": "price", "rules": [{"rule": "decimal", "min": 0.01, "message": "Too cheap"}]},
      {"id": "size", "rules": [{"rule": "one_of", "values": ["S", "M", "L"]}]},
      {"id": "user", "rules": [{"rule": "none_of", "values": ["admin"]}, {"rule": "max_length", "length": 20, "unit": "bytes"}]},
      {"id": "password", "rules": [{"rule": "set", "name": "password"}, {"rule": "not_equal", "field": "user"}]},
      {"id": "country"},
      {"id": "state", "rules": [{"rule": "required_if", "field": "country", "value": "US"}]},
      {"id": "zip", "rules": [{"rule": "required_with", "field": "state"}, {"rule": "required_without", "field": "tel"}]}
     ]}
    """

    @Test func everyKindLoadsExportsAndLoadsAgain() throws {
        let spec = try FormSpec(json: Self.everyKind)
        #expect(spec.ruleSets.map(\.name) == ["password"])
        #expect(spec.fields[7].rules.first?.ruleSetName == "password")
        let form = try Form(spec: spec)
        #expect(try form.fieldIndex(of: "zip") == 10)
        let exported = try form.spec()
        #expect(exported.ruleSets == spec.ruleSets)
        #expect(exported.fields[7].rules.map(\.kind.name) == ["set", "not_equal"])
        // Decimals come back as JSON numbers of the same value; everything else as given.
        #expect(exported.fields[3].rules[0].kind.arguments == ["min": .decimal("18"), "max": .decimal("130")])
        let again = try Form(spec: try FormSpec(json: exported.json))
        #expect(try again.spec().json == exported.json)
        #expect(exported.json.contains("\"rule_sets\""))
    }

    @Test func ruleSetRulesBehaveAsIfWrittenInPlace() throws {
        var form = try Form(spec: try FormSpec(json: Self.everyKind))
        try form.setValue("abcdef1!", for: "password")
        #expect(try form.state(of: "password").input == .inactive(.valid))
        try form.setValue("abcdefgh", for: "password")
        #expect(try form.state(of: "password").input == .inactive(.invalid("Password too weak — add uppercase, numbers, or symbols")))
        #expect(try form.state(of: "password").failingRule == 2)
        try form.setValue("", for: "password")
        #expect(try form.state(of: "password").input == .inactive(.invalid("This field is required")))
    }

    @Test(arguments: [
        (#"{"formwell":1,"fields":[{"id":"a","rules":[{"rule":"url","schemes":"https"}]}]}"#,
         "fields[0].rules[0].schemes: expected an array of strings, found a string"),
        (#"{"formwell":1,"fields":[{"id":"a","rules":[{"rule":"url","schemes":["https",1]}]}]}"#,
         "fields[0].rules[0].schemes[1]: expected a string, found a number"),
        (#"{"formwell":1,"fields":[{"id":"a","rules":[{"rule":"min_length","length":3,"unit":"words"}]}]}"#,
         "fields[0].rules[0].unit: min_length unit 'words' is not one of: graphemes, scalars, utf16, bytes"),
        (#"{"formwell":1,"fields":[{"id":"a","rules":[{"rule":"integer","min":1.5}]}]}"#,
         "fields[0].rules[0].min: integer min '1.5' is not an integer"),
        (#"{"formwell":1,"fields":[{"id":"a","rules":[{"rule":"decimal","max":"1e3"}]}]}"#,
         "fields[0].rules[0].max: decimal max '1e3' is not a decimal number (digits, an optional sign and fraction, no exponent)"),
        (#"{"formwell":1,"fields":[{"id":"a","rules":[{"rule":"required_if","field":"b"}]}]}"#,
         "fields[0].rules[0].value: missing"),
        (#"{"formwell":1,"fields":[{"id":"a","rules":[{"rule":"required_if","field":"b","value":"x"}]}]}"#,
         "fields[0].rules[0].field: no field with id 'b'"),
        (#"{"formwell":1,"fields":[{"id":"a","rules":[{"rule":"password_strength","min_score":9}]}]}"#,
         "fields[0].rules[0].min_score: password_strength min_score 9 is out of range (0 to 4)"),
        (#"{"formwell":1,"fields":[{"id":"a","rules":[{"rule":"set","name":"pw"}]}]}"#,
         "fields[0].rules[0].name: no rule set named 'pw' in rule_sets"),
        (#"{"formwell":1,"rule_sets":{"pw":[{"rule":"set","name":"pw"}]},"fields":[]}"#,
         "rule_sets.pw[0].rule: a rule set cannot refer to a rule set"),
        (#"{"formwell":1,"rule_sets":{"pw":[{"rule":"async","name":"x"}]},"fields":[]}"#,
         "rule_sets.pw: rule set 'pw': rule 0: an async rule cannot be part of a rule set"),
        (#"{"formwell":1,"rule_sets":{"pw":[{"rule":"matches","field":"a"}]},"fields":[{"id":"a","rules":[{"rule":"set","name":"pw"}]}]}"#,
         "rule_sets.pw[0].field: field 'a': field 'a' cannot be required to match itself"),
        (#"{"formwell":1,"rule_sets":[],"fields":[]}"#,
         "rule_sets: expected an object of named rule lists, found an array"),
        (#"{"formwell":1,"fields":[{"id":"a","rules":[{"rule":"set","name":"pw","message":"x"}]}]}"#,
         "fields[0].rules[0].message: unknown key (expected one of: name, rule)"),
    ])
    func refusedWithTheirPath(json: String, error: String) throws {
        do {
            _ = try Form(spec: try FormSpec(json: json))
            Issue.record("accepted: \(json)")
        } catch let got {
            #expect(got.description == error)
        }
    }

    @Test func ruleJSONAddsAnyKindToALiveForm() throws {
        var form = Form()
        try form.addField("country")
        try form.addField("state")
        try form.addRule(try RuleSpec(json: #"{"rule": "required_if", "field": "country", "value": "US", "message": "State?"}"#), to: "state")
        try form.defineRuleSet(RuleSet(name: "code", json: #"[{"rule": "min_length", "length": 2}, {"rule": "regex", "pattern": "[A-Z]+"}]"#))
        try form.addRule(try RuleSpec(json: #"{"rule": "set", "name": "code"}"#), to: "state")
        try form.touch("state")
        try form.setValue("US", for: "country")
        #expect(try form.state(of: "state").input == .inactive(.invalid("State?")))
        try form.setValue("n", for: "state")
        #expect(try form.state(of: "state").input == .inactive(.invalid("Must be at least 2 characters")))
        try form.setValue("ny", for: "state")
        #expect(try form.state(of: "state").input == .inactive(.invalid("Invalid format")))
        #expect(throws: FormError.invalidArgument("no rule set named 'nope' is defined")) {
            try form.addRule(RuleSpec(.ruleSet("nope")), to: "state")
        }
        let spec = try form.spec()
        #expect(spec.fields[1].rules.map(\.kind.name) == ["required_if", "set"])
        #expect(spec.ruleSets.map(\.name) == ["code"])
    }
}
