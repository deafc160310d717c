/// Counts over a run: records, valid, invalid, malformed, and per field its invalid count and
/// how often each message occurred (counted per rule while running, merged by text at the end).
struct Summary {
    let fieldIDs: [String]
    private let messages: MessageTable
    private(set) var valid = 0
    private(set) var invalid = 0
    private(set) var malformed = 0
    private(set) var invalidByField: [Int]
    private var ruleCounts: [[Int]]
    private var textCounts: [[String: Int]]

    init(fieldIDs: [String], messages: MessageTable) {
        self.fieldIDs = fieldIDs
        self.messages = messages
        invalidByField = Array(repeating: 0, count: fieldIDs.count)
        ruleCounts = messages.texts.map { Array(repeating: 0, count: $0.count) }
        textCounts = Array(repeating: [:], count: fieldIDs.count)
    }

    /// Every item: records of either verdict and malformed lines.
    var records: Int { valid + invalid + malformed }

    var allValid: Bool { invalid == 0 && malformed == 0 }

    mutating func add(_ verdicts: Verdicts, row: Int) {
        if verdicts.isValid(row) {
            valid += 1
            return
        }
        invalid += 1
        verdicts.forEachError(row) { field, message in
            invalidByField[field] += 1
            switch message {
            case .rule(let rule) where ruleCounts[field].indices.contains(rule): ruleCounts[field][rule] += 1
            case .rule: break
            case .text(let text): textCounts[field][text, default: 0] += 1
            }
        }
    }

    mutating func addMalformed() { malformed += 1 }

    /// The most common messages of a field, most frequent first, ties by message text.
    func topMessages(ofField field: Int, limit: Int = 3) -> [(message: String, count: Int)] {
        var counts = textCounts[field]
        for (rule, count) in ruleCounts[field].enumerated() where count > 0 {
            counts[messages.texts[field][rule], default: 0] += count
        }
        return counts
            .map { (message: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : Array($0.message.utf8).lexicographicallyPrecedes($1.message.utf8) }
            .prefix(limit)
            .map { $0 }
    }
}
