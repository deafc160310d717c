import CPCRE2

/// Bounds on one PCRE2 match, so a catastrophic pattern gives up instead of hanging the host.
/// PCRE2's own defaults (10,000,000 steps, 20 MB of heap) allow seconds per value; a form field needs
/// milliseconds. With these defaults `(a+)+$` against 30 `a`s and a `!` stops after 1,000,000 steps.
///
/// Steps are not time: one step can compare or scan the whole value (a backreference, `.*` before a
/// literal), so these limits alone let `\b(\w+).\1` take seconds on a 160 KB value. Every match is
/// therefore also bounded by a work budget, `WorkBound` (see there), which lowers the step limit as
/// the value grows: the smaller limit wins. Both are counts, so a verdict never depends on timing.
public struct MatchLimits: Equatable, Hashable, Sendable {
    /// Backtracking steps per match (`pcre2_set_match_limit`; JIT code honours it too).
    public var matchLimit: UInt32
    /// Nested backtracking depth (`pcre2_set_depth_limit`; interpreter only).
    public var depthLimit: UInt32
    /// Heap for backtracking, in KiB (`pcre2_set_heap_limit`; interpreter only).
    public var heapLimitKiB: UInt32
    /// The work budget of one match of a value up to 1 MiB, in microseconds of `WorkBound`'s cost
    /// model (longer values get proportionally more): a deterministic count, not a clock, so the
    /// same value gets the same verdict on any machine at any load. 5,000 by default, which lets a
    /// short value use the whole default step limit; a smaller budget lowers the step limit of every
    /// length and refuses, unmatched, values whose length alone exceeds it (2 units per byte: 1,000
    /// refuses values from 256 KiB). A larger one lets the step limits decide.
    public var timeLimitMicroseconds: UInt32

    public init(matchLimit: UInt32, depthLimit: UInt32, heapLimitKiB: UInt32,
                timeLimitMicroseconds: UInt32 = MatchLimits.defaultTimeLimitMicroseconds) {
        self.matchLimit = matchLimit
        self.depthLimit = depthLimit
        self.heapLimitKiB = heapLimitKiB
        self.timeLimitMicroseconds = timeLimitMicroseconds
    }

    public static let defaultTimeLimitMicroseconds: UInt32 = 5_000

    public static let `default` = MatchLimits(matchLimit: 1_000_000, depthLimit: 100_000, heapLimitKiB: 16_384)

    /// Longest pattern accepted, in bytes (`pcre2_set_max_pattern_length`).
    public static let maxPatternLength = 32_768
}

/// One set of limits, ready to match under: for each length class of the value, a PCRE2 match
/// context whose step limit is the smaller of the user's and `WorkBound.stepLimit`. Immutable after
/// creation, which PCRE2 documents as safe to share between threads.
final class MatchContext: @unchecked Sendable {
    let limits: MatchLimits
    /// `table[b]` serves values of fewer than 2^b bytes (b = the bit width of the length, 0...64):
    /// its context (nil when out of memory, or when such values are refused unmatched) and its step
    /// limit (0: refused unmatched, their fixed cost exceeds the budget). A raw buffer, so the
    /// keystroke path reads an entry with no bounds check or retain.
    private let table: UnsafeMutablePointer<(context: OpaquePointer?, steps: UInt32)>
    private static let widths = Int.bitWidth + 1

    init(_ limits: MatchLimits) {
        self.limits = limits
        table = .allocate(capacity: MatchContext.widths)
        for width in 0..<MatchContext.widths {
            let steps = WorkBound.stepLimit(width: width, microseconds: limits.timeLimitMicroseconds,
                                            userSteps: limits.matchLimit)
            let context = steps == 0 ? nil : pcre2_match_context_create_8(nil)
            if let context {
                pcre2_set_match_limit_8(context, steps)
                pcre2_set_depth_limit_8(context, limits.depthLimit)
                pcre2_set_heap_limit_8(context, limits.heapLimitKiB)
            }
            (table + width).initialize(to: (context, steps))
        }
    }

    deinit {
        for width in 0..<MatchContext.widths { pcre2_match_context_free_8(table[width].context) }
        table.deinitialize(count: MatchContext.widths)
        table.deallocate()
    }

    /// What the matcher is handed: this instance, unretained. The caller keeps it alive.
    var pointer: OpaquePointer? { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// The instance behind `pointer`.
    static func from(_ pointer: OpaquePointer?) -> Unmanaged<MatchContext> {
        guard let pointer else { return Unmanaged.passUnretained(MatchContext.default) }
        return Unmanaged.fromOpaque(UnsafeRawPointer(pointer))
    }

    /// The context for a value of `length` bytes and its step limit (0: refuse the value unmatched).
    @inline(__always)
    func entry(length: Int) -> (context: OpaquePointer?, steps: UInt32) {
        // 0...64 for any length >= 0 (a buffer's count); a negative length would read entry 0.
        let width = length < 0 ? 0 : Int.bitWidth &- length.leadingZeroBitCount
        return table[width]
    }

    static let `default` = MatchContext(.default)

    /// The context for `limits`, shared by every form (and `Pattern.matchWhole` call) with the same
    /// limits: building one creates 65 PCRE2 match contexts, which a form that only changes its time
    /// limit paid at every `setMatchLimits` (and a `matchWhole` with custom limits at every call).
    /// Bounded (`BoundedCache`): when full it is emptied, and contexts in use stay alive through the
    /// forms that hold them.
    static func shared(for limits: MatchLimits) -> MatchContext {
        if limits == .default { return .default }
        return sharedContexts.value(for: limits) { MatchContext(limits) }
    }

    static let sharedCapacity = 64
    static let sharedContexts = BoundedCache<MatchLimits, MatchContext>(capacity: sharedCapacity)

    /// Contexts `shared(for:)` holds now (tests).
    static var sharedCount: Int { sharedContexts.count }
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
