extension Form {
    /// Checks `recordCount` records as submits without changing the form. `columns` has one entry
    /// per field in registration order: the field's values, or nil for "every record holds the
    /// field's initial value". `threads`: 0 uses every processor, 1 only the caller's thread (forms
    /// with custom rules always run on the caller's thread; small batches use fewer threads).
    /// Throws before judging anything when a column is malformed (naming the column and record),
    /// or when a custom validator fails.
    public func checkBatch(_ columns: [BatchColumn?], recordCount: Int, threads: Int = 1) throws(FormError) -> BatchResult {
        try checkBatch(columns, recordCount: recordCount, threads: threads, valid: nil, failingRules: nil)
    }

    /// `checkBatch` writing into the caller's arrays where given: `valid` (recordCount bytes) and
    /// `failingRules` (recordCount × fieldCount), which the result then reads. The C ABI's path.
    public func checkBatch(
        _ columns: [BatchColumn?], recordCount: Int, threads: Int,
        valid: UnsafeMutablePointer<UInt8>?, failingRules: UnsafeMutablePointer<Int32>?
    ) throws(FormError) -> BatchResult {
        let cells = try checkShape(columns, recordCount: recordCount)
        for (index, column) in columns.enumerated() {
            try column?.validate(recordCount: recordCount, name: fields[index].id)
        }
        let result = try BatchResult(recordCount: recordCount, fieldCount: fields.count, cells: cells,
                                     ruleMessages: fields.map { $0.rules.map(\.failure) },
                                     ruleFailures: fields.map { $0.rules.map { ($0.code, $0.params) } },
                                     valid: valid, failing: failingRules)
        let context = matchContext  // kept alive for the check
        let checker = BatchChecker(fields: fields, columns: columns, recordCount: recordCount,
                                   matchContext: context.pointer)
        defer {
            checker.release()
            withExtendedLifetime(context) {}
        }
        let wanted = threads <= 0 ? WorkerThreads.processorCount : threads
        // At least 2,048 records a thread: below that, starting a thread costs more than it saves.
        let workers = checker.hasCustomRules ? 1 : max(1, min(wanted, recordCount / 2048))
        let shares = BatchShares(recordCount: recordCount, workers: workers)
        WorkerThreads.run(workers) { worker in
            do throws(FormError) {
                let part = try checker.check(shares.range(worker), into: result)
                shares.slots[worker] = .init(reported: true, invalid: part.invalid, special: part.special, limits: part.limits)
            } catch {
                shares.slots[worker] = .init(reported: true, error: error)
            }
        }
        for outcome in shares.slots {
            guard outcome.reported else { throw .internalError("a batch worker did not report") }
            if let error = outcome.error { throw error }
            result.invalidCount += outcome.invalid
            result.specialMessages.merge(outcome.special) { first, _ in first }
            result.limitExceeded.formUnion(outcome.limits)
        }
        return result
    }

    /// The message `field` shows for `record` of a batch (nil when it passes), judging only that
    /// record: what a caller holding only the failing rule indices asks for a validator's own words.
    /// Only that record's offsets and values are checked.
    public func batchMessage(_ columns: [BatchColumn?], recordCount: Int, record: Int, field: Int) throws(FormError) -> String? {
        _ = try checkShape(columns, recordCount: recordCount)
        guard record >= 0, record < recordCount else {
            throw .invalidArgument("record \(record) is out of range (\(recordCount) records)")
        }
        guard fields.indices.contains(field) else {
            throw Form.outOfRange(field, count: fields.count)
        }
        for (index, column) in columns.enumerated() {
            try column?.validate(record: record, name: fields[index].id)
        }
        let context = matchContext
        let checker = BatchChecker(fields: fields, columns: columns, recordCount: recordCount,
                                   matchContext: context.pointer)
        defer {
            checker.release()
            withExtendedLifetime(context) {}
        }
        return try checker.message(field, record)
    }

    /// Checks the column count and record count; answers recordCount × fieldCount.
    private func checkShape(_ columns: [BatchColumn?], recordCount: Int) throws(FormError) -> Int {
        guard recordCount >= 0 else { throw .invalidArgument("record count \(recordCount) is negative") }
        guard columns.count == fields.count else {
            throw .invalidArgument("\(columns.count) columns for \(fields.count) fields")
        }
        let (cells, overflow) = recordCount.multipliedReportingOverflow(by: fields.count)
        guard !overflow, recordCount < Int(Int32.max), cells < Int.max / 4 else {
            throw .invalidArgument("record count \(recordCount) is too large")
        }
        return cells
    }

    /// `checkBatch` over records given as dictionaries (field id → value): the convenient form for
    /// Swift callers. A field a record does not name holds its initial value ("" unless the form
    /// gives one), as in a submit of a fresh form; keys that are not fields are ignored.
    public func checkMany(_ records: [[String: String]], threads: Int = 1) throws(FormError) -> BatchResult {
        var data: [[UInt8]] = Array(repeating: [], count: fields.count)
        var offsets: [[Int64]] = Array(repeating: [0], count: fields.count)
        for record in records {
            for index in fields.indices {
                let text = record[fields[index].id] ?? fields[index].initialValue
                data[index].append(contentsOf: text.utf8)
                offsets[index].append(Int64(data[index].count))
            }
        }
        return try Form.withColumns(data, offsets) { (columns) throws(FormError) in
            try checkBatch(columns, recordCount: records.count, threads: threads)
        }
    }

    /// Borrows every field's arrays as columns for the duration of `body`.
    private static func withColumns(
        _ data: [[UInt8]], _ offsets: [[Int64]], _ body: ([BatchColumn?]) throws(FormError) -> BatchResult
    ) throws(FormError) -> BatchResult {
        func borrow(_ index: Int, _ columns: [BatchColumn?]) throws(FormError) -> BatchResult {
            guard index < data.count else { return try body(columns) }
            return try data[index].withUnsafeBufferPointer { (bytes) throws(FormError) in
                try offsets[index].withUnsafeBufferPointer { (starts) throws(FormError) in
                    let column = starts.baseAddress.map { BatchColumn(data: bytes, offsets: .int64($0)) }
                    return try borrow(index + 1, columns + [column])
                }
            }
        }
        return try borrow(0, [])
    }
}

extension Form {
    /// The message rule `rule` of the field at `field` shows when it fails (its own message or its
    /// default; a custom validator may word its own instead).
    public func ruleMessage(field: Int, rule: Int) throws(FormError) -> String {
        guard fields.indices.contains(field) else {
            throw Form.outOfRange(field, count: fields.count)
        }
        guard fields[field].rules.indices.contains(rule) else {
            throw .invalidArgument("rule index \(rule) is out of range (field '\(fields[field].id)' has \(fields[field].rules.count) rules)")
        }
        return fields[field].rules[rule].failure
    }

    /// The failure code and parameters (JSON object) of rule `rule` of the field at `field`.
    public func ruleFailure(field: Int, rule: Int) throws(FormError) -> (code: String, params: String) {
        _ = try ruleMessage(field: field, rule: rule)  // the same range checks
        return (fields[field].rules[rule].code, fields[field].rules[rule].params)
    }

    /// How many synchronous rules the field at `field` has (a rule set counts as its rules).
    public func ruleCount(field: Int) throws(FormError) -> Int {
        guard fields.indices.contains(field) else {
            throw Form.outOfRange(field, count: fields.count)
        }
        return fields[field].rules.count
    }
}
