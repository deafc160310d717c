/// Checks many records as submits (seed 03's `validate()` on a form holding the record's values),
/// reading the form's rules and never its interactive state: values, phases and touched flags stay
/// as they were. Each field's strict verdict: an empty value fails only `required`; any other value
/// runs every rule in order, the first failure wins; `matches` compares with the other field's value
/// in the same record.
struct BatchChecker: @unchecked Sendable {
    private let columns: [BatchColumn?]
    private let recordCount: Int
    private let fieldCount: Int
    /// Every field's compiled rules, in one buffer (retained for the check), and each field's range.
    private let rules: UnsafeMutableBufferPointer<CompiledRule>
    private let ruleRanges: [Range<Int>]
    private let requiredRules: [Int?]
    /// Whether each field has a conditional requirement (its empty values need a look at others).
    private let conditional: [Bool]
    private let ids: [String]
    /// Values of fields without a column: their initial values' UTF-8, in one buffer.
    private let initialBytes: UnsafeMutableBufferPointer<UInt8>
    private let initialRanges: [Range<Int>]
    private let matchContext: OpaquePointer?
    /// Each field's normalisers: a record's value is normalised before the rules judge it.
    private let normalizers: [[Normalizer]]
    /// Custom validators are host code that may not be thread-safe: such forms run on one thread.
    let hasCustomRules: Bool

    init(fields: [Field], columns: [BatchColumn?], recordCount: Int, matchContext: OpaquePointer?) {
        self.columns = columns
        self.recordCount = recordCount
        fieldCount = fields.count
        var allRules: [CompiledRule] = []
        var ranges: [Range<Int>] = []
        var initial: [UInt8] = []
        var initialRanges: [Range<Int>] = []
        for field in fields {
            ranges.append(allRules.count..<allRules.count + field.rules.count)
            allRules.append(contentsOf: field.rules)
            // A field without a column keeps its (normalised) current initial value.
            let start = initial.count
            var value = Field.values(of: FieldValue(field.initialValue), normalizers: field.normalizers).0
            value.withBytes { initial.append(contentsOf: $0) }
            initialRanges.append(start..<initial.count)
        }
        rules = .allocate(capacity: allRules.count)
        _ = rules.initialize(from: allRules)
        ruleRanges = ranges
        requiredRules = fields.map(\.alwaysRequiredRule)
        conditional = fields.map { $0.rules.contains { if case .condition = $0.quick { return true } else { return false } } }
        ids = fields.map(\.id)
        initialBytes = .allocate(capacity: initial.count)
        _ = initialBytes.initialize(from: initial)
        self.initialRanges = initialRanges
        self.matchContext = matchContext
        normalizers = fields.map(\.normalizers)
        hasCustomRules = allRules.contains { if case .custom = $0.check { return true } else { return false } }
    }

    /// Gives back the buffers (the checker is not used afterwards).
    func release() {
        rules.deinitialize()
        rules.deallocate()
        initialBytes.deallocate()
    }

    /// The value of `field` in `record`: its column's, or the field's initial value.
    @inline(__always)
    private func value(_ field: Int, _ record: Int) -> UnsafeBufferPointer<UInt8> {
        if let column = columns[field] { return column.value(record) }
        return UnsafeBufferPointer(rebasing: initialBytes[initialRanges[field]])
    }

    /// One field of one record: nil when it passes, else the failing rule and, when the value was
    /// judged by the rules (not empty), their evaluation (whose message may be a validator's own).
    /// `tail` is the caller's scratch space: a value that ends within `FieldValue.padding` bytes of
    /// its buffer's end is copied there first, with zeroed padding after it, because PCRE2's JIT may
    /// read a few bytes past a subject (see FieldValue) and past a column's end is the caller's memory.
    @inline(__always)
    func judge(_ field: Int, _ record: Int, tail: inout [UInt8]) throws(FormError) -> (rule: Int, evaluation: Evaluation?)? {
        let bytes = value(field, record)
        if !normalizers[field].isEmpty, let normalized = Normalizer.normalized(bytes, normalizers[field]) {
            // Judged from a padded copy of the normalised value (see below).
            if normalized.isEmpty { return emptyVerdict(field, record) }
            tail.removeAll(keepingCapacity: true)
            tail.append(contentsOf: normalized)
            tail.append(contentsOf: repeatElement(0, count: FieldValue.padding))
            return try tail.withUnsafeBufferPointer { (padded) throws(FormError) in
                try judge(field, record, UnsafeBufferPointer(rebasing: padded[..<normalized.count]))
            }
        }
        if bytes.isEmpty { return emptyVerdict(field, record) }
        if Int(bitPattern: bytes.baseAddress) &+ bytes.count &+ FieldValue.padding > bufferEnd(field) {
            tail.removeAll(keepingCapacity: true)
            tail.append(contentsOf: bytes)
            tail.append(contentsOf: repeatElement(0, count: FieldValue.padding))
            return try tail.withUnsafeBufferPointer { (padded) throws(FormError) in
                try judge(field, record, UnsafeBufferPointer(rebasing: padded[..<bytes.count]))
            }
        }
        return try judge(field, record, bytes)
    }

    /// The verdict of an empty value (after normalising): `required`, or a conditional rule
    /// (required_if, ...) judging the other field's (normalised) value in this record.
    private func emptyVerdict(_ field: Int, _ record: Int) -> (rule: Int, evaluation: Evaluation?)? {
        guard conditional[field] else { return requiredRules[field].map { ($0, nil) } }
        let empty = Field.emptyEvaluation(
            rules: UnsafeBufferPointer(rebasing: rules[ruleRanges[field]]),
            valueAt: { other in other >= 0 && other < fieldCount ? peer(other, record) : nil })
        return (empty.requirement ?? requiredRules[field]).map { ($0, nil) }
    }

    /// The address just past the buffer `field`'s values live in.
    @inline(__always)
    private func bufferEnd(_ field: Int) -> Int {
        if let column = columns[field] { return Int(bitPattern: column.data.baseAddress) &+ column.data.count }
        return Int(bitPattern: initialBytes.baseAddress) &+ initialBytes.count
    }

    @inline(__always)
    private func judge(_ field: Int, _ record: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(FormError) -> (rule: Int, evaluation: Evaluation?)? {
        let subject = Subject(utf8: bytes)
        let evaluation = try Field.evaluation(
            of: subject, rules: UnsafeBufferPointer(rebasing: rules[ruleRanges[field]]), id: { ids[field] },
            valueAt: { other in other >= 0 && other < fieldCount ? peer(other, record) : nil },
            matchContext: matchContext)
        return evaluation.rule.map { ($0, evaluation) }
    }

    /// Another field's value in the same record, as a `matches` rule compares it: normalised.
    private func peer(_ field: Int, _ record: Int) -> PeerValue {
        let bytes = value(field, record)
        guard !normalizers[field].isEmpty, let normalized = Normalizer.normalized(bytes, normalizers[field]) else {
            return .bytes(bytes)
        }
        return .stored(FieldValue(normalized))
    }

    /// The message a failing cell shows, when it is not its rule's fixed one (a custom validator's
    /// own words, a pattern over its limits), and whether the limits were hit.
    func special(_ field: Int, _ verdict: (rule: Int, evaluation: Evaluation?)) -> (message: String?, limit: Bool) {
        guard let evaluation = verdict.evaluation else { return (nil, false) }
        let rule = rules[ruleRanges[field].lowerBound + verdict.rule]
        let message: String
        switch evaluation.verdict {
        case .ruleFailure: message = rule.failureMessage(limitExceeded: evaluation.limitExceeded)
        case .worded: message = evaluation.words ?? ""
        case .empty, .valid: return (nil, false)
        }
        return (message == rule.failure ? nil : message, evaluation.limitExceeded)
    }

    /// Judges records `range` into `result` (each record's cells and flag are written by exactly
    /// one caller). Messages that are not their rule's fixed one are returned, not stored, so that
    /// threads never write a shared dictionary.
    func check(_ range: Range<Int>, into result: BatchResult) throws(FormError) -> (invalid: Int, special: [Int: String], limits: Set<Int>) {
        var invalid = 0
        var tail: [UInt8] = []
        var specials: [Int: String] = [:]
        var limits: Set<Int> = []
        for record in range {
            var recordValid = true
            for field in 0..<fieldCount {
                guard let verdict = try judge(field, record, tail: &tail) else { continue }
                let cell = record * fieldCount + field
                recordValid = false
                result.failingRules[cell] = Int32(truncatingIfNeeded: verdict.rule)
                if verdict.evaluation != nil {
                    let (message, limit) = special(field, verdict)
                    if let message { specials[cell] = message }
                    if limit { limits.insert(cell) }
                }
            }
            if !recordValid {
                result.validFlags[record] = 0
                invalid += 1
            }
        }
        return (invalid, specials, limits)
    }

    /// The message of one cell, nil when the field passes.
    func message(_ field: Int, _ record: Int) throws(FormError) -> String? {
        var tail: [UInt8] = []
        guard let verdict = try judge(field, record, tail: &tail) else { return nil }
        if let own = special(field, verdict).message { return own }
        return rules[ruleRanges[field].lowerBound + verdict.rule].failure
    }
}

/// How a batch's records are split between workers, and what each reported: each worker writes
/// only its own slot of a plain buffer; the caller reads them after joining. A slot is a struct, not
/// an `Optional<Result<…>>`: valgrind's memcheck flags reading such a multi-payload enum after its
/// smaller case was stored (the bytes only the larger case covers stay undefined).
final class BatchShares: @unchecked Sendable {
    struct Outcome {
        var reported = false
        var invalid = 0
        var special: [Int: String] = [:]
        var limits: Set<Int> = []
        var error: FormError? = nil
    }
    let recordCount: Int
    let workers: Int
    let slots: UnsafeMutableBufferPointer<Outcome>

    init(recordCount: Int, workers: Int) {
        self.recordCount = recordCount
        self.workers = workers
        slots = .allocate(capacity: workers)
        slots.initialize(repeating: Outcome())
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func range(_ worker: Int) -> Range<Int> {
        let start = recordCount * worker / workers
        let end = recordCount * (worker + 1) / workers
        return start..<end
    }
}
