/// The default output, for people: `line 12: email: Invalid email format` per invalid field,
/// `line 40: malformed: reason` per malformed line, then a blank line and the summary. Ids,
/// messages and reasons are written with their control characters escaped (`TerminalText`), so
/// every line of the report is one the tool wrote.
struct HumanReport: Reporter {
    let output: OutputBuffer
    let fieldIDs: [String]
    /// Each id as written, escaped.
    private let idBytes: [[UInt8]]
    private var wroteDetails = false

    init(output: OutputBuffer, fieldIDs: [String]) {
        self.output = output
        self.fieldIDs = fieldIDs
        idBytes = fieldIDs.map { Array(TerminalText.escaped($0).utf8) }
    }

    mutating func record(line: Int, verdicts: Verdicts, row: Int) {
        guard !verdicts.isValid(row) else { return }
        let ids = idBytes
        output.append { bytes in
            verdicts.forEachError(row) { field, message in
                bytes.append(contentsOf: "line ".utf8)
                LineNumberText.append(line, to: &bytes)
                bytes.append(contentsOf: ": ".utf8)
                bytes.append(contentsOf: ids[field])
                bytes.append(contentsOf: ": ".utf8)
                bytes.append(contentsOf: verdicts.messages.terminalText(field, message))
                bytes.append(0x0A)
            }
        }
        wroteDetails = true
    }

    mutating func malformed(line: Int, reason: String) {
        output.write("line \(line): malformed: \(TerminalText.escaped(reason))\n")
        wroteDetails = true
    }

    mutating func finish(_ summary: Summary) {
        if wroteDetails { output.write("\n") }
        var head = "\(summary.records) \(summary.records == 1 ? "record" : "records"): "
            + "\(summary.valid) valid, \(summary.invalid) invalid"
        if summary.malformed > 0 { head += ", \(summary.malformed) malformed" }
        output.write(head + "\n")
        for (field, id) in fieldIDs.enumerated() where summary.invalidByField[field] > 0 {
            let messages = summary.topMessages(ofField: field)
                .map { "\(TerminalText.escaped($0.message)) (\($0.count))" }
                .joined(separator: ", ")
            output.write("  \(TerminalText.escaped(id)): \(summary.invalidByField[field]) invalid — \(messages)\n")
        }
    }
}
