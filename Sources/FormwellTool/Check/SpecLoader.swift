import Formwell

/// SPEC → a pristine `Form` and the spec it came from. Every problem is a `ToolError`
/// "SPEC: path: problem" (exit status 2). `locale` (the `--locale` option), when given, replaces
/// the spec's own `"locale"`: the form's messages are worded in that catalogue.
enum SpecLoader {
    static func load(_ path: String, locale: String? = nil, maxBytes: Int = Limits.defaultMaxSpecBytes)
        throws(ToolError) -> (form: Form, spec: FormSpec) {
        let bytes = try DataSource.readAll(path, maxBytes: maxBytes, limitOption: "--max-spec-bytes")
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ToolError("\(path): not valid UTF-8")
        }
        do {
            var spec = try FormSpec(json: text)
            if let locale { spec.locale = locale }
            return (try Form(spec: spec), spec)
        } catch {
            var message = error.description
            if error.path.hasSuffix(".name"), error.problem.hasPrefix("no validator named") {
                // Custom rules name validators that host code defines; the tool has none.
                message += " (custom rules need a validator from a host program; the formwell tool cannot check them)"
            }
            throw ToolError("\(path): \(message)")
        }
    }
}
