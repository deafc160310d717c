/// The catalogue as JSON: what `fw_rule_catalog` hands out, what scripts/gen_rules.py turns into the
/// C enum and the Python rule classes, and what the Lua binding reads at load.
///
///     {"kinds": [{"name": "min_length", "code": "min_length", "c_value": 3, "c_name": "FW_RULE_MIN_LENGTH",
///                 "summary": "...", "async": false, "messages": [...], "hints": [...],
///                 "parameters": [{"name": "length", "type": "integer", "required": true, "summary": "..."},
///                                {"name": "unit", "type": "choice", "required": false, "default": "graphemes",
///                                 "choices": ["graphemes", ...], "summary": "..."}]}, ...],
///      "json_kind": {"c_value": 64, "c_name": "FW_RULE_JSON"}}
extension RuleCatalog {
    /// The fw_rule kind whose `text` is a whole rule object (any kind, a rule set reference).
    public static let jsonKindCValue: Int32 = 64

    public static var json: String {
        let kinds: [JSONValue] = kinds.map { kind in
            .object([
                ("name", .string(kind.name)), ("code", .string(kind.code)), ("c_value", .integer(Int(kind.cValue))),
                ("c_name", .string(kind.cName)), ("summary", .string(kind.summary)), ("async", .bool(kind.isAsync)),
                ("messages", .array(kind.messages.map { .string($0) })), ("hints", .array(kind.hints.map { .string($0) })),
                ("parameters", .array(kind.parameters.map(parameterJSON))),
            ])
        }
        return JSONWriter.write(.object([
            ("kinds", .array(kinds)),
            ("json_kind", .object([("c_value", .integer(Int(jsonKindCValue))), ("c_name", .string("FW_RULE_JSON"))])),
            ("set_rule", .string(setRuleName)),
        ]))
    }

    private static func parameterJSON(_ parameter: RuleParameter) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(parameter.name)), ("type", .string(parameter.type.rawValue)),
            ("required", .bool(parameter.isRequired)), ("summary", .string(parameter.summary)),
        ]
        switch parameter.defaultValue {
        case .integer(let number)?: members.append(("default", .integer(number)))
        case .string(let text)?, .decimal(let text)?: members.append(("default", .string(text)))
        case .strings(let list)?: members.append(("default", .array(list.map { .string($0) })))
        case nil: break
        }
        if !parameter.choices.isEmpty { members.append(("choices", .array(parameter.choices.map { .string($0) }))) }
        return .object(members)
    }
}

extension RuleSpec {
    /// One rule object as in a spec (`{"rule": "url", "schemes": ["https"], "message": "…"}`, or a
    /// rule set reference `{"rule": "set", "name": …}`); the error names the key at fault.
    public init(json: String) throws(SpecError) {
        self = try SpecReader.readRule(json)
    }

    /// A rule of kind `name` whose parameters are the JSON object `parameters` (nil: none), as the C
    /// ABI's fw_rule gives kinds added after its first version; message and hint come separately.
    public init(kind name: String, parametersJSON parameters: String?, message: String?, hint: String?) throws(SpecError) {
        var members: [(key: String, value: JSONValue)] = [("rule", .string(name))]
        if let parameters {
            let value = try SpecReader.parseJSON(parameters)
            guard case .object(let given) = value else {
                throw SpecError(path: "", problem: "expected an object of parameters, found \(value.kindName)")
            }
            if let key = given.first(where: { ["rule", "message", "hint"].contains($0.key) })?.key {
                throw SpecError(path: key, problem: "not a parameter (the kind, message and hint are fw_rule members)")
            }
            members += given
        }
        var spec = try SpecReader.ruleSpec(.object(members), "", allowSet: false)
        spec.message = message
        spec.hint = hint
        self = spec
    }
}

extension RuleSet {
    /// A rule set from a JSON array of rule objects (as in a spec's `rule_sets`).
    public init(name: String, json: String) throws(SpecError) {
        let value = try SpecReader.parseJSON(json)
        guard case .array(let items) = value else {
            throw SpecError(path: "", problem: "expected an array of rules, found \(value.kindName)")
        }
        var rules: [RuleSpec] = []
        for (index, item) in items.enumerated() {
            rules.append(try SpecReader.ruleSpec(item, "[\(index)]", allowSet: false))
        }
        self.init(name: name, rules: rules)
    }
}
