/// JSON text → `FormSpec`, naming the JSON path of the first problem (`fields[2].rules[0].length: …`).
/// Unknown and duplicate keys are refused, so a misspelt `"mesage"` or a second `"id"` is an error
/// rather than silently ignored. Syntax errors name the innermost container and the position:
/// `fields[0].rules: line 2, column 49: unexpected end of input`.
enum SpecReader {
    /// JSON text parsed, a syntax error reported as a spec error at its path and position.
    static func parseJSON(_ text: String) throws(SpecError) -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            throw SpecError(path: error.path, problem: error.positionedMessage)
        }
    }

    static func read(_ text: String) throws(SpecError) -> FormSpec {
        let root = try SpecReader.parseJSON(text)
        let top = try object(root, "", allowed: ["formwell", "fields", "$schema", "description", "mode", "errors", "rule_sets", "locale"])
        guard case .number(_, let version?)? = top["formwell"] else {
            throw SpecError(path: "formwell", problem: "missing or not an integer: the spec format version, \(FormSpec.version)")
        }
        guard version == FormSpec.version else {
            throw SpecError(path: "formwell", problem: "unsupported spec version \(version) (this library reads \(FormSpec.version))")
        }
        guard case .array(let fields)? = top["fields"] else {
            throw SpecError(path: "fields", problem: "missing or not an array")
        }
        let ruleSets = try ruleSets(top["rule_sets"])
        let setNames = Set(ruleSets.map(\.name))
        var specs: [FieldSpec] = []
        for (index, field) in fields.enumerated() {
            let spec = try fieldSpec(field, "fields[\(index)]")
            for (ruleIndex, rule) in spec.rules.enumerated() {
                if let name = rule.ruleSetName, !setNames.contains(name) {
                    throw SpecError(path: "fields[\(index)].rules[\(ruleIndex)].name", problem: "no rule set named '\(name)' in rule_sets")
                }
            }
            specs.append(spec)
        }
        var errors: ErrorMode?
        if let name = try string(top["errors"], "errors") {
            guard let mode = ErrorMode(name: name) else {
                throw SpecError(path: "errors", problem: "unknown error mode '\(name)' (expected first or all)")
            }
            errors = mode
        }
        let locale = try string(top["locale"], "locale")
        if let locale, MessageCatalogs.catalog(for: locale) == nil {
            throw SpecError(path: "locale", problem: "no message catalogue for locale '\(locale)' (available: \(MessageCatalogs.locales.joined(separator: ", ")))")
        }
        return FormSpec(fields: specs, mode: try mode(top["mode"], "mode"), errors: errors, ruleSets: ruleSets, locale: locale)
    }

    /// One rule object, alone (the C ABI's `fw_field_add_rule_json`); a rule set reference is
    /// refused here unless `allowSet`.
    static func readRule(_ text: String) throws(SpecError) -> RuleSpec {
        let root = try SpecReader.parseJSON(text)
        return try ruleSpec(root, "", allowSet: true)
    }

    /// One rule object or an array of them (single-value checks).
    static func readRules(_ text: String) throws(SpecError) -> [RuleSpec] {
        let root = try SpecReader.parseJSON(text)
        let items: [(JSONValue, String)]
        if case .array(let list) = root {
            items = list.enumerated().map { ($1, "[\($0)]") }
        } else {
            items = [(root, "")]
        }
        var rules: [RuleSpec] = []
        // (What only a form has — rule sets, validators, other fields — is refused by ValueCheck.)
        for (item, path) in items { rules.append(try ruleSpec(item, path, allowSet: true)) }
        return rules
    }

    /// `"rule_sets": {"name": [rules...]}`: names non-empty, rules as in a field, no set inside a set.
    private static func ruleSets(_ value: JSONValue?) throws(SpecError) -> [RuleSet] {
        guard let value, value != .null else { return [] }
        guard case .object(let list) = value else {
            throw SpecError(path: "rule_sets", problem: "expected an object of named rule lists, found \(value.kindName)")
        }
        var sets: [RuleSet] = []
        var names: Set<String> = []
        for (name, rules) in list {
            let path = "rule_sets.\(name)"
            guard !name.isEmpty else { throw SpecError(path: "rule_sets", problem: "a rule set name must not be empty") }
            guard names.insert(name).inserted else { throw SpecError(path: path, problem: "duplicate key") }
            guard case .array(let items) = rules else {
                throw SpecError(path: path, problem: "expected an array of rules, found \(rules.kindName)")
            }
            var specs: [RuleSpec] = []
            for (index, item) in items.enumerated() {
                specs.append(try ruleSpec(item, "\(path)[\(index)]", allowSet: false))
            }
            sets.append(RuleSet(name: name, rules: specs))
        }
        return sets
    }

    private static func mode(_ value: JSONValue?, _ path: String) throws(SpecError) -> ValidationMode? {
        guard let name = try string(value, path) else { return nil }
        guard let mode = ValidationMode(name: name) else {
            let names = ValidationMode.allCases.map(\.name).joined(separator: ", ")
            throw SpecError(path: path, problem: "unknown validation mode '\(name)' (expected one of: \(names))")
        }
        return mode
    }

    private static func groups(_ value: JSONValue?, _ path: String) throws(SpecError) -> [String] {
        switch value {
        case nil, .null?: return []
        case .array(let list)?:
            var names: [String] = []
            for (index, item) in list.enumerated() {
                guard case .string(let name) = item, !name.isEmpty else {
                    throw SpecError(path: "\(path)[\(index)]", problem: "expected a non-empty group name, found \(item.kindName)")
                }
                names.append(name)
            }
            return names
        case let other?:
            throw SpecError(path: path, problem: "expected an array of group names, found \(other.kindName)")
        }
    }

    private static func fieldSpec(_ value: JSONValue, _ path: String) throws(SpecError) -> FieldSpec {
        let members = try object(value, path, allowed: ["id", "label", "initial", "rules", "mode", "groups", "normalize", "secret"])
        guard let id = try string(members["id"], "\(path).id") else {
            throw SpecError(path: "\(path).id", problem: "missing: every field needs an id")
        }
        var rules: [RuleSpec] = []
        switch members["rules"] {
        case nil: break
        case .array(let list)?:
            for (index, rule) in list.enumerated() {
                rules.append(try ruleSpec(rule, "\(path).rules[\(index)]", allowSet: true))
            }
        case let other?:
            throw SpecError(path: "\(path).rules", problem: "expected an array, found \(other.kindName)")
        }
        return FieldSpec(id: id, label: try readable(members["label"], "\(path).label"),
                         initial: try readable(members["initial"], "\(path).initial"), rules: rules,
                         mode: try mode(members["mode"], "\(path).mode"), groups: try groups(members["groups"], "\(path).groups"),
                         normalize: try normalizers(members["normalize"], "\(path).normalize"),
                         secret: try flag(members["secret"], "\(path).secret"))
    }

    private static func normalizers(_ value: JSONValue?, _ path: String) throws(SpecError) -> [Normalizer] {
        switch value {
        case nil, .null?: return []
        case .array(let list)?:
            var found: [Normalizer] = []
            for (index, item) in list.enumerated() {
                guard case .string(let name) = item, let normalizer = Normalizer(name: name) else {
                    let names = Normalizer.allCases.map(\.name).joined(separator: ", ")
                    throw SpecError(path: "\(path)[\(index)]", problem: "expected a normaliser name (one of: \(names)), found \(item.kindName)")
                }
                guard !found.contains(normalizer) else {
                    throw SpecError(path: "\(path)[\(index)]", problem: "normaliser '\(name)' is given twice")
                }
                found.append(normalizer)
            }
            return found
        case let other?:
            throw SpecError(path: path, problem: "expected an array of normaliser names, found \(other.kindName)")
        }
    }

    private static func flag(_ value: JSONValue?, _ path: String) throws(SpecError) -> Bool {
        switch value {
        case nil, .null?: return false
        case .bool(let flag)?: return flag
        case let other?: throw SpecError(path: path, problem: "expected true or false, found \(other.kindName)")
        }
    }

    /// A rule object: `"rule"` names a catalogue kind whose parameters are read by their declared
    /// types (RuleCatalog.swift), or `"set"` (with `"name"`) when `allowSet`.
    static func ruleSpec(_ value: JSONValue, _ path: String, allowSet: Bool) throws(SpecError) -> RuleSpec {
        guard case .object = value else {
            throw SpecError(path: path, problem: "expected a rule object, found \(value.kindName)")
        }
        let members = try uniqueMembers(value, path)
        let names = RuleCatalog.kinds.map(\.name).joined(separator: ", ")
        guard let name = try string(members["rule"], join(path, "rule")) else {
            throw SpecError(path: join(path, "rule"), problem: "missing: one of \(names), set")
        }
        if name == RuleCatalog.setRuleName {
            guard allowSet else { throw SpecError(path: join(path, "rule"), problem: "a rule set cannot refer to a rule set") }
            try refuseUnknownKeys(members, path, allowed: ["rule", "name"])
            return RuleSpec(.ruleSet(try required(members["name"], join(path, "name"))))
        }
        guard let descriptor = RuleCatalog.descriptor(named: name) else {
            throw SpecError(path: join(path, "rule"), problem: "unknown rule '\(name)'")
        }
        try refuseUnknownKeys(members, path, allowed: Set(["rule", "message", "hint"] + descriptor.parameters.map(\.name)))
        var arguments: [String: RuleArgument] = [:]
        for parameter in descriptor.parameters {
            let at = join(path, parameter.name)
            guard let member = members[parameter.name] else {
                if parameter.isRequired { throw SpecError(path: at, problem: "missing") }
                continue
            }
            let argument = try self.argument(member, parameter.type, at)
            do {
                arguments[parameter.name] = try RuleArguments.check(argument, parameter, rule: name)
            } catch {
                throw SpecError(path: at, problem: error.description)
            }
        }
        return RuleSpec(RuleCall(name, arguments), message: try readable(members["message"], join(path, "message")),
                        hint: try readable(members["hint"], join(path, "hint")))
    }

    /// A parameter's JSON value as its declared type reads it.
    private static func argument(_ value: JSONValue, _ type: RuleParameter.ValueType, _ path: String) throws(SpecError) -> RuleArgument {
        switch type {
        case .integer:
            return .integer(try length(value, path))
        case .string, .pattern, .fieldID, .choice:
            guard case .string(let text) = value else {
                throw SpecError(path: path, problem: "expected a string, found \(value.kindName)")
            }
            return .string(text)
        case .stringList:
            guard case .array(let items) = value else {
                throw SpecError(path: path, problem: "expected an array of strings, found \(value.kindName)")
            }
            var list: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let text) = item else {
                    throw SpecError(path: "\(path)[\(index)]", problem: "expected a string, found \(item.kindName)")
                }
                list.append(text)
            }
            return .strings(list)
        case .decimal:
            switch value {
            case .number(let text, _), .string(let text): return .decimal(text)
            default: throw SpecError(path: path, problem: "expected a number, found \(value.kindName)")
            }
        }
    }

    private static func object(_ value: JSONValue, _ path: String, allowed: Set<String>) throws(SpecError) -> [String: JSONValue] {
        let members = try uniqueMembers(value, path)
        try refuseUnknownKeys(members, path, allowed: allowed)
        return members
    }

    /// The object's members by key; a key given twice is an error (the parser keeps duplicates, and
    /// which one should win is anyone's guess).
    private static func uniqueMembers(_ value: JSONValue, _ path: String) throws(SpecError) -> [String: JSONValue] {
        guard case .object(let list) = value else {
            throw SpecError(path: path, problem: "expected an object, found \(value.kindName)")
        }
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(list.count)
        for (key, member) in list {
            guard members.updateValue(member, forKey: key) == nil else {
                throw SpecError(path: join(path, key), problem: "duplicate key")
            }
        }
        return members
    }

    private static func refuseUnknownKeys(_ members: [String: JSONValue], _ path: String, allowed: Set<String>) throws(SpecError) {
        if let unknown = members.keys.filter({ !allowed.contains($0) }).sorted().first {
            throw SpecError(path: join(path, unknown), problem: "unknown key (expected one of: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    private static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private static func string(_ value: JSONValue?, _ path: String) throws(SpecError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw SpecError(path: path, problem: "expected a string, found \(other.kindName)")
        }
    }

    /// A string the C ABI hands back as a NUL-terminated text (label, initial value, message, hint):
    /// U+0000 ("\u0000") in it is refused, as it could not be read back whole. (Ids, group and async
    /// rule names are refused by the form itself.)
    private static func readable(_ value: JSONValue?, _ path: String) throws(SpecError) -> String? {
        let text = try string(value, path)
        if let text, text.utf8.contains(0) { throw SpecError(path: path, problem: "must not contain U+0000 (NUL)") }
        return text
    }

    private static func required(_ value: JSONValue?, _ path: String) throws(SpecError) -> String {
        guard let text = try string(value, path) else { throw SpecError(path: path, problem: "missing") }
        return text
    }

    private static func length(_ value: JSONValue?, _ path: String) throws(SpecError) -> Int {
        guard case .number(_, let count?)? = value else {
            throw SpecError(path: path, problem: value == nil ? "missing" : "expected an integer, found \(value.map(\.kindName) ?? "nothing")")
        }
        guard count >= 0, count <= Int(Int32.max) else {
            throw SpecError(path: path, problem: "\(count) is out of range (0 to \(Int32.max))")
        }
        return count
    }
}
