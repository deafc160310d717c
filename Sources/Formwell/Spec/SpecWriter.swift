/// `FormSpec` → JSON text: pretty-printed with sorted keys, so load → export → load → export is stable.
/// The layout is the one FoundationEssentials' JSONEncoder wrote (`.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes`) before the library had its own writer, byte for byte.
enum SpecWriter {
    static func write(_ spec: FormSpec) -> String {
        let fields: [JSONValue] = spec.fields.map { field in
            var members: [(key: String, value: JSONValue)] = [("id", .string(field.id))]
            if let label = field.label { members.append(("label", .string(label))) }
            if let initial = field.initial { members.append(("initial", .string(initial))) }
            if let mode = field.mode { members.append(("mode", .string(mode.name))) }
            if !field.groups.isEmpty { members.append(("groups", .array(field.groups.map { .string($0) }))) }
            if !field.normalize.isEmpty { members.append(("normalize", .array(field.normalize.map { .string($0.name) }))) }
            if field.secret { members.append(("secret", .bool(true))) }
            members.append(("rules", .array(field.rules.map(rule))))
            return .object(members)
        }
        var top: [(key: String, value: JSONValue)] = [("formwell", .integer(FormSpec.version)), ("fields", .array(fields))]
        if let mode = spec.mode { top.append(("mode", .string(mode.name))) }
        if let errors = spec.errors { top.append(("errors", .string(errors.name))) }
        if let locale = spec.locale { top.append(("locale", .string(locale))) }
        if !spec.ruleSets.isEmpty {
            top.append(("rule_sets", .object(spec.ruleSets.map { ($0.name, .array($0.rules.map(rule))) })))
        }
        return JSONWriter.write(.object(top), pretty: true, sortedKeys: true) + "\n"
    }

    /// A rule object: its kind, then its arguments in the catalogue's parameter order.
    private static func rule(_ rule: RuleSpec) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("rule", .string(rule.kind.name))]
        let order = rule.kind.descriptor?.parameters.map(\.name) ?? []
        let names = order.filter { rule.kind.arguments[$0] != nil }
            + rule.kind.arguments.keys.filter { !order.contains($0) }.sorted()
        for name in names {
            guard let argument = rule.kind.arguments[name] else { continue }
            members.append((name, value(argument)))
        }
        if let message = rule.message { members.append(("message", .string(message))) }
        if let hint = rule.hint { members.append(("hint", .string(hint))) }
        return .object(members)
    }

    private static func value(_ argument: RuleArgument) -> JSONValue {
        switch argument {
        case .integer(let number): return .integer(number)
        case .string(let text): return .string(text)
        case .strings(let list): return .array(list.map { .string($0) })
        case .decimal(let text):
            // As a JSON number with the same value (JSON has no "+" or leading zeros).
            guard let number = DecimalText(text) else { return .string(text) }
            return .number(text: number.jsonText, integer: number.isInteger ? Int(number.jsonText) : nil)
        }
    }
}

extension DecimalText {
    /// The shortest text of the same value that is also a JSON number: `-0012.50` is `-12.5`.
    var jsonText: String {
        let digits = whole.isEmpty ? "0" : String(decoding: whole, as: UTF8.self)
        let sign = negative ? "-" : ""
        return fraction.isEmpty ? sign + digits : sign + digits + "." + String(decoding: fraction, as: UTF8.self)
    }
}
