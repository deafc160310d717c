/// JSONL: one JSON object per physical line; blank lines are skipped.
struct JSONLReader: RecordReader {
    let lines: LineReader
    private let decoder = JSONRecordDecoder()

    init(lines: LineReader) {
        self.lines = lines
    }

    mutating func next() throws(ToolError) -> RecordItem? {
        while let line = try lines.nextLine() {
            let number = lines.lineNumber
            let item = line.withUnsafeBufferPointer { bytes -> RecordItem? in
                if Self.isBlank(bytes) { return nil }
                if let offset = UTF8Check.firstInvalidOffset(bytes) {
                    return .malformed(line: number, reason: "invalid UTF-8 at byte \(offset + 1)")
                }
                switch decoder.decode(bytes) {
                case .success(let members): return .record(line: number, values: members)
                case .failure(let malformed): return .malformed(line: number, reason: malformed.reason)
                }
            }
            if let item { return item }
        }
        return nil
    }

    private static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
