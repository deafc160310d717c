import Formwell

/// `--format json`: one JSON object per record, keys sorted by their UTF-8 bytes, no summary:
/// `{"codes":{"email":"email"},"errors":{"email":"Invalid email format"},"line":12,"params":{"email":{}},"valid":false}`,
/// `{"line":40,"malformed":"reason"}`. Each failing field is under the same key in `codes` (its
/// failure's stable code), `errors` (its message, in the form's locale) and `params` (the failure's
/// parameters as a JSON object, the engine's text). Written byte by byte (the texts escaped once
/// per run), in exactly the form FoundationEssentials' JSONEncoder gave with sorted keys.
struct JSONReport: Reporter {
    let output: OutputBuffer
    /// Field positions in the order their ids sort, and each id as `"id":`.
    private let sortedFields: [Int]
    private let keys: [[UInt8]]
    /// The failing fields of the record being written, in key order (reused between records).
    private var found: [(field: Int, message: Verdicts.Message)] = []

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
        found.removeAll(keepingCapacity: true)
        if !valid {
            // Each failing field's message, by field position, then written in key order.
            var byField: [(Int, Verdicts.Message)] = []
            verdicts.forEachError(row) { field, message in byField.append((field, message)) }
            for field in order {
                if let (_, message) = byField.first(where: { $0.0 == field }) { found.append((field, message)) }
            }
        }
        let failing = found
        let table = verdicts.messages
        output.append { bytes in
            bytes.append(contentsOf: #"{"codes":{"#.utf8)
            JSONReport.members(failing, keys, to: &bytes) { field, message, bytes in
                switch message {
                case .rule(let rule) where table.codes[field].indices.contains(rule):
                    bytes.append(contentsOf: table.codes[field][rule])
                case .rule, .text:
                    // A cell's own message (a pattern over its limits): its code from the result.
                    JSONWriter.appendString(verdicts.result.code(record: row, field: field) ?? "", to: &bytes)
                }
            }
            bytes.append(contentsOf: #"},"errors":{"#.utf8)
            JSONReport.members(failing, keys, to: &bytes) { field, message, bytes in
                switch message {
                case .rule(let rule) where table.json[field].indices.contains(rule):
                    bytes.append(contentsOf: table.json[field][rule])
                case .rule:
                    JSONWriter.appendString("", to: &bytes)
                case .text(let text):
                    JSONWriter.appendString(text, to: &bytes)
                }
            }
            bytes.append(contentsOf: #"},"line":"#.utf8)
            LineNumberText.append(line, to: &bytes)
            bytes.append(contentsOf: #","params":{"#.utf8)
            JSONReport.members(failing, keys, to: &bytes) { field, message, bytes in
                switch message {
                case .rule(let rule) where table.params[field].indices.contains(rule):
                    bytes.append(contentsOf: table.params[field][rule])
                case .rule, .text:
                    bytes.append(contentsOf: (verdicts.result.params(record: row, field: field) ?? "{}").utf8)
                }
            }
            bytes.append(contentsOf: valid ? #"},"valid":true}"#.utf8 : #"},"valid":false}"#.utf8)
            bytes.append(0x0A)
        }
    }

    /// The members `"id":value` of one object, a failing field each, in key order.
    private static func members(
        _ failing: [(field: Int, message: Verdicts.Message)], _ keys: [[UInt8]], to bytes: inout [UInt8],
        _ value: (Int, Verdicts.Message, inout [UInt8]) -> Void
    ) {
        for (index, (field, message)) in failing.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: keys[field])
            value(field, message, &bytes)
        }
    }

    mutating func malformed(line: Int, reason: String) {
        output.append { bytes in
            bytes.append(contentsOf: #"{"line":"#.utf8)
            LineNumberText.append(line, to: &bytes)
            bytes.append(contentsOf: #","malformed":"#.utf8)
            JSONWriter.appendString(reason, to: &bytes)
            bytes.append(contentsOf: "}\n".utf8)
        }
    }

    mutating func finish(_ summary: Summary) {}
}
