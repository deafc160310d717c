/// Counts over a run: records, valid, invalid, malformed, and per field its invalid count and
/// how often each message occurred.
struct Summary {
    let fieldIDs: [String]
    private(set) var valid = 0
    private(set) var invalid = 0
    private(set) var malformed = 0
    private(set) var invalidByField: [Int]
    private(set) var messagesByField: [[String: Int]]

    init(fieldIDs: [String]) {
        self.fieldIDs = fieldIDs
        invalidByField = Array(repeating: 0, count: fieldIDs.count)
        messagesByField = Array(repeating: [:], count: fieldIDs.count)
    }

    /// Every item: records of either verdict and malformed lines.
    var records: Int { valid + invalid + malformed }

    var allValid: Bool { invalid == 0 && malformed == 0 }

    mutating func add(_ outcome: RecordChecker.Outcome) {
        if outcome.isValid {
            valid += 1
            return
        }
        invalid += 1
        for (field, message) in outcome.errors {
            invalidByField[field] += 1
            messagesByField[field][message, default: 0] += 1
        }
    }

    mutating func addMalformed() { malformed += 1 }

    /// The most common messages of a field, most frequent first, ties by message text.
    func topMessages(ofField field: Int, limit: Int = 3) -> [(message: String, count: Int)] {
        messagesByField[field]
            .map { (message: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : Array($0.message.utf8).lexicographicallyPrecedes($1.message.utf8) }
            .prefix(limit)
            .map { $0 }
    }
}
