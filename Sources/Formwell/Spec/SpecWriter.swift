import FoundationEssentials

/// `FormSpec` → JSON text: pretty-printed with sorted keys, so load → export → load → export is stable.
enum SpecWriter {
    static func write(_ spec: FormSpec) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(EncodableSpec(spec: spec)) else { return "" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

private struct EncodableSpec: Encodable {
    let spec: FormSpec

    private enum Key: String, CodingKey {
        case formwell, fields, id, label, initial, rules, rule, message, length, pattern, field, name
    }

    func encode(to encoder: Encoder) throws {
        var top = encoder.container(keyedBy: Key.self)
        try top.encode(FormSpec.version, forKey: .formwell)
        var fields = top.nestedUnkeyedContainer(forKey: .fields)
        for field in spec.fields {
            var object = fields.nestedContainer(keyedBy: Key.self)
            try object.encode(field.id, forKey: .id)
            try object.encodeIfPresent(field.label, forKey: .label)
            try object.encodeIfPresent(field.initial, forKey: .initial)
            var rules = object.nestedUnkeyedContainer(forKey: .rules)
            for rule in field.rules {
                var entry = rules.nestedContainer(keyedBy: Key.self)
                switch rule.kind {
                case .required: try entry.encode("required", forKey: .rule)
                case .email: try entry.encode("email", forKey: .rule)
                case .phone: try entry.encode("phone", forKey: .rule)
                case .minLength(let count):
                    try entry.encode("min_length", forKey: .rule)
                    try entry.encode(count, forKey: .length)
                case .maxLength(let count):
                    try entry.encode("max_length", forKey: .rule)
                    try entry.encode(count, forKey: .length)
                case .regex(let pattern):
                    try entry.encode("regex", forKey: .rule)
                    try entry.encode(pattern, forKey: .pattern)
                case .matches(let other):
                    try entry.encode("matches", forKey: .rule)
                    try entry.encode(other, forKey: .field)
                case .custom(let name):
                    try entry.encode("custom", forKey: .rule)
                    try entry.encode(name, forKey: .name)
                }
                try entry.encodeIfPresent(rule.message, forKey: .message)
            }
        }
    }
}
