import CPCRE2
import Synchronization

/// A PCRE2 pattern compiled once (UTF mode, anchored at both ends so it must match the whole value),
/// JIT-compiled where the platform allows. Compiled code is immutable, so one instance is shared by
/// every rule and thread that uses the same source (see `PatternCache`).
public final class Pattern: @unchecked Sendable {
    /// What one whole-value match found.
    public enum Outcome: Equatable, Sendable {
        case match
        case noMatch
        /// A match limit stopped PCRE2 before it could decide.
        case limitExceeded
        /// Any other PCRE2 failure (should not happen for a valid UTF-8 subject).
        case failed(String)
    }

    public let source: String
    public let isJITCompiled: Bool
    /// The compiled code; valid as long as this instance lives.
    let code: OpaquePointer
    /// The same pattern compiled with `PCRE2_AUTO_CALLOUT`, for phase 2 of a match (`TimeBound`):
    /// compiled on first need, under the lock, freed with the pattern.
    private let timed = Mutex<TimedCode>(TimedCode())

    private struct TimedCode: @unchecked Sendable {
        var tried = false
        var code: OpaquePointer?
        var jit = false
    }

    static let compileOptions = UInt32(PCRE2_UTF) | UInt32(PCRE2_ANCHORED) | UInt32(PCRE2_ENDANCHORED)

    init(compiling source: String) throws(PatternError) {
        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        guard let compiled = Pattern.compile(source, options: Pattern.compileOptions,
                                             errorCode: &errorCode, errorOffset: &errorOffset) else {
            // PCRE2 can report one past the end for an unterminated start-of-pattern item such as
            // "(*LIMIT_MATCH=1" (found by fuzzing): keep the offset inside the pattern.
            throw PatternError(message: Pattern.errorMessage(errorCode), offset: min(errorOffset, source.utf8.count))
        }
        self.source = source
        self.code = compiled
        self.isJITCompiled = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0
    }

    deinit {
        pcre2_code_free_8(code)
        timed.withLock { timed in
            if let code = timed.code { pcre2_code_free_8(code) }
        }
    }

    private static func compile(
        _ source: String, options: UInt32, errorCode: inout Int32, errorOffset: inout Int
    ) -> OpaquePointer? {
        var utf8 = source
        return utf8.withUTF8 { bytes in
            pcre2_compile_8(bytes.baseAddress, bytes.count, options, &errorCode, &errorOffset,
                            CompileContext.shared.pointer)
        }
    }

    /// The auto-callout code and whether it is JIT-compiled; nil when PCRE2 could not compile it
    /// (e.g. the callouts make the compiled pattern too large), in which case a match that needs
    /// phase 2 is `limitExceeded`.
    func timedCode() -> (code: OpaquePointer, jit: Bool)? {
        timed.withLock { timed in
            if !timed.tried {
                timed.tried = true
                var errorCode: Int32 = 0
                var errorOffset = 0
                if let compiled = Pattern.compile(source, options: Pattern.compileOptions | UInt32(PCRE2_AUTO_CALLOUT),
                                                  errorCode: &errorCode, errorOffset: &errorOffset) {
                    timed.code = compiled
                    timed.jit = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0
                }
            }
            return timed.code.map { ($0, timed.jit) }
        }
    }

    /// Whether the whole value matches, under `limits` and the time bound (`TimeBound`).
    public func matchWhole(_ value: String, limits: MatchLimits = .default) -> Outcome {
        let context = MatchContext.shared(for: limits)
        var value = value
        return withExtendedLifetime(context) {
            value.withUTF8 {
                Pattern.matchWhole($0, code: code, jit: isJITCompiled, pattern: Unmanaged.passUnretained(self),
                                   context: context.pointer)
            }
        }
    }

    /// Matches the whole of `value` (valid UTF-8) against compiled `code` (`pattern`'s) under the
    /// limits of `context` (a `MatchContext.pointer`) and the time bound: phase 1 is the plain match
    /// under a step limit shortened for the value's length; only when that limit stops it does phase 2
    /// run (`TimeBound`). Takes plain pointers so the keystroke path retains nothing; the caller keeps
    /// the pattern and the context alive.
    @inline(__always)
    static func matchWhole(
        _ value: UnsafeBufferPointer<UInt8>, code: OpaquePointer, jit: Bool, pattern: Unmanaged<Pattern>,
        context: OpaquePointer?
    ) -> Outcome {
        guard let matchData = MatchData.forCurrentThread() else {
            return .failed("out of memory for match data")
        }
        let limits = MatchContext.from(context)
        let length = value.count
        let (phaseOne, shortened) = limits._withUnsafeGuaranteedRef { $0.phaseOne(length: length) }
        // From `TimeBound.directFrom` phase 1 would allow a handful of steps, each of which may scan
        // the whole value: straight to phase 2.
        guard !shortened || length < TimeBound.timedFrom else {
            return timedMatch(value, code: code, jit: jit, pattern: pattern, limits: limits, matchData: matchData,
                              phaseOne: phaseOne)
        }
        let result = run(value, code: code, jit: jit, matchData: matchData, context: phaseOne)
        guard result == PCRE2_ERROR_MATCHLIMIT, shortened else { return outcome(result) }
        return phaseTwo(value, pattern: pattern, limits: limits, matchData: matchData, start: 0)
    }

    /// A value of `TimeBound.timedFrom` bytes or more with a shortened phase 1: the clock starts
    /// before phase 1, which is skipped from `TimeBound.directFrom`. Out of line, so the keystroke
    /// path stays small.
    @inline(never)
    private static func timedMatch(
        _ value: UnsafeBufferPointer<UInt8>, code: OpaquePointer, jit: Bool, pattern: Unmanaged<Pattern>,
        limits: Unmanaged<MatchContext>, matchData: OpaquePointer, phaseOne: OpaquePointer?
    ) -> Outcome {
        let start = TimeBound.now()
        if value.count < TimeBound.directFrom {
            let result = run(value, code: code, jit: jit, matchData: matchData, context: phaseOne)
            guard result == PCRE2_ERROR_MATCHLIMIT else { return outcome(result) }
        }
        return phaseTwo(value, pattern: pattern, limits: limits, matchData: matchData, start: start)
    }

    /// Phase 2: the auto-callout code under the user's limits and the deadline (`TimeBound`), which
    /// counts from `start`, or (0) from now less the time phase 1 may have taken.
    @inline(never)
    private static func phaseTwo(
        _ value: UnsafeBufferPointer<UInt8>, pattern: Unmanaged<Pattern>, limits: Unmanaged<MatchContext>,
        matchData: OpaquePointer, start: UInt64
    ) -> Outcome {
        let length = value.count
        let user = limits._withUnsafeGuaranteedRef { $0.limits }
        let limit = UInt64(user.timeLimitMicroseconds) &* 1_000
        let budget = TimeBound.budget(length: length, limit: limit)
        // What phase 1 may have taken, in the same proportion to the limit as by default.
        let allowance = UInt64(Double(TimeBound.phaseOneAllowance) * Double(limit) / Double(TimeBound.deadlineNanoseconds))
        let deadline = start != 0 ? start &+ budget
            : TimeBound.now() &+ (budget > allowance ? budget &- allowance : 0)
        guard let timedContext = TimedMatchContext.forCurrentThread(),
              let timed = pattern._withUnsafeGuaranteedRef({ $0.timedCode() }) else {
            return .limitExceeded
        }
        pcre2_set_match_limit_8(timedContext, user.matchLimit)
        pcre2_set_depth_limit_8(timedContext, user.depthLimit)
        pcre2_set_heap_limit_8(timedContext, user.heapLimitKiB)
        let interval = TimeBound.callsBetweenClockReads(length: length)
        var clock = TimeBound.Clock(deadline: deadline, countdown: 1, interval: interval)
        let timedResult = withUnsafeMutablePointer(to: &clock) { clock in
            pcre2_set_callout_8(timedContext, TimeBound.callout, UnsafeMutableRawPointer(clock))
            defer { pcre2_set_callout_8(timedContext, nil, nil) }
            return run(value, code: timed.code, jit: timed.jit, matchData: matchData, context: timedContext)
        }
        if timedResult == PCRE2_ERROR_CALLOUT && clock.expired { return .limitExceeded }
        return outcome(timedResult)
    }

    @inline(__always)
    private static func run(
        _ value: UnsafeBufferPointer<UInt8>, code: OpaquePointer, jit: Bool, matchData: OpaquePointer,
        context: OpaquePointer?
    ) -> Int32 {
        // The bytes are valid UTF-8, so PCRE2's own UTF check would only repeat work; the JIT
        // entry point skips the interpreter's argument checks (and honours the match limit).
        jit ? pcre2_jit_match_8(code, value.baseAddress, value.count, 0, 0, matchData, context)
            : pcre2_match_8(code, value.baseAddress, value.count, 0, UInt32(PCRE2_NO_UTF_CHECK), matchData, context)
    }

    @inline(__always)
    private static func outcome(_ result: Int32) -> Outcome {
        switch result {
        case _ where result >= 0: return .match
        case PCRE2_ERROR_NOMATCH: return .noMatch
        // A recursion loop (`((?1)x)` on some values) is the pattern's, met only on some inputs: like
        // a limit, the value cannot be decided, so it is refused as too complex, never an internal error.
        case PCRE2_ERROR_MATCHLIMIT, PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_HEAPLIMIT,
             PCRE2_ERROR_JIT_STACKLIMIT, PCRE2_ERROR_RECURSELOOP:
            return .limitExceeded
        default: return .failed(Pattern.errorMessage(result))
        }
    }

    /// PCRE2's text for an error code.
    static func errorMessage(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBufferPointer { out in
            pcre2_get_error_message_8(code, out.baseAddress, out.count)
        }
        guard length > 0 else { return "PCRE2 error \(code)" }
        return String(decoding: buffer.prefix(Int(length)), as: UTF8.self)
    }
}
