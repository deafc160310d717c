/// One validation rule of a field. Rules run in the order they were added; the first failure wins.
/// Every rule takes an optional custom message that replaces what the rule would say by default.
/// The kinds and their parameters are the catalogue's (`RuleCatalog`): `Rule(.minLength(8))`,
/// `Rule(.url(schemes: ["https"]))`, `Rule(RuleCall("one_of", ["values": .strings(["a", "b"])]))`.
public struct Rule: Sendable {
    public typealias Kind = RuleCall

    public let kind: Kind
    /// Replaces the rule's own message when set.
    public let message: String?
    /// Replaces the rule's accessibility hint (the prompt to correct the field) when set.
    public let hint: String?
    /// The rule set (`RuleSet`) this rule was added from, for exporting the form as a spec.
    public let ruleSet: String?

    public init(_ kind: Kind, message: String? = nil, hint: String? = nil, ruleSet: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.ruleSet = ruleSet
    }

    /// The same rule with another hint.
    public func withHint(_ hint: String?) -> Rule { Rule(kind, message: message, hint: hint, ruleSet: ruleSet) }

    public static func required(message: String? = nil, hint: String? = nil) -> Rule {
        Rule(.required, message: message, hint: hint)
    }
    public static func email(message: String? = nil, hint: String? = nil) -> Rule {
        Rule(.email, message: message, hint: hint)
    }
    public static func phone(message: String? = nil, hint: String? = nil) -> Rule {
        Rule(.phone, message: message, hint: hint)
    }
    public static func minLength(_ count: Int, unit: LengthUnit? = nil, message: String? = nil, hint: String? = nil) -> Rule {
        Rule(.minLength(count, unit: unit), message: message, hint: hint)
    }
    public static func maxLength(_ count: Int, unit: LengthUnit? = nil, message: String? = nil, hint: String? = nil) -> Rule {
        Rule(.maxLength(count, unit: unit), message: message, hint: hint)
    }
    public static func regex(_ pattern: String, message: String? = nil, hint: String? = nil) -> Rule {
        Rule(.regex(pattern), message: message, hint: hint)
    }
    public static func matches(_ fieldID: String, message: String? = nil, hint: String? = nil) -> Rule {
        Rule(.matches(fieldID), message: message, hint: hint)
    }
    public static func custom(
        message: String? = nil,
        _ check: @escaping @Sendable (String) throws -> CustomValidator.Verdict
    ) -> Rule {
        Rule(.custom(CustomValidator(check)), message: message)
    }
}
