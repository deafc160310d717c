/// The deterministic bound on every whole-value match: PCRE2's own step limit, sized from the
/// value's length and the form's work budget (`MatchLimits.timeLimitMicroseconds`), so the verdict
/// of a value depends only on the pattern, the value and the limits, never on how busy the machine
/// is, how many threads run or how long anything took. No clock is read.
///
/// PCRE2's limits bound steps, not time, and one step can cost time proportional to the value's
/// length (a backreference compares up to n bytes; `.*v=` rescans the rest of the value). So the
/// step limit falls with the length. The budget is counted in work units, one unit standing for a
/// nanosecond of this cost model (the budget is `timeLimitMicroseconds × 1,000` units for a value up
/// to 1 MiB, growing linearly with the length beyond):
///
/// - a fixed `fixedUnitsPerByte` per byte of the value: the caller's copy and UTF-8 check of it and
///   the first scan of it by the match. A value whose fixed cost alone exceeds the budget is refused
///   (`Pattern.Outcome.limitExceeded`) without being matched;
/// - per step, `unitsPerStep` for values up to `knee` bytes (so the default budget of 5,000,000 units
///   allows about the default 1,000,000 steps there, and the user's step limit decides), growing
///   with the square of the length beyond, as the cost of a step that rescans part of the value
///   grows and the number of such steps a pattern can take with it;
/// - at least `stepFloor` steps whenever the fixed cost fits, however long the value: a value a
///   pattern decides in a handful of steps (`[a-z]+` takes one) is decided at any length.
///
/// The length is rounded up to the next power of two (`MatchContext` keeps one PCRE2 match context
/// per power), so the step limit is a table lookup on the keystroke path. The user's own step, depth
/// and heap limits (`MatchLimits`) apply on top: the smaller limit wins. A match stopped by either
/// is `Pattern.Outcome.limitExceeded`, never a match.
///
/// The constants are calibrated against the ReDoS corpus (`Tests/Corpora/redos_patterns.json`)
/// with JIT code, so that the slowest call stays close to what the default 1,000,000 steps take on
/// a short value; `bench/redos_bench.c` measures it. The bound is on work, not on wall time: a
/// slower or busier machine takes longer for the same verdict.
enum WorkBound {
    /// Work units per byte of the value that every match pays before its first step.
    static let fixedUnitsPerByte: UInt64 = 2
    /// Up to this length (bytes, a power of two) a step costs `unitsPerStep` units.
    static let knee: UInt64 = 1_024
    static let unitsPerStep: UInt64 = 5
    /// The least step limit of a value whose fixed cost fits the budget.
    static let stepFloor: UInt64 = 8
    /// The budget covers values up to this length; beyond it, it grows in proportion to the length.
    static let linearFrom: UInt64 = 1 << 20

    /// The work budget in units for values shorter than 2^width bytes under a limit of
    /// `microseconds`.
    static func budget(width: Int, microseconds: UInt32) -> UInt64 {
        let base = UInt64(microseconds) &* 1_000  // at most ~4.3e12: no overflow
        guard width > 20 else { return base }
        let shift = UInt64(min(width, 60) - 20)
        return base.multipliedReportingOverflow(by: 1 << shift).overflow ? UInt64.max : base << shift
    }

    /// The step limit for values shorter than 2^width bytes (width 0...64) under a work budget of
    /// `microseconds` and the user's step limit `userSteps`: 0 when the fixed cost of such a value
    /// exceeds the budget (the value is refused unmatched).
    static func stepLimit(width: Int, microseconds: UInt32, userSteps: UInt32) -> UInt32 {
        guard width < 60 else { return 0 }
        let length = UInt64(1) << UInt64(width)
        let budget = WorkBound.budget(width: width, microseconds: microseconds)
        let fixed = fixedUnitsPerByte &* length
        guard fixed <= budget else { return 0 }
        // Units per step: unitsPerStep × (length / knee)², at most 5 × 2^98 (widths below 60).
        let ratio = max(1, length / knee)
        let (square, overflow) = ratio.multipliedReportingOverflow(by: ratio)
        let (perStep, overflowAgain) = square.multipliedReportingOverflow(by: unitsPerStep)
        let steps = overflow || overflowAgain ? stepFloor : max(stepFloor, (budget &- fixed) / perStep)
        return UInt32(clamping: min(UInt64(userSteps), steps))
    }
}
