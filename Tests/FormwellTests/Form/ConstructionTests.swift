import Testing
@testable import Formwell

/// Adding rules one by one (`addRule`, which runs only the new rule against the verdict the field
/// stores) ends where adding them all at once (`addField(rules:)`, which runs every rule) does, in
/// both error modes, on empty and non-empty values, with conditions on another field; and the
/// size limits refuse what would pass them, changing nothing.
@Suite struct ConstructionTests {
    static let ruleLists: [[Rule]] = [
        [.minLength(2), .maxLength(3), .regex("[a-z]+")],
        [.regex("[0-9]+", message: "digits"), .minLength(5), .custom { $0.count > 6 ? .valid : .invalid("own words") }],
        [Rule(.requiredIf("peer", equals: "x")), .required(), .minLength(9)],
        [Rule(.requiredWith("peer")), .maxLength(1), .minLength(1), .custom { _ in .invalid("never") }],
        [.maxLength(1), .required(), Rule(.requiredWithout("peer")), .matches("peer")],
        [],
    ]

    /// What a field stores about its value: the verdict, its failing rule, the later failures, the
    /// conditional requirement, and its state.
    struct Stored: Equatable {
        let outcome: String, failingRule: Int?, limitExceeded: Bool, words: String?
        let more: [String], moreCodes: [String], requirement: Int?, required: Int?
        let state: FieldState
    }

    static func stored(_ form: Form, _ id: String) throws -> Stored {
        let field = form.fields[try form.position(of: id)]
        return Stored(outcome: "\(field.outcome)", failingRule: field.failingRule, limitExceeded: field.limitExceeded,
                      words: field.outcomeWords, more: field.moreFailures, moreCodes: field.moreCodes,
                      requirement: field.conditionalRequirement, required: field.requiredRule,
                      state: try form.state(of: id))
    }

    @Test(arguments: ErrorMode.allCases)
    func rulesAddedOneByOneEndAsRulesAddedTogether(_ errors: ErrorMode) throws {
        for rules in Self.ruleLists {
            for value in ["", "a", "abcd", "1234567", "x"] {
                for peer in ["", "x", "y"] {
                    var together = Form()
                    try together.setErrorReporting(errors)
                    try together.addField("peer", initialValue: peer)
                    try together.addField("f", initialValue: value, rules: rules)
                    var oneByOne = Form()
                    try oneByOne.setErrorReporting(errors)
                    try oneByOne.addField("peer", initialValue: peer)
                    try oneByOne.addField("f", initialValue: value)
                    for rule in rules { try oneByOne.addRule(rule, to: "f") }
                    let context = "rules \(rules.map(\.kind.name)) value '\(value)' peer '\(peer)' errors \(errors.name)"
                    #expect(try Self.stored(oneByOne, "f") == Self.stored(together, "f"), "\(context)")
                    // And after the events that run every rule again.
                    try together.touchAll()
                    try oneByOne.touchAll()
                    #expect(try Self.stored(oneByOne, "f") == Self.stored(together, "f"), "\(context), touched")
                }
            }
        }
    }

    @Test func aRuleRefusedWhenAddedChangesNothing() throws {
        var form = Form()
        try form.addField("f", initialValue: "abc", rules: [.minLength(2)])
        try form.touch("f")
        let before = try Self.stored(form, "f")
        let rules = form.fields[0].rules.count
        #expect(throws: FormError.self) { try form.addRule(.maxLength(1), to: "f") }
        #expect(throws: FormError.self) {
            try form.addRule(.custom { _ in throw CustomError() }, to: "f")
        }
        #expect(form.fields[0].rules.count == rules)
        #expect(try Self.stored(form, "f") == before)
        // The bounds the refused rules would have set are not kept.
        try form.addRule(.maxLength(2), to: "f")
    }

    struct CustomError: Error {}

    @Test func aFieldPastTheRuleLimitIsRefused() throws {
        var form = Form()
        let rules = Array(repeating: Rule.minLength(1), count: FormLimits.rulesPerField + 1)
        #expect(throws: FormError.invalidArgument(
            "field 'f' would have \(FormLimits.rulesPerField + 1) rules, more than the \(FormLimits.rulesPerField) a field may have (FW_LIMIT_RULES_PER_FIELD)")) {
            try form.addField("f", rules: rules)
        }
        #expect(form.fields.isEmpty)
        try form.addField("f", rules: Array(rules.dropLast()))
        #expect(throws: FormError.self) { try form.addRule(.required(), to: "f") }
        #expect(form.fields[0].rules.count == FormLimits.rulesPerField)
    }

    @Test func dependentsStaySortedWithoutRepeats() throws {
        var form = Form()
        try form.addField("peer")
        for id in ["a", "b", "c"] { try form.addField(id) }
        for id in ["c", "a", "c", "b", "a"] { try form.addRule(.matches("peer"), to: id) }
        try form.addField("d", rules: [.matches("peer"), Rule(.requiredWith("peer"))])
        #expect(form.fields[0].dependents == [1, 2, 3, 4])
    }
}
