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
        return JSONWriter.write(.object(top), pretty: true, sortedKeys: true) + "\n"
    }

    private static func rule(_ rule: RuleSpec) -> JSONValue {
        var members: [(key: String, value: JSONValue)]
        switch rule.kind {
        case .required: members = [("rule", .string("required"))]
        case .email: members = [("rule", .string("email"))]
        case .phone: members = [("rule", .string("phone"))]
        case .minLength(let count): members = [("rule", .string("min_length")), ("length", .integer(count))]
        case .maxLength(let count): members = [("rule", .string("max_length")), ("length", .integer(count))]
        case .regex(let pattern): members = [("rule", .string("regex")), ("pattern", .string(pattern))]
        case .matches(let other): members = [("rule", .string("matches")), ("field", .string(other))]
        case .custom(let name): members = [("rule", .string("custom")), ("name", .string(name))]
        case .async(let name, let debounce):
            members = [("rule", .string("async")), ("name", .string(name)), ("debounce_ms", .integer(Int(clamping: debounce)))]
        }
        if let message = rule.message { members.append(("message", .string(message))) }
        if let hint = rule.hint { members.append(("hint", .string(hint))) }
        return .object(members)
    }
}
