import Synchronization

/// Compiles each distinct pattern source once and hands the same `Pattern` to every rule that uses it.
/// Bounded so a host feeding endless distinct patterns cannot grow it without limit: when full it is
/// emptied, and patterns already held by rules stay alive through those rules.
public final class PatternCache: Sendable {
    public static let shared = PatternCache()
    static let capacity = 1_024

    private let patterns = Mutex<[String: Pattern]>([:])

    /// The compiled pattern for `source`, compiling it on first use.
    public func pattern(for source: String) throws(PatternError) -> Pattern {
        if let cached = patterns.withLock({ $0[source] }) { return cached }
        // Compile outside the lock: a slow compile must not stall other threads' lookups.
        let compiled = try Pattern(compiling: source)
        return patterns.withLock { cache in
            if let raced = cache[source] { return raced }
            if cache.count >= PatternCache.capacity { cache.removeAll(keepingCapacity: true) }
            cache[source] = compiled
            return compiled
        }
    }

    var count: Int { patterns.withLock { $0.count } }
}
