/// The catalogue's messages and hints are templates: `{name}` stands for a value of the rule (its
/// arguments, `{field}` for the named field's label, `{units}` for the unit's noun agreeing with the
/// length). A kind lists several templates, most specific first; a rule uses the first whose
/// placeholders all have values (so `integer` with only `min` says "Enter a whole number of at least 1").
enum MessageTemplate {
    static func render(_ templates: [String], _ values: [String: String]) -> String {
        for template in templates {
            if let text = fill(template, values) { return text }
        }
        return ""
    }

    /// The template with its placeholders filled, or nil when one has no value.
    static func fill(_ template: String, _ values: [String: String]) -> String? {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            out += rest[..<open]
            guard let value = values[String(rest[rest.index(after: open)..<close])] else { return nil }
            out += value
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// The placeholders of `template`, in order.
    static func placeholders(_ template: String) -> [String] {
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
