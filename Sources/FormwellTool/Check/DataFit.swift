/// Whether DATA fits the spec, judged once before any record is reported: the problems that would
/// otherwise give a silently wrong report (every record "required" because a column is missing or
/// misspelt, or "0 records" from a file that holds none). Each is a warning on stderr; with
/// `--strict` they stop the run (exit status 2).
///
/// - A field with no column: CSV judges the header; JSONL, the keys of the records read before the
///   first report (up to one batch).
/// - A column or key that names a field only after trimming white space and case-folding: named,
///   with the field it would match.
/// - A CSV header that starts with `{`, or of one column that holds a `;`, a TAB or a `|`: the
///   likely format or delimiter is suggested (`--input jsonl`, `--delimiter`).
/// - No records at all (an empty file, a header row alone).
struct DataFit {
    let fieldIDs: [String]

    /// The warnings for what has been read so far. `columns`: a CSV header (nil for JSONL);
    /// `named`: the fields some record named; `unknownKeys`: the keys and columns that are not
    /// fields, in the order met; `records`: the records (and malformed lines) read.
    func problems(columns: [String]?, named: [Bool], unknownKeys: [String], records: Int, dataName: String) -> [String] {
        var problems: [String] = []
        if records == 0 {
            problems.append(columns == nil ? "\(dataName) holds no records" : "\(dataName) holds a header row and no records")
        }
        let present: [Bool]
        if let columns {
            let names = Set(columns)
            present = fieldIDs.map { names.contains($0) }
        } else {
            present = named
        }
        guard columns != nil || records > 0 else { return problems }
        let source = columns == nil ? "no record read names field" : "no column for field"
        let foreign = columns.map { $0.filter { !fieldIDs.contains($0) } } ?? unknownKeys
        for (index, id) in fieldIDs.enumerated() where index < present.count && !present[index] {
            var text = "\(source) \(TerminalText.quoted(id))"
            if let near = foreign.first(where: { Self.folded($0) == Self.folded(id) }) {
                text += "; \(columns == nil ? "key" : "column") \(TerminalText.quoted(near)) matches it only after trimming and "
                    + "case-folding (rename it to \(TerminalText.quoted(id)))"
            }
            problems.append(text + "; every record gets the field's initial value")
        }
        if let columns, let first = columns.first, present.contains(false) {
            if first.hasPrefix("{") {
                problems.append("the header row looks like JSON: is \(dataName) JSONL? (--input jsonl)")
            } else if columns.count == 1, let separator = Self.separators.first(where: { first.contains($0.character) }) {
                problems.append("the header row is one column holding \(TerminalText.quoted(String(separator.character))): "
                    + "is \(dataName) separated by it? (--delimiter \(separator.option))")
            }
        }
        return problems
    }

    /// The separators a one-column header is searched for, and how `--delimiter` takes each.
    private static let separators: [(character: Character, option: String)] = [(";", "';'"), ("\t", "tab"), ("|", "'|'")]

    /// A name as the near-match check compares it: trimmed of white space, lowercased.
    static func folded(_ name: String) -> String {
        var text = Substring(name)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text.lowercased()
    }
}
