/// Compiles each distinct pattern source once and hands the same `Pattern` to every rule that uses it.
/// Bounded so a host feeding endless distinct patterns cannot grow it without limit: when full it is
/// emptied, and patterns already held by rules stay alive through those rules.
public final class PatternCache: Sendable {
    public static let shared = PatternCache()
    static let capacity = 1_024

    private let patterns = BoundedCache<String, Pattern>(capacity: PatternCache.capacity)

    /// The compiled pattern for `source`, compiling it on first use.
    public func pattern(for source: String) throws(PatternError) -> Pattern {
        try patterns.value(for: source) { () throws(PatternError) in try Pattern(compiling: source) }
    }

    var count: Int { patterns.count }
}
