/// A process-wide map from keys to immutable shared values, made once per key (PatternCache's
/// compiled patterns, MatchContext's per-limits contexts). Bounded so a host feeding endless distinct
/// keys cannot grow it without limit: when full it is emptied, and values already handed out stay
/// alive through their holders.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let capacity: Int
    private let entries = ProcessLock<[Key: Value]>([:])

    init(capacity: Int) { self.capacity = capacity }

    /// The value for `key`, made by `make` on first use. `make` runs outside the lock (a slow compile
    /// must not stall other threads' lookups); if two threads race, the first value stored wins.
    func value<E: Error>(for key: Key, make: () throws(E) -> Value) throws(E) -> Value {
        if let cached = entries.withLock({ $0[key] }) { return cached }
        let made = try make()
        return entries.withLock { cache in
            if let raced = cache[key] { return raced }
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[key] = made
            return made
        }
    }

    var count: Int { entries.withLock { $0.count } }
}
