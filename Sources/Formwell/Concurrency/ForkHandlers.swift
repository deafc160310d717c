#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps the engine's process-wide state consistent across `fork()`: a child gets a copy of memory
/// but only the forking thread, so a lock another thread held at that moment would stay held in the
/// child forever, and the state behind it could be half written.
///
/// `pthread_atfork` handlers (registered with the first `ProcessLock`) make every lazy global
/// (`ProcessGlobals`), then take every `ProcessLock` and the JIT gate exclusively before the fork, so no other thread is inside them while memory is
/// copied; both parent and child release them afterwards (the child initializes them afresh, as
/// the threads that might own them are gone). Locks come before the gate: a body that drops the
/// last reference to a pattern frees its JIT code (taking the gate shared) while holding a lock.
enum ForkHandlers {
    /// Guards `locks`, and is held from prepare to parent/child so no lock joins or leaves mid-fork.
    private nonisolated(unsafe) static let registry: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()

    /// Every live `ProcessLock`'s mutex, in the order they were made. Only under `registry`.
    private nonisolated(unsafe) static var locks: [UnsafeMutablePointer<pthread_mutex_t>] = []

    /// Shared by PCRE2's JIT compiles and frees, whose executable-memory allocator has a lock of its
    /// own that a fork must not split; exclusive in the fork's prepare handler.
    private nonisolated(unsafe) static let jitGate: UnsafeMutablePointer<pthread_rwlock_t> = {
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
        return lock
    }()

    /// Registers the handlers once, before the first lock can be taken.
    private static let installed: Bool = {
        pthread_atfork(
            { ForkHandlers.prepare() },
            { ForkHandlers.release(reinitializing: false) },
            { ForkHandlers.release(reinitializing: true) }) == 0
    }()

    /// Registers the handlers, if they are not yet.
    static func install() {
        _ = installed
    }

    static func register(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        _ = installed
        pthread_mutex_lock(registry)
        locks.append(mutex)
        pthread_mutex_unlock(registry)
    }

    static func unregister(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_mutex_lock(registry)
        locks.removeAll { $0 == mutex }
        pthread_mutex_unlock(registry)
    }

    /// Runs `body` (a PCRE2 JIT compile or a free of compiled code) where no fork can split it.
    static func outsideFork<R>(_ body: () -> R) -> R {
        _ = installed
        pthread_rwlock_rdlock(jitGate)
        defer { pthread_rwlock_unlock(jitGate) }
        return body()
    }

    private static func prepare() {
        ProcessGlobals.settle()
        pthread_mutex_lock(registry)
        for mutex in locks { pthread_mutex_lock(mutex) }
        pthread_rwlock_wrlock(jitGate)
    }

    private static func release(reinitializing: Bool) {
        if reinitializing {
            pthread_rwlock_init(jitGate, nil)
            for mutex in locks { pthread_mutex_init(mutex, nil) }
            pthread_mutex_init(registry, nil)
        } else {
            pthread_rwlock_unlock(jitGate)
            for mutex in locks.reversed() { pthread_mutex_unlock(mutex) }
            pthread_mutex_unlock(registry)
        }
    }
}
