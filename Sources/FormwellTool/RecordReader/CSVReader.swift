import Formwell

/// CSV as RFC 4180 describes it: a header row of field ids, then records; fields may be quoted
/// (holding delimiters, doubled quotes and line breaks); records end with LF, CRLF or a lone CR.
/// The delimiter is a comma unless `--delimiter` names another (`;`, TAB). A record is numbered by
/// the physical line it starts on. Blank lines between records are skipped. A record whose column
/// count differs from the header's is malformed, as is one with invalid UTF-8 or a quoted field that
/// is never closed: a short row is not padded, since a row that lost cells has usually shifted the
/// rest, and judging it would blame the wrong fields. A record spanning lines is bounded by the
/// same limit as one line.
struct CSVReader: RecordReader {
    let lines: LineReader
    let delimiter: UInt8
    private var header: [String]?

    init(lines: LineReader, delimiter: UInt8 = UInt8(ascii: ",")) {
        self.lines = lines
        self.delimiter = delimiter
        lines.endsLinesAtCR = true
    }

    var columns: [String]? { header }

    mutating func read(into batch: inout RecordBatch) throws(ToolError) -> Bool {
        if header == nil {
            guard let row = try nextRow() else { return false }
            if let problem = row.problem {
                let hint = row.fields.first?.hasPrefix("{") == true ? " (it looks like JSON: is the file JSONL? --input jsonl)" : ""
                throw ToolError("\(lines.name): line \(row.line): the header row is malformed: \(problem)\(hint)")
            }
            var seen: Set<String> = []
            for name in row.fields where !seen.insert(name).inserted {
                throw ToolError("\(lines.name): line \(row.line): the header row names column \(TerminalText.quoted(name)) twice")
            }
            header = row.fields
        }
        guard let row = try nextRow(), let header else { return false }
        if let problem = row.problem {
            batch.addMalformed(line: row.line, reason: problem)
        } else if row.fields.count != header.count {
            batch.addMalformed(line: row.line, reason: "expected \(header.count) \(Self.columns(header.count)), found \(row.fields.count)")
        } else {
            batch.beginRecord()
            for (key, value) in zip(header, row.fields) { batch.stage(key: key, value: value) }
            batch.endRecord(line: row.line)
        }
        return true
    }

    private static func columns(_ count: Int) -> String { count == 1 ? "column" : "columns" }

    // MARK: Rows

    private struct Row {
        var line: Int
        var fields: [String] = []
        /// The first reason the row is malformed, if any.
        var problem: String?
    }

    /// The next row, which may span physical lines when a quoted field holds a line break.
    private mutating func nextRow() throws(ToolError) -> Row? {
        var row: Row?
        var state = FieldState()
        /// Bytes of the record before the current physical line (for UTF-8 offsets).
        var offset = 0
        while let line = try lines.nextLine() {
            var current: Row
            if let row {
                current = row
            } else {
                // Blank lines between records are skipped.
                if line.isEmpty || (line.count == 1 && line.first == 0x0D) { continue }
                current = Row(line: lines.lineNumber)
            }
            let complete = line.withUnsafeBufferPointer { bytes in
                if current.problem == nil, let bad = ValidUTF8.firstInvalidOffset(bytes) {
                    current.problem = "invalid UTF-8 at byte \(offset + bad + 1)"
                }
                return Self.scan(bytes, lineEnd: lines.lastLineEnd, delimiter: delimiter, state: &state, row: &current)
            }
            if complete { return current }
            row = current
            offset += line.count + lines.lastLineEnd.count
            if offset > lines.maxLineBytes {
                throw ToolError("\(lines.name): the record that starts on line \(current.line) is longer than "
                    + "\(Limits.describe(lines.maxLineBytes)) (\(lines.limitOption) raises the limit)")
            }
        }
        guard var row else { return nil }
        if state.quoted && !state.closed {
            if row.problem == nil { row.problem = "quoted field never closed" }
        }
        row.fields.append(state.text())
        return row
    }

    /// Where the reader is inside the current field.
    private struct FieldState {
        var bytes: [UInt8] = []
        /// The field began with a quote; `closed`: its closing quote was seen.
        var quoted = false
        var closed = false

        func text() -> String { String(decoding: bytes, as: UTF8.self) }

        mutating func reset() {
            bytes.removeAll(keepingCapacity: true)
            quoted = false
            closed = false
        }
    }

    /// Scans one physical line into the row; true when the record ends with this line.
    /// `lineEnd` is the line's own end (LF, CRLF or CR), kept inside a quoted field.
    private static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, lineEnd: [UInt8], delimiter: UInt8, state: inout FieldState, row: inout Row
    ) -> Bool {
        let quote = UInt8(ascii: "\""), comma = delimiter, carriageReturn: UInt8 = 0x0D
        let count = bytes.count
        var index = 0
        while index < count {
            let byte = bytes[index]
            if state.quoted && !state.closed {
                if byte == quote {
                    if index + 1 < count && bytes[index + 1] == quote {
                        state.bytes.append(quote)
                        index += 2
                        continue
                    }
                    state.closed = true
                } else {
                    state.bytes.append(byte)
                }
            } else if byte == comma {
                row.fields.append(state.text())
                state.reset()
            } else if byte == carriageReturn && index == count - 1 {
                // A CR left at the end of a line (a CR before the LF is the line end's own).
            } else if state.closed {
                if row.problem == nil {
                    row.problem = "unexpected \(describe(byte)) after a closing quote"
                }
                state.bytes.append(byte)
            } else if byte == quote && state.bytes.isEmpty && !state.quoted {
                state.quoted = true
            } else {
                state.bytes.append(byte)
            }
            index += 1
        }
        if state.quoted && !state.closed {
            // A line break inside a quoted field belongs to the value, as it was written.
            state.bytes.append(contentsOf: lineEnd)
            return false
        }
        row.fields.append(state.text())
        state.reset()
        return true
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
