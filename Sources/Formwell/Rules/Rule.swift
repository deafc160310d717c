/// One validation rule of a field. Rules run in the order they were added; the first failure wins.
/// Every rule takes an optional custom message that replaces what the rule would say by default.
public struct Rule: Sendable {
    public enum Kind: Sendable {
        /// The value must not be empty. Checked only in the strict stage (seed 02).
        case required
        /// Seed 02's e-mail pattern, matched against the whole value.
        case email
        /// Seed 02's phone rule: exactly 10 ASCII digits.
        case phone
        /// At least this many characters, counted as grapheme clusters (`String.count`).
        case minLength(Int)
        /// At most this many characters, counted as grapheme clusters (`String.count`).
        case maxLength(Int)
        /// A PCRE2 pattern (UTF mode) that must match the whole value.
        case regex(String)
        /// Equal to another field's value; re-checked when that field changes.
        case matches(String)
        /// A host-supplied check.
        case custom(CustomValidator)
    }

    public let kind: Kind
    /// Replaces the rule's own message when set.
    public let message: String?
    /// Replaces the rule's accessibility hint (the prompt to correct the field) when set.
    public let hint: String?

    public init(_ kind: Kind, message: String? = nil, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    /// The same rule with another hint.
    public func withHint(_ hint: String?) -> Rule { Rule(kind, message: message, hint: hint) }

    public static func required(message: String? = nil, hint: String? = nil) -> Rule {
        Rule(.required, message: message, hint: hint)
    }
    public static func email(message: String? = nil, hint: String? = nil) -> Rule {
        Rule(.email, message: message, hint: hint)
    }
    public static func phone(message: String? = nil, hint: String? = nil) -> Rule {
        Rule(.phone, message: message, hint: hint)
    }
    public static func minLength(_ count: Int, message: String? = nil, hint: String? = nil) -> Rule {
        Rule(.minLength(count), message: message, hint: hint)
    }
    public static func maxLength(_ count: Int, message: String? = nil, hint: String? = nil) -> Rule {
        Rule(.maxLength(count), message: message, hint: hint)
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
