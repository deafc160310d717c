/// One rule kind as the catalogue declares it: everything a surface (spec reader and writer, C ABI,
/// Python, Lua, documentation) needs to know about it, so none of them keeps its own list.
public struct RuleDescriptor: Sendable {
    /// The spec's `"rule"` name (`min_length`).
    public let name: String
    /// The stable failure code (`min_length`): what a failure of this kind is reported as.
    public let code: String
    /// The kind's value in the C enum `fw_rule_kind` (`FW_RULE_<NAME>`). Never reused.
    public let cValue: Int32
    /// Parameters in the order constructors take them.
    public let parameters: [RuleParameter]
    /// English message templates, most specific first (Messages/Catalogues/en.json; every
    /// catalogue keys its templates by `code`).
    public var messages: [String] { MessageCatalogs.english.messages[code] ?? [] }
    /// English accessibility-hint templates, chosen the same way.
    public var hints: [String] { MessageCatalogs.english.hints[code] ?? [] }
    /// One sentence for documentation (docs/rules-and-messages.md, the header, Python docstrings).
    public let summary: String
    /// Checked by the host (`AsyncRule`), not by the library's rules.
    public let isAsync: Bool
    /// Builds the check from checked arguments; nil for kinds the form adds another way (`async`).
    let compile: (@Sendable (RuleArguments, RuleContext) throws(FormError) -> CompiledRule.Check)?

    init(
        _ name: String, code: String? = nil, c cValue: Int32, parameters: [RuleParameter] = [],
        summary: String, isAsync: Bool = false,
        compile: (@Sendable (RuleArguments, RuleContext) throws(FormError) -> CompiledRule.Check)?
    ) {
        self.name = name
        self.code = code ?? name
        self.cValue = cValue
        self.parameters = parameters
        self.summary = summary
        self.isAsync = isAsync
        self.compile = compile
    }

    /// The C enum constant's name.
    public var cName: String { "FW_RULE_" + name.uppercased() }

    public func parameter(_ name: String) -> RuleParameter? { parameters.first { $0.name == name } }
}

/// One parameter of a rule kind.
public struct RuleParameter: Sendable {
    public enum ValueType: String, Sendable {
        /// A whole number from 0 to Int32.max (lengths, scores, milliseconds).
        case integer
        /// Any string.
        case string
        /// An array of strings.
        case stringList = "string_list"
        /// A decimal number kept as its exact text (a JSON number or a string): no rounding.
        case decimal
        /// The id of another field of the form (a dependency: its changes re-judge this field).
        case fieldID = "field_id"
        /// One of `choices`.
        case choice
        /// A PCRE2 pattern.
        case pattern
    }

    public let name: String
    public let type: ValueType
    public let isRequired: Bool
    /// The value an omitted optional parameter means (written in documentation; nil: no value).
    public let defaultValue: RuleArgument?
    public let choices: [String]
    public let summary: String

    init(_ name: String, _ type: ValueType, required: Bool = true, default defaultValue: RuleArgument? = nil,
         choices: [String] = [], _ summary: String) {
        self.name = name
        self.type = type
        self.isRequired = required
        self.defaultValue = defaultValue
        self.choices = choices
        self.summary = summary
    }
}

/// What compiling a rule may look up in its form, found before the kind's compile step runs
/// (plain values: no field is copied).
struct RuleContext {
    /// The id of the field the rule is added to, and the length bounds its rules so far set.
    let fieldID: String
    let lengthBounds: [LengthUnit: Field.LengthBounds]
    /// The position of the field the rule's `field` argument names, when the form has it.
    let namedPosition: Int?
    /// The validator a custom rule was given directly (Swift closure, C function) or by a name the form defines.
    let validator: CustomValidator?

    /// The position of the field `id` names, checked: not this field, present in the form.
    func peer(_ id: String, rule: String) throws(FormError) -> Int {
        guard id != fieldID else {
            if rule == "matches" { throw .invalidArgument("field '\(fieldID)' cannot be required to match itself") }
            throw .invalidArgument("a \(rule) rule of field '\(fieldID)' cannot name the field itself")
        }
        guard let namedPosition else { throw .unknownField(id) }
        return namedPosition
    }
}
