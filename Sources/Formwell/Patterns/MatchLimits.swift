import CPCRE2

/// Bounds on one PCRE2 match, so a catastrophic pattern gives up instead of hanging the host.
/// PCRE2's own defaults (10,000,000 steps, 20 MB of heap) allow seconds per value; a form field
/// needs microseconds, so these are tighter.
public enum MatchLimits {
    /// Backtracking steps per match (`pcre2_set_match_limit`; also honoured by JIT code).
    public static let matchLimit: UInt32 = 1_000_000
    /// Nested backtracking depth (`pcre2_set_depth_limit`, interpreter only).
    public static let depthLimit: UInt32 = 100_000
    /// Heap for backtracking, in KiB (`pcre2_set_heap_limit`, interpreter only).
    public static let heapLimitKiB: UInt32 = 16_384
    /// Longest pattern accepted, in bytes (`pcre2_set_max_pattern_length`).
    public static let maxPatternLength = 32_768
}

/// PCRE2 contexts shared by every compile and match. They are only read after creation,
/// which PCRE2 documents as safe across threads.
struct PCRE2Contexts: @unchecked Sendable {
    let compile: OpaquePointer?
    let match: OpaquePointer?

    static let shared = PCRE2Contexts()

    private init() {
        compile = pcre2_compile_context_create_8(nil)
        if let compile {
            pcre2_set_max_pattern_length_8(compile, MatchLimits.maxPatternLength)
        }
        match = pcre2_match_context_create_8(nil)
        if let match {
            pcre2_set_match_limit_8(match, MatchLimits.matchLimit)
            pcre2_set_depth_limit_8(match, MatchLimits.depthLimit)
            pcre2_set_heap_limit_8(match, MatchLimits.heapLimitKiB)
        }
    }
}
