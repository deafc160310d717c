import Testing
@testable import Formwell

/// The batch check: the same verdicts and messages as a submit of each record, whatever the number
/// of threads; the form's own state untouched; malformed columns refused, naming column and record.
@Suite struct BatchTests {
    /// Values chosen so every rule of the registration form fails somewhere, and some pass.
    static let pools: [String: [String]] = [
        "name": ["", "Ada", "  ", "Grace Hopper", "Zoë"],
        "email": ["", "ada@example.com", "not-an-email", "a@b", "ADA@EXAMPLE.ORG", "x y@z.com"],
        "username": ["", "ab", "ada_99", "Ada", "a_very_long_username_indeed", "grace"],
        "password": ["", "short", "longenough", "Longenough1", "Longenough1!", "ÜBERlong9#"],
        "confirm": ["", "short", "Longenough1", "Longenough1!", "ÜBERlong9#"],
    ]

    /// A deterministic spread of records (some keys left out).
    static func records(_ count: Int) -> [[String: String]] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let ids = ["name", "email", "username", "password", "confirm"]
        return (0..<count).map { _ in
            var record: [String: String] = [:]
            for id in ids where next(10) != 0 {
                let pool = pools[id] ?? [""]
                record[id] = pool[next(pool.count)]
            }
            return record
        }
    }

    @Test func agreesWithASubmitOfEveryRecord() throws {
        let form = try SeedForms.registration()
        let records = Self.records(3_000)
        let result = try form.checkMany(records, threads: 1)
        #expect(result.recordCount == 3_000)
        var invalid = 0
        for (index, record) in records.enumerated() {
            var submitted = form
            let valid = try submitted.submit(record)
            #expect(result.isValid(record: index) == valid, "record \(index): \(record)")
            if !valid { invalid += 1 }
            for (field, id) in form.fieldIDs.enumerated() {
                let state = try submitted.state(of: id)
                let expected: String? = if case .error(let message) = state.display { message } else { nil }
                #expect(result.message(record: index, field: field) == expected, "record \(index) field \(id)")
            }
        }
        #expect(result.invalidCount == invalid)
        #expect(invalid > 100 && invalid < 3_000)
    }

    @Test func twoThreadsGiveTheSameCellsAsOne() throws {
        var form = Form()
        try form.addField("email", rules: [.required(), .email()])
        try form.addField("username", rules: [.minLength(3), .regex("^[a-z0-9_]+$")])
        try form.addField("again", rules: [.matches("username")])
        let records = Self.records(20_000).map { record in
            ["email": record["email"] ?? "", "username": record["username"] ?? "",
             "again": record["confirm"] ?? record["username"] ?? ""]
        }
        let one = try form.checkMany(records, threads: 1)
        let two = try form.checkMany(records, threads: 2)
        let all = try form.checkMany(records, threads: 0)
        #expect(Array(one.validFlags) == Array(two.validFlags))
        #expect(Array(one.failingRules) == Array(two.failingRules))
        #expect(Array(one.failingRules) == Array(all.failingRules))
        #expect(one.invalidCount == two.invalidCount)
    }

    @Test func leavesTheFormAsItWas() throws {
        var form = try SeedForms.login()
        try form.focus("email")
        try form.setValue("ada@", for: "email")
        let before = (form.values, form.states, form.focusedFieldID)
        let result = try form.checkMany([["email": "ada@example.com", "password": "longenough"]])
        #expect(result.isValid(record: 0))
        #expect(form.values == before.0)
        #expect(form.states == before.1)
        #expect(form.focusedFieldID == before.2)
    }

    @Test func aMissingFieldHoldsItsInitialValue() throws {
        let form = try SeedForms.profile(website: "not a url")
        let result = try form.checkMany([[:], ["website": "https://ada.dev"]])
        let website = try form.fieldIndex(of: "website")
        #expect(result.message(record: 0, field: website) == SeedForms.badURL)
        #expect(result.message(record: 1, field: website) == nil)
    }

    @Test func failingRuleIndicesAndRequiredOnEmpty() throws {
        let form = try SeedForms.registration()
        let result = try form.checkMany([["username": "Ada"], ["username": ""], ["username": "ab"]])
        let username = try form.fieldIndex(of: "username")
        #expect(result.failingRule(record: 0, field: username) == 3)  // the regex
        #expect(result.failingRule(record: 1, field: username) == 0)  // required
        #expect(result.failingRule(record: 2, field: username) == 1)  // min_length
        #expect(result.failingRule(record: 2, field: 99) == nil)
        #expect(result.message(record: 3, field: 0) == nil)
        #expect(result.errors(record: 0).map(\.field) == [0, 1, 2, 3, 4])  // missing name, email, password and confirm fail required
    }

    @Test func customValidatorsOwnWordsAndFailures() throws {
        var form = Form()
        try form.addField("code", rules: [.custom { $0.hasPrefix("+") ? .valid : .invalid("Own words for \($0)") }])
        let result = try form.checkMany([["code": "+1"], ["code": "1"]])
        #expect(result.message(record: 1, field: 0) == "Own words for 1")
        #expect(result.message(record: 0, field: 0) == nil)
        struct Broken: Error {}
        var failing = Form()
        try failing.addField("code", rules: [.custom { value in if value == "boom" { throw Broken() }; return .valid }])
        #expect(throws: FormError.self) { _ = try failing.checkMany([["code": "fine"], ["code": "boom"]]) }
    }

    @Test func aPatternOverItsLimitsSaysSo() throws {
        var form = Form()
        try form.addField("text", rules: [.regex("^(a+)+$")])
        try form.setMatchLimits(MatchLimits(matchLimit: 1_000, depthLimit: 1_000, heapLimitKiB: 1_000))
        let result = try form.checkMany([["text": String(repeating: "a", count: 40) + "b"], ["text": "aaa"]])
        #expect(result.limitExceeded(record: 0, field: 0))
        #expect(result.message(record: 0, field: 0) == MessageCatalogs.english.patternLimitMessage)
        #expect(!result.limitExceeded(record: 1, field: 0))
    }

    // MARK: Columns as the C ABI and Python pass them

    private func check(_ form: Form, data: [UInt8], offsets: [Int32], validity: [UInt8]? = nil,
                       records: Int) throws(FormError) -> BatchResult {
        var result: Result<BatchResult, FormError> = .failure(.internalError("not run"))
        data.withUnsafeBufferPointer { bytes in
            offsets.withUnsafeBufferPointer { starts in
                func run(_ bitmap: UnsafePointer<UInt8>?) {
                    let column = BatchColumn(data: bytes, offsets: starts.baseAddress.map { .int32($0) }, validity: bitmap)
                    result = Result { () throws(FormError) in try form.checkBatch([column], recordCount: records) }
                }
                if let validity { validity.withUnsafeBufferPointer { run($0.baseAddress) } } else { run(nil) }
            }
        }
        return try result.get()
    }

    @Test func nullsReadAsEmptyAndSlicedOffsetsWork() throws {
        var form = Form()
        try form.addField("email", rules: [.required(), .email()])
        // Offsets start at 3 (an Arrow slice); record 1 is null although its bytes are an address.
        let data = Array("xxxa@b.coa@b.cobad".utf8)
        let result = try check(form, data: data, offsets: [3, 9, 15, 18], validity: [0b101], records: 3)
        #expect(result.isValid(record: 0))
        #expect(result.message(record: 1, field: 0) == MessageCatalogs.english.requiredMessage)
        #expect(result.message(record: 2, field: 0) == "Invalid email format")
    }

    @Test(arguments: [
        ([0, 5, 3], "column 'v', record 1: offsets decrease (5 then 3)"),
        ([0, 2, 9], "column 'v', record 1: offset 9 is past the end of the data (7 bytes)"),
        ([-1, 2, 3], "column 'v', record 0: offset -1 is outside the data (7 bytes)"),
        ([0, 3, 4], "column 'v', record 0: invalid UTF-8 at byte 3 of the value"),  // splits "é"
    ] as [([Int32], String)])
    func malformedColumnsAreRefusedByName(offsets: [Int32], message: String) throws {
        var form = Form()
        try form.addField("v")
        let data = Array("ab\u{E9}cd".utf8) + [0x61]  // a b é(2 bytes) c d a
        #expect(throws: FormError.invalidArgument(message)) {
            _ = try check(form, data: data, offsets: offsets, records: 2)
        }
    }

    @Test func invalidBytesInAValueAreRefused() throws {
        var form = Form()
        try form.addField("v")
        #expect(throws: FormError.invalidArgument("column 'v', record 1: invalid UTF-8 at byte 2 of the value")) {
            _ = try check(form, data: [0x61, 0x62, 0xFF], offsets: [0, 1, 3], records: 2)
        }
        #expect(throws: FormError.invalidArgument("column 'v': no offsets for 1 records")) {
            _ = try form.checkBatch([BatchColumn(data: UnsafeBufferPointer(start: nil, count: 0), offsets: nil)],
                                    recordCount: 1)
        }
        #expect(throws: FormError.invalidArgument("2 columns for 1 fields")) {
            _ = try form.checkBatch([nil, nil], recordCount: 1)
        }
        let empty = try form.checkBatch([nil], recordCount: 0)
        #expect(empty.recordCount == 0 && empty.invalidCount == 0)
    }
}
