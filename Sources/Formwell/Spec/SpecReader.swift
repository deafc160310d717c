/// JSON text → `FormSpec`, naming the JSON path of the first problem (`fields[2].rules[0].length: …`).
/// Unknown and duplicate keys are refused, so a misspelt `"mesage"` or a second `"id"` is an error
/// rather than silently ignored. Syntax errors name the innermost container and the position:
/// `fields[0].rules: line 2, column 49: unexpected end of input`.
enum SpecReader {
    static func read(_ text: String) throws(SpecError) -> FormSpec {
        let root: JSONValue
        do {
            root = try JSONParser.parse(text)
        } catch {
            throw SpecError(path: error.path, problem: error.positionedMessage)
        }
        let top = try object(root, "", allowed: ["formwell", "fields", "$schema", "description", "mode", "errors"])
        guard case .number(_, let version?)? = top["formwell"] else {
            throw SpecError(path: "formwell", problem: "missing or not an integer: the spec format version, \(FormSpec.version)")
        }
        guard version == FormSpec.version else {
            throw SpecError(path: "formwell", problem: "unsupported spec version \(version) (this library reads \(FormSpec.version))")
        }
        guard case .array(let fields)? = top["fields"] else {
            throw SpecError(path: "fields", problem: "missing or not an array")
        }
        var specs: [FieldSpec] = []
        for (index, field) in fields.enumerated() {
            specs.append(try fieldSpec(field, "fields[\(index)]"))
        }
        var errors: ErrorMode?
        if let name = try string(top["errors"], "errors") {
            guard let mode = ErrorMode(name: name) else {
                throw SpecError(path: "errors", problem: "unknown error mode '\(name)' (expected first or all)")
            }
            errors = mode
        }
        return FormSpec(fields: specs, mode: try mode(top["mode"], "mode"), errors: errors)
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
        let members = try object(value, path, allowed: ["id", "label", "initial", "rules", "mode", "groups"])
        guard let id = try string(members["id"], "\(path).id") else {
            throw SpecError(path: "\(path).id", problem: "missing: every field needs an id")
        }
        var rules: [RuleSpec] = []
        switch members["rules"] {
        case nil: break
        case .array(let list)?:
            for (index, rule) in list.enumerated() {
                rules.append(try ruleSpec(rule, "\(path).rules[\(index)]"))
            }
        case let other?:
            throw SpecError(path: "\(path).rules", problem: "expected an array, found \(other.kindName)")
        }
        return FieldSpec(id: id, label: try readable(members["label"], "\(path).label"),
                         initial: try readable(members["initial"], "\(path).initial"), rules: rules,
                         mode: try mode(members["mode"], "\(path).mode"), groups: try groups(members["groups"], "\(path).groups"))
    }

    private static let parameters: [String: String] = [
        "min_length": "length", "max_length": "length", "regex": "pattern", "matches": "field", "custom": "name",
    ]

    private static func ruleSpec(_ value: JSONValue, _ path: String) throws(SpecError) -> RuleSpec {
        guard case .object = value else {
            throw SpecError(path: path, problem: "expected a rule object, found \(value.kindName)")
        }
        let members = try uniqueMembers(value, path)
        guard let name = try string(members["rule"], "\(path).rule") else {
            throw SpecError(path: "\(path).rule", problem: "missing: one of required, email, phone, min_length, max_length, regex, matches, custom, async")
        }
        var allowed: Set<String> = ["rule", "message", "hint"]
        if let parameter = parameters[name] { allowed.insert(parameter) }
        if name == "async" { allowed.formUnion(["name", "debounce_ms"]) }
        try refuseUnknownKeys(members, path, allowed: allowed)
        let message = try readable(members["message"], "\(path).message")
        let kind: RuleSpec.Kind
        switch name {
        case "required": kind = .required
        case "email": kind = .email
        case "phone": kind = .phone
        case "min_length": kind = .minLength(try length(members["length"], "\(path).length"))
        case "max_length": kind = .maxLength(try length(members["length"], "\(path).length"))
        case "regex": kind = .regex(try required(members["pattern"], "\(path).pattern"))
        case "matches": kind = .matches(try required(members["field"], "\(path).field"))
        case "custom": kind = .custom(try required(members["name"], "\(path).name"))
        case "async":
            var debounce = Int(AsyncRule.defaultDebounceMilliseconds)
            if members["debounce_ms"] != nil { debounce = try length(members["debounce_ms"], "\(path).debounce_ms") }
            kind = .async(try required(members["name"], "\(path).name"), debounceMilliseconds: UInt64(debounce))
        default:
            throw SpecError(path: "\(path).rule", problem: "unknown rule '\(name)'")
        }
        return RuleSpec(kind, message: message, hint: try readable(members["hint"], "\(path).hint"))
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
