import Formwell

/// `--format json`: one JSON object per record, keys sorted by their UTF-8 bytes, no summary:
/// `{"errors":{"email":"Invalid email format"},"line":12,"valid":false}`,
/// `{"line":40,"malformed":"reason"}`. Written byte by byte (the message texts escaped once per
/// run), in exactly the form FoundationEssentials' JSONEncoder gave with sorted keys.
struct JSONReport: Reporter {
    let output: OutputBuffer
    /// Field positions in the order their ids sort, and each id as `"id":`.
    private let sortedFields: [Int]
    private let keys: [[UInt8]]

    init(output: OutputBuffer, fieldIDs: [String]) {
        self.output = output
        sortedFields = fieldIDs.indices.sorted { Array(fieldIDs[$0].utf8).lexicographicallyPrecedes(fieldIDs[$1].utf8) }
        keys = fieldIDs.map { id in
            var bytes: [UInt8] = []
            JSONWriter.appendString(id, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            return bytes
        }
    }

    mutating func record(line: Int, verdicts: Verdicts, row: Int) {
        let valid = verdicts.isValid(row)
        let order = sortedFields, keys = self.keys
        output.append { bytes in
            bytes.append(contentsOf: #"{"errors":{"#.utf8)
            if !valid {
                // Each failing field's message, by field position, then written in key order.
                var found: [(Int, Verdicts.Message)] = []
                verdicts.forEachError(row) { field, message in found.append((field, message)) }
                var first = true
                for field in order {
                    guard let (_, message) = found.first(where: { $0.0 == field }) else { continue }
                    if !first { bytes.append(UInt8(ascii: ",")) }
                    first = false
                    bytes.append(contentsOf: keys[field])
                    switch message {
                    case .rule(let rule) where verdicts.messages.json[field].indices.contains(rule):
                        bytes.append(contentsOf: verdicts.messages.json[field][rule])
                    case .rule:
                        JSONWriter.appendString("", to: &bytes)
                    case .text(let text):
                        JSONWriter.appendString(text, to: &bytes)
                    }
                }
            }
            bytes.append(contentsOf: #"},"line":"#.utf8)
            DecimalText.append(line, to: &bytes)
            bytes.append(contentsOf: valid ? #","valid":true}"#.utf8 : #","valid":false}"#.utf8)
            bytes.append(0x0A)
        }
    }

    mutating func malformed(line: Int, reason: String) {
        output.append { bytes in
            bytes.append(contentsOf: #"{"line":"#.utf8)
            DecimalText.append(line, to: &bytes)
            bytes.append(contentsOf: #","malformed":"#.utf8)
            JSONWriter.appendString(reason, to: &bytes)
            bytes.append(contentsOf: "}\n".utf8)
        }
    }

    mutating func finish(_ summary: Summary) {}
}
