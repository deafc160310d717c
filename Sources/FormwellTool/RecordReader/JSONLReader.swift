import Formwell

/// JSONL: one JSON object per physical line; blank lines are skipped. Values are strings, or
/// numbers and booleans taken as their JSON text (`30` → "30", `true` → "true"), or null ("");
/// an array or object as a value, like any syntax error, makes the line malformed, with the
/// column of the problem. Parsed by the engine's strict reader (`JSONRecordScanner`) straight into
/// the batch's columns: no dictionary or String per record.
struct JSONLReader: RecordReader {
    let lines: LineReader
    private var scanner = JSONRecordScanner()

    init(lines: LineReader) {
        self.lines = lines
    }

    var columns: [String]? { nil }

    mutating func read(into batch: inout RecordBatch) throws(ToolError) -> Bool {
        while let line = try lines.nextLine() {
            let number = lines.lineNumber
            let done = line.withUnsafeBufferPointer { bytes -> Bool in
                if Self.isBlank(bytes) { return false }
                if let offset = ValidUTF8.firstInvalidOffset(bytes) {
                    batch.addMalformed(line: number, reason: "invalid UTF-8 at byte \(offset + 1)")
                    return true
                }
                batch.beginRecord()
                do {
                    try scanner.scan(bytes) { member in batch.stage(key: member.key, value: member.value) }
                } catch let error as JSONError {
                    batch.addMalformed(line: number, reason: Self.reason(error))
                    return true
                } catch {
                    batch.addMalformed(line: number, reason: "bad JSON: \(error)")
                    return true
                }
                batch.endRecord(line: number)
                return true
            }
            if done { return true }
        }
        return false
    }

    /// "bad JSON at column 41: expected a value"; a value of the wrong type is named by its key.
    private static func reason(_ error: JSONError) -> String {
        if error.message.hasPrefix("key '") { return error.message }
        return "bad JSON at column \(error.column): \(error.message)"
    }

    private static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
