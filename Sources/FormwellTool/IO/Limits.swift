/// The bounds on what the tool reads, so that endless or hostile input ends with an error (exit
/// status 2) instead of exhausting memory: one line (or one CSV record spanning lines) of DATA,
/// and the whole SPEC. The defaults are far above any realistic record or spec; `--max-line-bytes`
/// and `--max-spec-bytes` raise or lower them.
enum Limits {
    static let defaultMaxLineBytes = 64 << 20
    static let defaultMaxSpecBytes = 16 << 20
    /// The largest value either option takes (the tool keeps a line in memory twice at most).
    static let largest = 1 << 40

    /// A size option's value: digits with an optional binary suffix, `K`, `M` or `G` (`64M`).
    static func parseSize(_ text: String) -> Int? {
        var digits = Substring(text)
        var scale = 1
        switch digits.last {
        case "K", "k": scale = 1 << 10
        case "M", "m": scale = 1 << 20
        case "G", "g": scale = 1 << 30
        default: break
        }
        if scale != 1 { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 13,
              let value = Int(digits) else { return nil }
        let (size, overflow) = value.multipliedReportingOverflow(by: scale)
        guard !overflow, size >= 1, size <= largest else { return nil }
        return size
    }

    /// "64 MiB", "1000 bytes": a limit as the error messages name it.
    static func describe(_ bytes: Int) -> String {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
