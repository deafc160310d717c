import Foundation
import Synchronization
import Testing
@testable import Formwell

/// The work bound (`WorkBound`): a verdict depends on the pattern, the value and the limits only,
/// never on the machine's load, the thread count or timing.
@Suite(.serialized) struct WorkBoundTests {
    final class Stop: Sendable {
        let flag = Atomic<Bool>(false)
    }

    /// `count` threads burning CPU until the returned function is called.
    static func burnCPU(threads count: Int) -> () -> Void {
        let stop = Stop()
        let done = DispatchGroup()
        for _ in 0..<count {
            done.enter()
            Thread.detachNewThread {
                var x: UInt64 = 1
                while !stop.flag.load(ordering: .relaxed) {
                    for _ in 0..<10_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 }
                }
                if x == 0 { print(x) }
                done.leave()
            }
        }
        return {
            stop.flag.store(true, ordering: .relaxed)
            done.wait()
        }
    }

    /// 40 valid 1,000,000-byte values, then ReDoS-ish ones around the bound.
    static func records() -> [[String: String]] {
        let letters = String(repeating: "abcdefghij", count: 100_000)
        var records = (0..<40).map { _ in ["word": letters, "csv": "x"] }
        for count in [10, 16, 20, 28, 40, 1_000, 100_000] {
            records.append(["word": String(repeating: "a", count: count) + "1",
                            "csv": "\"" + String(repeating: "!", count: count) + "◎@! _1_NQ"])
        }
        return records
    }

    static func verdicts(_ form: Form, _ records: [[String: String]], threads: Int) throws -> [String] {
        let result = try form.checkMany(records, threads: threads)
        return records.indices.map { record in
            (0..<2).map { field in
                "\(result.isValid(record: record)) \(result.limitExceeded(record: record, field: field)) "
                    + (result.message(record: record, field: field) ?? "-")
            }.joined(separator: " | ")
        }
    }

    @Test("a batch with long and ReDoS-ish values gets the same verdicts idle and with 3 threads burning CPU")
    func sameVerdictsUnderLoad() throws {
        var form = Form()
        try form.addField("word", rules: [.regex("[a-z]+")])
        try form.addField("csv", rules: [.regex(##"(\"([^\"]+|\"\")*\"|([^,]*))"##)])
        let records = Self.records()
        let idle = try Self.verdicts(form, records, threads: 1)
        let stop = Self.burnCPU(threads: 3)
        let loaded = try Self.verdicts(form, records, threads: 2)
        stop()
        #expect(idle == loaded)
        let result = try form.checkMany(Array(records.prefix(40)), threads: 2)
        #expect((0..<40).allSatisfy { result.isValid(record: $0) }, "all 40 values of 1,000,000 letters are valid")
    }

    @Test("values PCRE2 decides under the default step limit are decided, not too complex", arguments: [
        (##"(\"([^\"]+|\"\")*\"|([^,]*))"##, "\"" + String(repeating: "!", count: 6) + "◎@! _1_NQ", 18),
        (##"Last.*?(\d+.?\d*)"##, "Last" + String(repeating: "1", count: 512) + "! _1SLQ_2", 525),
    ])
    func decidedValidValues(pattern: String, value: String, length: Int) throws {
        #expect(value.utf8.count == length)
        var form = Form()
        try form.addField("f", rules: [.regex(pattern)])
        try form.setValue(value, for: "f")
        let state = try form.state(of: "f")
        #expect(!state.limitExceeded)
        #expect(state.validity == .valid)
    }

    @Test("long [a-z]+ values of 1 MB and 10 MB are valid")
    func longLetters() throws {
        let pattern = try PatternCache.shared.pattern(for: "[a-z]+")
        #expect(pattern.matchWhole(String(repeating: "abcdefghij", count: 100_000)) == .match)
        #expect(pattern.matchWhole(String(repeating: "abcdefghij", count: 1_000_000)) == .match)
        #expect(pattern.matchWhole(String(repeating: "abcdefghij", count: 1_000_000) + "1") == .noMatch)
    }

    @Test("(a+)+$ on a…ab is too complex, and quickly")
    func pathological() throws {
        var form = Form()
        try form.addField("f", rules: [.regex("(a+)+$")])
        let start = DispatchTime.now().uptimeNanoseconds
        try form.setValue(String(repeating: "a", count: 40) + "b", for: "f")
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        let state = try form.state(of: "f")
        #expect(state.limitExceeded)
        #expect(state.validity == .invalid("This value is too complex to check"))
        // 1,000,000 steps of this pattern take a few milliseconds; a generous bound for a debug
        // build on a shared machine.
        #expect(elapsed < 200_000_000, "\(Double(elapsed) / 1e6) ms")
    }

    @Test("the step limit falls with the length, never below the floor while the fixed cost fits")
    func stepLimits() {
        let user = MatchLimits.default.matchLimit
        var previous = UInt32.max
        for width in 0...64 {
            let steps = WorkBound.stepLimit(width: width, microseconds: 5_000, userSteps: user)
            #expect(steps <= previous, "width \(width)")
            #expect(steps <= user)
            if width <= 40 { #expect(steps >= UInt32(WorkBound.stepFloor), "width \(width)") }
            previous = steps
        }
        #expect(WorkBound.stepLimit(width: 10, microseconds: 5_000, userSteps: user) > 900_000)
        #expect(WorkBound.stepLimit(width: 5, microseconds: 5_000, userSteps: 500) == 500)
        // A lowered budget: 1,000 µs refuses values from 512 KiB unmatched, 1 µs any over 256 bytes.
        #expect(WorkBound.stepLimit(width: 20, microseconds: 1_000, userSteps: user) == 0)
        #expect(WorkBound.stepLimit(width: 18, microseconds: 1_000, userSteps: user) > 0)
        #expect(WorkBound.stepLimit(width: 10, microseconds: 1, userSteps: user) == 0)
        #expect(WorkBound.stepLimit(width: 64, microseconds: UInt32.max, userSteps: user) == 0)
    }

    @Test("a lowered budget refuses a 1 MB value unmatched and quickly; the default decides it")
    func loweredBudget() throws {
        let pattern = try PatternCache.shared.pattern(for: "[a-z]+")
        let value = String(repeating: "abcdefghij", count: 100_000)
        var low = MatchLimits.default
        low.timeLimitMicroseconds = 1_000
        let start = DispatchTime.now().uptimeNanoseconds
        #expect(pattern.matchWhole(value, limits: low) == .limitExceeded)
        #expect(DispatchTime.now().uptimeNanoseconds - start < 50_000_000)
        #expect(pattern.matchWhole(value) == .match)
    }
}
