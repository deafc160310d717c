/// A form as data: the versioned JSON form spec (`"formwell": 1`), schema in schema/form-spec.schema.json.
///
///     {"formwell": 1, "fields": [
///       {"id": "email", "label": "Email", "initial": "", "rules": [
///         {"rule": "required"}, {"rule": "email", "message": "Enter a valid email address"}]}]}
///
/// Rule objects: `{"rule": <kind>, <parameters>…}` for every kind of `RuleCatalog` (its parameters
/// by name), or `{"rule": "set", "name": …}` for the rules of a named rule set (top-level
/// `"rule_sets": {"password": [rules…]}`). Every rule takes an optional `"message"` and `"hint"`.
/// The form may set `"mode"` (a `ValidationMode` name), `"errors"` (`first` or `all`) and `"locale"`
/// (the message catalogue, `MessageCatalogs`); a field
/// its own `"mode"`, its `"groups"`, its `"normalize"` list (`Normalizer` names) and `"secret"`.
public struct FormSpec: Equatable, Sendable {
    public static let version = 1

    public var fields: [FieldSpec]
    /// The form's validation mode; nil: two-stage.
    public var mode: ValidationMode?
    /// The form's error mode; nil: first.
    public var errors: ErrorMode?
    /// Named lists of rules fields refer to (`{"rule": "set", "name": …}`), in the spec's order.
    public var ruleSets: [RuleSet]
    /// The language of the form's messages (`"locale": "fr"`, a catalogue's tag); nil: English.
    public var locale: String?

    public init(fields: [FieldSpec], mode: ValidationMode? = nil, errors: ErrorMode? = nil, ruleSets: [RuleSet] = [],
                locale: String? = nil) {
        self.fields = fields
        self.locale = locale
        self.mode = mode
        self.errors = errors
        self.ruleSets = ruleSets
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
    /// A catalogue kind and its arguments (`.minLength(8)`, `.url(schemes: ["https"])`), `custom`
    /// by name, `async`, or a rule set reference (`.ruleSet("password")`).
    public typealias Kind = RuleCall

    public var kind: Kind
    public var message: String?
    /// The accessibility hint when the rule fails; nil: the kind's default.
    public var hint: String?

    public init(_ kind: Kind, message: String? = nil, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    /// A reference to a rule set, by name.
    public var ruleSetName: String? {
        guard kind.name == RuleCatalog.setRuleName, case .string(let name)? = kind.arguments["name"] else { return nil }
        return name
    }
}

extension RuleCall {
    /// A reference to the spec's rule set `name` (it stands for that set's rules).
    public static func ruleSet(_ name: String) -> RuleCall { RuleCall(RuleCatalog.setRuleName, ["name": .string(name)]) }
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
