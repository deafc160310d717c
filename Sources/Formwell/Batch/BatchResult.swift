import Glibc

/// What a batch check found: per record, valid or not; per record and field, the index of the rule
/// that failed (-1 when the field passes) and, on demand, its message. Record-major: the cell of
/// record `r`, field `f` is `r * fieldCount + f`.
///
/// A class owning plain buffers, so the C ABI can hand out pointers into it that stay put for the
/// result's life (Python reads them without a call per record).
public final class BatchResult: @unchecked Sendable {
    public let recordCount: Int
    public let fieldCount: Int
    /// 1 for a valid record, 0 for an invalid one.
    public let validFlags: UnsafeMutableBufferPointer<UInt8>
    /// Failing rule index per cell, -1 where the field passes.
    public let failingRules: UnsafeMutableBufferPointer<Int32>
    public internal(set) var invalidCount = 0
    /// The message of each (field, rule) when it fails: the rule's own message or its default.
    let ruleMessages: [[String]]
    /// The failure code and parameters (JSON) of each (field, rule).
    let ruleFailures: [[(code: String, params: String)]]
    /// Messages that are not their rule's fixed one (a custom validator's own wording, a pattern
    /// over its match limits), by cell.
    var specialMessages: [Int: String] = [:]
    /// Cells whose pattern hit its match limits.
    var limitExceeded: Set<Int> = []

    /// Which buffers are this result's own (else the caller's, written in place).
    private let ownsValid: Bool
    private let ownsRules: Bool

    /// `cells` is recordCount × fieldCount (the caller checked it does not overflow). A buffer the
    /// caller passes (the C ABI's output arrays, of those sizes) is written in place; a missing one
    /// is allocated here, failing with an error rather than a trap when memory runs out.
    init(recordCount: Int, fieldCount: Int, cells: Int, ruleMessages: [[String]],
         ruleFailures: [[(code: String, params: String)]] = [],
         valid: UnsafeMutablePointer<UInt8>? = nil, failing: UnsafeMutablePointer<Int32>? = nil) throws(FormError) {
        self.recordCount = recordCount
        self.fieldCount = fieldCount
        self.ruleMessages = ruleMessages
        self.ruleFailures = ruleFailures
        let ownValid = valid == nil ? malloc(max(recordCount, 1)) : nil
        let ownRules = failing == nil ? malloc(max(cells, 1) * MemoryLayout<Int32>.stride) : nil
        guard let validBase = valid ?? ownValid?.assumingMemoryBound(to: UInt8.self),
              let rulesBase = failing ?? ownRules?.assumingMemoryBound(to: Int32.self) else {
            free(ownValid)
            free(ownRules)
            throw .internalError("out of memory for the results of \(recordCount) records")
        }
        ownsValid = ownValid != nil
        ownsRules = ownRules != nil
        validFlags = UnsafeMutableBufferPointer(start: validBase, count: recordCount)
        failingRules = UnsafeMutableBufferPointer(start: rulesBase, count: cells)
        validFlags.initialize(repeating: 1)
        failingRules.initialize(repeating: -1)
    }

    deinit {
        if ownsValid { free(validFlags.baseAddress) }
        if ownsRules { free(failingRules.baseAddress) }
    }

    /// Cells (record × field + field) whose message is not their rule's fixed one, with the message.
    public var ownMessages: [Int: String] { specialMessages }

    /// Cells whose failing pattern stopped at its match limits.
    public var limitExceededCells: Set<Int> { limitExceeded }

    public func isValid(record: Int) -> Bool {
        validFlags.indices.contains(record) && validFlags[record] != 0
    }

    /// The failing rule's index of `field` in `record`, nil when it passes or is out of range.
    public func failingRule(record: Int, field: Int) -> Int? {
        guard let cell = cell(record, field), failingRules[cell] >= 0 else { return nil }
        return Int(failingRules[cell])
    }

    /// What the field shows after a submit of the record: nil when it passes.
    public func message(record: Int, field: Int) -> String? {
        guard let cell = cell(record, field), failingRules[cell] >= 0 else { return nil }
        if let special = specialMessages[cell] { return special }
        let rule = Int(failingRules[cell])
        guard ruleMessages.indices.contains(field), ruleMessages[field].indices.contains(rule) else { return nil }
        return ruleMessages[field][rule]
    }

    /// The failure code of the field in `record` (`min_length`, `pattern_limit` for a pattern
    /// stopped at its match limits); nil when it passes.
    public func code(record: Int, field: Int) -> String? { failure(record: record, field: field)?.code }

    /// The failure's parameters as a JSON object ("{}" for none); nil when the field passes.
    public func params(record: Int, field: Int) -> String? { failure(record: record, field: field)?.params }

    private func failure(record: Int, field: Int) -> (code: String, params: String)? {
        guard let cell = cell(record, field), failingRules[cell] >= 0 else { return nil }
        if limitExceeded.contains(cell) { return (FailureCode.patternLimit, "{}") }
        let rule = Int(failingRules[cell])
        guard ruleFailures.indices.contains(field), ruleFailures[field].indices.contains(rule) else { return nil }
        return ruleFailures[field][rule]
    }

    /// Whether the failing pattern of this cell stopped at its match limits.
    public func limitExceeded(record: Int, field: Int) -> Bool {
        guard let cell = cell(record, field) else { return false }
        return limitExceeded.contains(cell)
    }

    /// The invalid fields of `record` with their messages, in registration order.
    public func errors(record: Int) -> [(field: Int, message: String)] {
        (0..<fieldCount).compactMap { field in message(record: record, field: field).map { (field, $0) } }
    }

    private func cell(_ record: Int, _ field: Int) -> Int? {
        guard record >= 0, record < recordCount, field >= 0, field < fieldCount else { return nil }
        return record * fieldCount + field
    }
}
