import CPCRE2

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
        // JIT compiles and frees take PCRE2's executable-memory lock: a fork must not split them.
        self.isJITCompiled = ForkHandlers.outsideFork { pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0 }
    }

    deinit {
        let code = code
        ForkHandlers.outsideFork { pcre2_code_free_8(code) }
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

    /// Whether the whole value matches, under `limits` and the work bound (`WorkBound`).
    public func matchWhole(_ value: String, limits: MatchLimits = .default) -> Outcome {
        let context = MatchContext.shared(for: limits)
        var value = value
        return withExtendedLifetime(context) {
            value.withUTF8 {
                Pattern.matchWhole($0, code: code, jit: isJITCompiled, context: context.pointer)
            }
        }
    }

    /// Matches the whole of `value` (valid UTF-8) against compiled `code` under the limits of
    /// `context` (a `MatchContext.pointer`): one match under the step limit `WorkBound` gives the
    /// value's length, or none when the length alone exceeds the work budget. Takes plain pointers
    /// so the keystroke path retains nothing; the caller keeps the pattern and the context alive.
    @inline(__always)
    static func matchWhole(
        _ value: UnsafeBufferPointer<UInt8>, code: OpaquePointer, jit: Bool, context: OpaquePointer?
    ) -> Outcome {
        guard let matchData = MatchData.forCurrentThread() else {
            return .failed("out of memory for match data")
        }
        let limits = MatchContext.from(context)
        let (matchContext, steps) = limits._withUnsafeGuaranteedRef { $0.entry(length: value.count) }
        guard let matchContext else {
            return steps == 0 ? .limitExceeded : .failed("out of memory for match context")
        }
        let result = run(value, code: code, jit: jit, matchData: matchData, context: matchContext)
        guard result == PCRE2_ERROR_JIT_STACKLIMIT, jit else { return outcome(result) }
        return deepStackMatch(value, code: code, matchData: matchData, steps: steps, limits: limits)
    }

    /// The same match again on this thread's larger JIT stack (`DeepStackContext`), under the same
    /// limits, when PCRE2's default 32 KiB stack ran out: the verdict still depends only on the
    /// pattern, the value and the limits. Out of line, so the keystroke path stays small.
    @inline(never)
    private static func deepStackMatch(
        _ value: UnsafeBufferPointer<UInt8>, code: OpaquePointer, matchData: OpaquePointer, steps: UInt32,
        limits: Unmanaged<MatchContext>
    ) -> Outcome {
        guard let deep = DeepStackContext.forCurrentThread() else { return .limitExceeded }
        let user = limits._withUnsafeGuaranteedRef { $0.limits }
        pcre2_set_match_limit_8(deep, steps)
        pcre2_set_depth_limit_8(deep, user.depthLimit)
        pcre2_set_heap_limit_8(deep, user.heapLimitKiB)
        return outcome(run(value, code: code, jit: true, matchData: matchData, context: deep))
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
