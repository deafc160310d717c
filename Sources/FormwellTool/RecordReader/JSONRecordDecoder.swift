import FoundationEssentials

/// Decodes one JSONL line with FoundationEssentials' JSONDecoder: a JSON object whose values are
/// strings (null reads as ""). Anything else makes the line malformed, with the reason.
struct JSONRecordDecoder {
    private let decoder = JSONDecoder()

    func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<[(key: String, value: String)], Malformed> {
        do {
            let members = try decoder.decode([String: RecordValue].self, from: Data(buffer: bytes))
            // Sorted so that notes about unknown keys come out in the same order on every run.
            return .success(members.map { (key: $0.key, value: $0.value.text) }.sorted { $0.key < $1.key })
        } catch DecodingError.typeMismatch(_, let context) {
            guard let key = context.codingPath.first?.stringValue else {
                return .failure(Malformed("bad JSON: expected an object"))
            }
            return .failure(Malformed("key '\(key)': expected a string"))
        } catch {
            return .failure(Malformed("bad JSON"))
        }
    }

    struct Malformed: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}

/// A record's value: a string, or null for "".
private struct RecordValue: Decodable {
    let text: String

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        text = container.decodeNil() ? "" : try container.decode(String.self)
    }
}
