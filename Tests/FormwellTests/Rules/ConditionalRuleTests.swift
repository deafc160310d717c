import Testing
@testable import Formwell

/// required_if / required_with / required_without: while the condition holds the field is exactly
/// a required field (lenient while focused, "This field is required" in the strict stage); while it
/// does not, an optional one. A change of the named field re-judges a field already judged; a
/// never-judged idle field stays idle (as `matches` does).
@Suite struct ConditionalRuleTests {
    static let required = "This field is required"

    func addressForm() throws -> Form {
        var form = Form()
        try form.addField("country")
        try form.addField("state", rules: [Rule(.requiredIf("country", equals: "US")), Rule(.maxLength(2))])
        return form
    }

    @Test func requiredIfFollowsTheOtherField() throws {
        var form = try addressForm()
        expectLooks(form, ["country": .untouched, "state": .untouched], "added")
        #expect(form.isValid)
        try form.setValue("US", for: "country")
        // Never judged: stays idle, yet a submit would fail it.
        expectLooks(form, ["country": Look(.inactive(.valid)), "state": .untouched], "country US")
        #expect(!form.isValid)
        #expect(form.firstInvalidFieldID == "state")
        try form.focus("state")
        expectLooks(form, ["country": Look(.inactive(.valid)), "state": .typing(.empty)], "focus state")
        try form.blur("state")
        expectLooks(form, ["country": Look(.inactive(.valid)), "state": .blurredInvalid(Self.required)], "blur state")
        #expect(try form.state(of: "state").failingRule == 0)
        #expect(try form.state(of: "state").accessibilityHint == "Enter a value")
        try form.setValue("CA", for: "country")
        expectLooks(form, ["country": Look(.inactive(.valid)), "state": .touchedIdle], "country CA")
        #expect(form.isValid)
        try form.setValue("US", for: "country")
        expectLooks(form, ["country": Look(.inactive(.valid)), "state": .blurredInvalid(Self.required)], "US again")
        try form.setValue("NY", for: "state")
        expectLooks(form, ["country": Look(.inactive(.valid)), "state": .blurredValid], "state NY")
        try form.setValue("NYC", for: "state")
        #expect(try form.state(of: "state").input == .inactive(.invalid("Must be 2 characters or fewer")))
    }

    @Test func requiredWithAndWithout() throws {
        var form = Form()
        // Each names the other: the first one's rule is added once both fields exist.
        try form.addField("email")
        try form.addField("phone", rules: [Rule(.requiredWithout("email"), message: "Give an email or a phone number")])
        try form.addRule(Rule(.requiredWithout("phone"), message: "Give an email or a phone number"), to: "email")
        try form.addField("street")
        try form.addField("city", rules: [Rule(.requiredWith("street"))])
        #expect(!(try form.validate()))
        #expect(try form.state(of: "email").input == .inactive(.invalid("Give an email or a phone number")))
        #expect(try form.state(of: "phone").input == .inactive(.invalid("Give an email or a phone number")))
        #expect(try form.state(of: "city").input == .idle)
        try form.setValue("ada@example.com", for: "email")
        #expect(try form.state(of: "phone").input == .idle)  // touched by the submit, optional now
        #expect(try form.state(of: "phone").display == .none)
        try form.setValue("1 Main St", for: "street")
        #expect(try form.state(of: "city").input == .inactive(.invalid(Self.required)))
        #expect(!form.isValid)
        try form.setValue("Springfield", for: "city")
        #expect(form.isValid)
    }

    /// An unconditional `required` before a conditional rule decides alone; after it, the
    /// conditional rule's own message shows while its condition holds.
    @Test func orderDecidesWhichRequirementSpeaks() throws {
        var form = Form()
        try form.addField("kind")
        try form.addField("a", rules: [.required(message: "A is required"), Rule(.requiredIf("kind", equals: "x"), message: "A for x")])
        try form.addField("b", rules: [Rule(.requiredIf("kind", equals: "x"), message: "B for x"), .required(message: "B is required")])
        try form.setValue("x", for: "kind")
        try form.touchAll()
        #expect(try form.state(of: "a").input == .inactive(.invalid("A is required")))
        #expect(try form.state(of: "b").input == .inactive(.invalid("B for x")))
        #expect(try form.state(of: "b").failingRule == 0)
        try form.setValue("y", for: "kind")
        #expect(try form.state(of: "b").input == .inactive(.invalid("B is required")))
        #expect(try form.state(of: "b").failingRule == 1)
    }

    @Test func batchesJudgeTheConditionInTheSameRecord() throws {
        let form = try addressForm()
        let result = try form.checkMany([
            ["country": "US", "state": ""], ["country": "CA", "state": ""], ["country": "US", "state": "NY"], ["country": "", "state": ""],
        ])
        #expect((0..<4).map { result.isValid(record: $0) } == [false, true, true, true])
        #expect(result.failingRule(record: 0, field: 1) == 0)
        #expect(try form.ruleMessage(field: 1, rule: 0) == Self.required)
    }

    @Test func theNamedFieldMustExistAndCannotBeRemovedFirst() throws {
        var form = Form()
        #expect(throws: FormError.unknownField("country")) {
            try form.addField("state", rules: [Rule(.requiredIf("country", equals: "US"))])
        }
        try form.addField("country")
        try form.addField("state", rules: [Rule(.requiredIf("country", equals: "US"))])
        #expect(throws: FormError.invalidArgument("field 'state' has a required_if rule naming 'country'; remove 'state' first")) {
            try form.removeField("country")
        }
        try form.removeField("state")
        try form.removeField("country")
        #expect(form.fieldCount == 0)
    }

    /// A field added before the one it names, through a spec: positions move when fields before
    /// them are removed, and the dependency follows.
    @Test func dependenciesSurviveTheRemovalOfAnEarlierField() throws {
        var form = Form()
        try form.addField("first")
        try form.addField("country")
        try form.addField("state", rules: [Rule(.requiredWith("country"))])
        try form.removeField("first")
        try form.touch("state")
        try form.setValue("US", for: "country")
        #expect(try form.state(of: "state").input == .inactive(.invalid(Self.required)))
    }
}
