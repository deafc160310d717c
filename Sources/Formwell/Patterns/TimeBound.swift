import CPCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The time bound on every whole-value match (issue 14, part 1): with the default settings a match
/// of a value up to 1 MiB returns within about `deadlineNanoseconds` (5 ms) whatever the pattern;
/// longer values get a budget that grows linearly with their length, 5 ns per byte (see `budget(length:)`). A match cut short by it is
/// `Pattern.Outcome.limitExceeded`, never a match.
///
/// PCRE2's limits bound steps, not time, and one step can cost time proportional to the value's
/// length (a backreference compares up to n bytes; `.*v=` rescans the rest of the value): measured
/// here with JIT code over the ReDoS corpus (`Tests/Corpora/redos_patterns.json`), a step costs
/// up to about 20–60 ns plus 0.6 ns per byte of the value. So a match runs in two phases:
///
/// 1. The ordinary JIT match, under a step limit derived from the length, small enough that even
///    O(n)-per-step patterns stay within about 2 ms: `min(user's limit, max(1, 2,000,000 / (32 + n)))`
///    steps, n rounded up to the next power of two (`MatchContext` keeps one context per power).
///    Every ordinary match finishes here at full speed: a 48-byte e-mail is allowed 20,833 steps and
///    takes a handful (PCRE2's JIT counts a step per backtrack into a group, not per character). Nothing else is added to the hot path (no clock read, no callout).
/// 2. Only when phase 1 hits its shortened limit (or at once, for values of 256 KiB and more): the same pattern compiled a second time with
///    `PCRE2_AUTO_CALLOUT` (lazily, once per `Pattern`), matched under the user's full limits with a
///    callout that reads `CLOCK_MONOTONIC` every few callouts and abandons the match once the
///    deadline has passed. The state the callout reads and writes is a struct on the caller's stack,
///    passed through the callout-data pointer of a per-thread match context, so threads never share
///    it.
///
/// Wall time, not thread CPU time: the promise is to the caller (a UI thread waiting for a
/// keystroke's verdict), and `CLOCK_MONOTONIC` is read through the vDSO (about 20 ns) where
/// `CLOCK_THREAD_CPUTIME_ID` is a system call. The price: on a loaded machine a value near the
/// budget can be judged "too complex" in one call and decided in the next; it is never called valid
/// without a match.
enum TimeBound {
    /// Step·byte budget of phase 1 and the per-step overhead in bytes (see the type's comment).
    static let phaseOneBudget: UInt64 = 2_000_000
    static let stepOverheadBytes: UInt64 = 32
    /// The least step limit phase 1 is given, however long the value.
    static let phaseOneFloor: UInt32 = 1

    /// The match's budget: `deadlineNanoseconds` (5 ms) less `perByteReserve` (2.5 ns) per byte up
    /// to `linearFrom` (1 MiB), leaving room for what scales with the length outside the deadline's
    /// reach (the caller's copy and UTF-8 check of the value, and the last item before a clock read,
    /// which can scan the whole value): 5 ms for a short value, 3 ms at 800 KB, 2.4 ms at 1 MiB.
    /// Beyond 1 MiB it grows by `perByteBeyond` (5 ns) per byte (49 ms at 10 MiB).
    static let deadlineNanoseconds: UInt64 = 5_000_000
    static let perByteReserve = 2.5
    static let perByteBeyond = 5.0
    static let linearFrom = 1 << 20
    /// What phase 1 may take when its start was not timed (values under `timedFrom` bytes): phase 2
    /// then gets the budget minus this.
    static let phaseOneAllowance: UInt64 = 2_000_000
    static let timedFrom = 1_024
    /// From this length (256 KiB: phase 1 would allow at most 7 steps) a match starts with phase 2:
    /// a failed phase 1 would only have spent its time (a 960 KB e-mail address takes 1.7 ms to scan).
    static let directFrom = 256 << 10
    /// About how long may pass between two clock reads in phase 2.
    static let clockInterval: UInt64 = 250_000

    /// Phase 1's step limit for values shorter than 2^width bytes.
    static func phaseOneStepLimit(forLengthBelow width: Int) -> UInt32 {
        guard width < 40 else { return phaseOneFloor }
        let length = UInt64(1) << UInt64(width)
        let steps = phaseOneBudget / (stepOverheadBytes + length)
        return UInt32(clamping: max(UInt64(phaseOneFloor), steps))
    }

    /// The match's budget for a value of `length` bytes, in nanoseconds, under a time limit of
    /// `limit` nanoseconds (`deadlineNanoseconds` by default: `MatchLimits.timeLimitMicroseconds`).
    static func budget(length: Int, limit: UInt64 = deadlineNanoseconds) -> UInt64 {
        // The reserve scales with the limit, so a larger limit (a slow or instrumented host) keeps
        // the same proportions.
        let reserve = perByteReserve * Double(limit) / Double(deadlineNanoseconds)
        let atLinear = max(Double(limit) - reserve * Double(linearFrom), Double(limit) / 4)
        // Beyond 1 MiB: `perByteBeyond` more per byte, scaled with the limit. Phase 2 scans about
        // 1.9 ns per byte of a simple pattern (its callouts cost ~2.7x raw JIT), so this leaves the
        // margin a loaded machine needs (2.3 ns per byte, the slope below 1 MiB, left almost none:
        // 10 MB of ^[a-z]+$ took 19 ms of a 24 ms budget).
        let budget = length <= linearFrom
            ? max(Double(limit) - reserve * Double(max(0, length)), Double(limit) / 4)
            : atLinear + perByteBeyond * Double(limit) / Double(deadlineNanoseconds) * Double(length - linearFrom)
        return budget < 1e18 ? UInt64(max(0, budget)) : 1_000_000_000_000_000_000
    }

    /// Callouts between two clock reads for a value of `length` bytes: an item between two callouts
    /// can scan the whole value, so the longer the value, the more often the clock is read (every
    /// callout from about 250 KB).
    static func callsBetweenClockReads(length: Int) -> Int {
        let perCallout = stepOverheadBytes &+ UInt64(max(0, length))  // ~1 ns per byte, generously
        return Int(max(1, min(4_096, clockInterval / perCallout)))
    }

    /// Nanoseconds on `CLOCK_MONOTONIC`.
    @inline(__always)
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
    }

    /// One phase-2 match's clock, on the caller's stack; the callout reaches it through its data
    /// pointer.
    struct Clock {
        var deadline: UInt64
        var countdown: Int
        let interval: Int
        var expired = false
    }

    /// The phase-2 callout: every `interval` calls, abandon the match (`PCRE2_ERROR_CALLOUT`) if the
    /// deadline has passed. Explicit callouts in the pattern land here too and change nothing.
    static let callout: @convention(c) (UnsafeMutablePointer<pcre2_callout_block_8>?, UnsafeMutableRawPointer?) -> Int32 = { _, data in
        guard let clock = data?.assumingMemoryBound(to: Clock.self) else { return 0 }
        clock.pointee.countdown &-= 1
        guard clock.pointee.countdown <= 0 else { return 0 }
        clock.pointee.countdown = clock.pointee.interval
        guard TimeBound.now() >= clock.pointee.deadline else { return 0 }
        clock.pointee.expired = true
        return PCRE2_ERROR_CALLOUT
    }
}
