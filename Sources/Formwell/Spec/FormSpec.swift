/// A form as data: the versioned JSON form spec (`"formwell": 1`), schema in schema/form-spec.schema.json.
///
///     {"formwell": 1, "fields": [
///       {"id": "email", "label": "Email", "initial": "", "rules": [
///         {"rule": "required"}, {"rule": "email", "message": "Enter a valid email address"}]}]}
///
/// Rule objects: `required`, `email`, `phone` (no parameters); `min_length` / `max_length` with
/// `"length"`; `regex` with `"pattern"`; `matches` with `"field"`; `custom` with `"name"`, a validator
/// the host defined on the form before loading. Every rule takes an optional `"message"` and `"hint"`.
/// The form may set `"mode"` (a `ValidationMode` name) and `"errors"` (`first` or `all`); a field
/// its own `"mode"`, its `"groups"`, its `"normalize"` list (`Normalizer` names) and `"secret"`.
public struct FormSpec: Equatable, Sendable {
    public static let version = 1

    public var fields: [FieldSpec]
    /// The form's validation mode; nil: two-stage.
    public var mode: ValidationMode?
    /// The form's error mode; nil: first.
    public var errors: ErrorMode?

    public init(fields: [FieldSpec], mode: ValidationMode? = nil, errors: ErrorMode? = nil) {
        self.fields = fields
        self.mode = mode
        self.errors = errors
    }
}

public struct FieldSpec: Equatable, Sendable {
    public var id: String
    public var label: String?
    public var initial: String?
    public var rules: [RuleSpec]
    /// The field's own validation mode; nil follows the form's.
    public var mode: ValidationMode?
    public var groups: [String]
    /// Normalisers run (in order) before the rules (`"normalize": ["trim", "lowercase"]`).
    public var normalize: [Normalizer]
    /// A secret field (`"secret": true`): its initial value is never exported.
    public var secret: Bool

    public init(id: String, label: String? = nil, initial: String? = nil, rules: [RuleSpec] = [],
                mode: ValidationMode? = nil, groups: [String] = [], normalize: [Normalizer] = [], secret: Bool = false) {
        self.id = id
        self.label = label
        self.initial = initial
        self.rules = rules
        self.mode = mode
        self.groups = groups
        self.normalize = normalize
        self.secret = secret
    }
}

public struct RuleSpec: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case required, email, phone
        case minLength(Int), maxLength(Int)
        case regex(String)
        case matches(String)
        /// A validator defined on the form by name (`Form.defineValidator`).
        case custom(String)
        /// An asynchronous rule the host checks (`AsyncRule`): its name and debounce in milliseconds.
        case async(String, debounceMilliseconds: UInt64)
    }

    public var kind: Kind
    public var message: String?
    /// The accessibility hint when the rule fails; nil: the kind's default.
    public var hint: String?

    public init(_ kind: Kind, message: String? = nil, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }
}

/// A spec that cannot be loaded: where (a JSON path such as `fields[2].rules[0].pattern`) and why.
public struct SpecError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: String
    public let problem: String
    /// The byte offset inside a rejected pattern, when the problem is PCRE2's.
    public let patternOffset: Int?

    public init(path: String, problem: String, patternOffset: Int? = nil) {
        self.path = path
        self.problem = problem
        self.patternOffset = patternOffset
    }

    public var description: String { path.isEmpty ? problem : "\(path): \(problem)" }
}
