import FoundationEssentials

/// `--format json`: one JSON object per record (JSONEncoder, keys sorted), no summary:
/// `{"errors":{"email":"Invalid email format"},"line":12,"valid":false}`,
/// `{"line":40,"malformed":"reason"}`.
struct JSONReport: Reporter {
    let output: OutputBuffer
    private let fieldIDs: [String]
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    init(output: OutputBuffer, fieldIDs: [String]) {
        self.output = output
        self.fieldIDs = fieldIDs
    }

    mutating func record(line: Int, outcome: RecordChecker.Outcome) {
        var errors: [String: String] = [:]
        for error in outcome.errors { errors[fieldIDs[error.field]] = error.message }
        emit(RecordLine(errors: errors, line: line, valid: outcome.isValid))
    }

    mutating func malformed(line: Int, reason: String) {
        emit(MalformedLine(line: line, malformed: reason))
    }

    mutating func finish(_ summary: Summary) {}

    private func emit(_ value: some Encodable) {
        guard let data = try? encoder.encode(value) else { return }
        output.write(String(decoding: data, as: UTF8.self) + "\n")
    }

    private struct RecordLine: Encodable {
        let errors: [String: String]
        let line: Int
        let valid: Bool
    }

    private struct MalformedLine: Encodable {
        let line: Int
        let malformed: String
    }
}
