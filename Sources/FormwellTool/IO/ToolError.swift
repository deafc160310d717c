/// Input that cannot be read at all (a missing file, a read error, a CSV header that cannot be used):
/// the run stops with exit status 2.
struct ToolError: Error {
    let message: String

    init(_ message: String) { self.message = message }
}
