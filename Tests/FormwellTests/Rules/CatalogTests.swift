import Testing
@testable import Formwell

/// The rule table itself: one entry per kind, unique names, codes and C values, templates that
/// only name parameters the kind has (or the placeholders the compiler supplies).
@Suite struct CatalogTests {
    @Test func namesCodesAndCValuesAreUnique() {
        let kinds = RuleCatalog.kinds
        #expect(Set(kinds.map(\.name)).count == kinds.count)
        #expect(Set(kinds.map(\.code)).count == kinds.count)
        #expect(Set(kinds.map(\.cValue)).count == kinds.count)
        #expect(!kinds.contains { $0.cValue == RuleCatalog.jsonKindCValue })
        #expect(!kinds.contains { $0.name == RuleCatalog.setRuleName })
        // The first version's C values never move.
        let first = ["required", "email", "phone", "min_length", "max_length", "regex", "matches", "custom", "async"]
        for (value, name) in first.enumerated() {
            #expect(RuleCatalog.descriptor(named: name)?.cValue == Int32(value))
            #expect(RuleCatalog.descriptor(cValue: Int32(value))?.name == name)
        }
    }

    @Test func templatesNameOnlyKnownValues() {
        for kind in RuleCatalog.kinds {
            let known = Set(kind.parameters.map(\.name) + ["units", "label"])
            for template in kind.messages + kind.hints {
                for name in MessageTemplate.placeholders(template) {
                    #expect(known.contains(name), "\(kind.name): template '\(template)' names '\(name)'")
                }
            }
            // The last template needs no optional value, so every rule has a message.
            let optional = Set(kind.parameters.filter { !$0.isRequired && $0.defaultValue == nil }.map(\.name))
            #expect(Set(MessageTemplate.placeholders(kind.messages.last ?? "")).isDisjoint(with: optional), "\(kind.name)")
        }
    }

    @Test func theCatalogueAsJSONParsesAndListsEveryKind() throws {
        let value = try JSONParser.parse(RuleCatalog.json)
        guard case .array(let kinds)? = value["kinds"] else {
            Issue.record("no kinds array")
            return
        }
        #expect(kinds.count == RuleCatalog.kinds.count)
        #expect(kinds.first?["name"] == .string("required"))
        let url = kinds.first { $0["name"] == .string("url") }
        #expect(url?["c_value"] == .integer(9))
        #expect(url?["parameters"] == .array([.object([
            ("name", .string("schemes")), ("type", .string("string_list")), ("required", .bool(false)),
            ("summary", .string("The allowed schemes, compared case-insensitively; [] allows any.")),
            ("default", .array([.string("http"), .string("https")])),
        ])]))
    }

    @Test func messagesFollowTheMostSpecificTemplate() throws {
        #expect(try strictVerdict([Rule(.integer(min: "1", max: "10"))], "x") == .invalid("Enter a whole number from 1 to 10"))
        #expect(try strictVerdict([Rule(.integer(min: "1"))], "x") == .invalid("Enter a whole number of at least 1"))
        #expect(try strictVerdict([Rule(.integer(max: "10"))], "x") == .invalid("Enter a whole number of at most 10"))
        #expect(try strictVerdict([Rule(.integer())], "x") == .invalid("Enter a whole number"))
        #expect(try strictVerdict([Rule(.minLength(1))], "") == .empty)
        #expect(try strictVerdict([Rule(.minLength(2, unit: .bytes))], "a") == .invalid("Must be at least 2 bytes"))
        #expect(try strictVerdict([Rule(.maxLength(1, unit: .bytes))], "é") == .invalid("Must be 1 byte or fewer"))
        #expect(try strictVerdict([Rule(.oneOf(["red", "green"]))], "blue") == .invalid("Must be one of: red, green"))
    }

    @Test func unknownKindsAndParametersAreRefused() {
        var form = Form()
        #expect(throws: FormError.invalidArgument("unknown rule 'nope' (expected one of: \(RuleCatalog.kinds.map(\.name).joined(separator: ", ")))")) {
            try form.addField("f", rules: [Rule(RuleCall("nope"))])
        }
        #expect(throws: FormError.invalidArgument("rule 'url' has no parameter 'scheme' (it takes: schemes)")) {
            try form.addField("f", rules: [Rule(RuleCall("url", ["scheme": .string("https")]))])
        }
        #expect(throws: FormError.invalidArgument("min_length unit must be a string")) {
            try form.addField("f", rules: [Rule(RuleCall("min_length", ["length": .integer(1), "unit": .integer(3)]))])
        }
        #expect(throws: FormError.invalidArgument("min_length unit 'words' is not one of: graphemes, scalars, utf16, bytes")) {
            try form.addField("f", rules: [Rule(RuleCall("min_length", ["length": .integer(1), "unit": .string("words")]))])
        }
        #expect(throws: FormError.invalidArgument("rule 'one_of' needs parameter 'values'")) {
            try form.addField("f", rules: [Rule(RuleCall("one_of"))])
        }
        #expect(form.fieldCount == 0)
    }
}
