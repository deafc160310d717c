import CPCRE2

/// Bounds on one PCRE2 match, so a catastrophic pattern gives up instead of hanging the host.
/// PCRE2's own defaults (10,000,000 steps, 20 MB of heap) allow seconds per value; a form field needs
/// microseconds. With these defaults `(a+)+$` against 30 `a`s and a `!` stops in about a millisecond,
/// while seed 03's patterns over a 10 MB value still finish.
public struct MatchLimits: Equatable, Hashable, Sendable {
    /// Backtracking steps per match (`pcre2_set_match_limit`; JIT code honours it too).
    public var matchLimit: UInt32
    /// Nested backtracking depth (`pcre2_set_depth_limit`; interpreter only).
    public var depthLimit: UInt32
    /// Heap for backtracking, in KiB (`pcre2_set_heap_limit`; interpreter only).
    public var heapLimitKiB: UInt32

    public init(matchLimit: UInt32, depthLimit: UInt32, heapLimitKiB: UInt32) {
        self.matchLimit = matchLimit
        self.depthLimit = depthLimit
        self.heapLimitKiB = heapLimitKiB
    }

    public static let `default` = MatchLimits(matchLimit: 1_000_000, depthLimit: 100_000, heapLimitKiB: 16_384)

    /// Longest pattern accepted, in bytes (`pcre2_set_max_pattern_length`).
    public static let maxPatternLength = 32_768
}

/// A PCRE2 match context carrying one set of limits. Immutable after creation, which PCRE2
/// documents as safe to share between threads.
final class MatchContext: @unchecked Sendable {
    let limits: MatchLimits
    let pointer: OpaquePointer?

    init(_ limits: MatchLimits) {
        self.limits = limits
        pointer = pcre2_match_context_create_8(nil)
        if let pointer {
            pcre2_set_match_limit_8(pointer, limits.matchLimit)
            pcre2_set_depth_limit_8(pointer, limits.depthLimit)
            pcre2_set_heap_limit_8(pointer, limits.heapLimitKiB)
        }
    }

    deinit { pcre2_match_context_free_8(pointer) }

    static let `default` = MatchContext(.default)
}

/// The compile context shared by every pattern: it only bounds the pattern's length.
struct CompileContext: @unchecked Sendable {
    let pointer: OpaquePointer?

    static let shared = CompileContext()

    private init() {
        pointer = pcre2_compile_context_create_8(nil)
        if let pointer {
            pcre2_set_max_pattern_length_8(pointer, MatchLimits.maxPatternLength)
        }
    }
}
