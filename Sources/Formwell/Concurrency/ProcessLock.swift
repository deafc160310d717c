#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Process-wide state behind a pthread mutex that `fork()` leaves usable (`ForkHandlers` takes it
/// before the fork and releases it on both sides). The standard library's `Mutex` cannot serve
/// here: on Linux it records its owner's thread id, and a child forked while another thread held
/// it traps or hangs on its next use.
///
/// Meant for state that lives as long as the process (caches, registries): each lock joins the
/// fork handlers' list until it is deinitialized. A body must not call out to host code or take
/// another `ProcessLock`, so taking every lock before a fork cannot deadlock.
final class ProcessLock<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let state: UnsafeMutablePointer<State>

    init(_ initial: State) {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        state = .allocate(capacity: 1)
        state.initialize(to: initial)
        ForkHandlers.register(mutex)
    }

    deinit {
        ForkHandlers.unregister(mutex)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}
