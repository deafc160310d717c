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

    init(compiling source: String) throws(PatternError) {
        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        let options = UInt32(PCRE2_UTF) | UInt32(PCRE2_ANCHORED) | UInt32(PCRE2_ENDANCHORED)
        var utf8 = source
        let compiled: OpaquePointer? = utf8.withUTF8 { bytes in
            pcre2_compile_8(bytes.baseAddress, bytes.count, options, &errorCode, &errorOffset,
                            CompileContext.shared.pointer)
        }
        guard let compiled else {
            // PCRE2 can report one past the end for an unterminated start-of-pattern item such as
            // "(*LIMIT_MATCH=1" (found by fuzzing): keep the offset inside the pattern.
            throw PatternError(message: Pattern.errorMessage(errorCode), offset: min(errorOffset, source.utf8.count))
        }
        self.source = source
        self.code = compiled
        self.isJITCompiled = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0
    }

    deinit { pcre2_code_free_8(code) }

    /// Whether the whole value matches, under `limits`.
    public func matchWhole(_ value: String, limits: MatchLimits = .default) -> Outcome {
        let context = limits == .default ? MatchContext.default : MatchContext(limits)
        var value = value
        return value.withUTF8 { Pattern.matchWhole($0, code: code, jit: isJITCompiled, context: context.pointer) }
    }

    /// Matches the whole of `value` (valid UTF-8) against compiled `code` under the limits of
    /// `context`. Takes plain pointers so the keystroke path retains nothing; the caller keeps the
    /// pattern alive.
    static func matchWhole(
        _ value: UnsafeBufferPointer<UInt8>, code: OpaquePointer, jit: Bool, context: OpaquePointer?
    ) -> Outcome {
        guard let matchData = MatchData.forCurrentThread() else {
            return .failed("out of memory for match data")
        }
        // The bytes are valid UTF-8, so PCRE2's own UTF check would only repeat work; the JIT
        // entry point skips the interpreter's argument checks (and honours the match limit).
        let result = jit
            ? pcre2_jit_match_8(code, value.baseAddress, value.count, 0, 0, matchData, context)
            : pcre2_match_8(code, value.baseAddress, value.count, 0, UInt32(PCRE2_NO_UTF_CHECK), matchData, context)
        switch result {
        case _ where result >= 0: return .match
        case PCRE2_ERROR_NOMATCH: return .noMatch
        case PCRE2_ERROR_MATCHLIMIT, PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_HEAPLIMIT,
             PCRE2_ERROR_JIT_STACKLIMIT:
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
