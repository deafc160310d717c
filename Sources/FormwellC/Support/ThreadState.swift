#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Per-thread storage: the last call's outcome (so one thread's errors never overwrite another's)
/// and the forms this thread is inside of (to refuse re-entrant calls instead of deadlocking).
///
/// A plain struct reached through a pointer rather than a class: every call touches it, and a class
/// would cost a retain, a release and a dynamic exclusivity check each time.
struct ThreadState {
    private(set) var status: fw_status = .FW_OK
    private(set) var message = ""
    private(set) var offset: Int64 = -1
    /// Handles of the forms whose lock this thread holds, innermost last.
    var activeForms: [UInt] = []

    mutating func record(status: fw_status, message: String, offset: Int64) {
        // Successes repeat on every call: skip the stores when nothing changes.
        if status == .FW_OK && self.status == .FW_OK && self.message.isEmpty && self.offset == -1 { return }
        self.status = status
        self.message = message
        self.offset = offset
    }

    /// This thread's state, created on first use and freed when the thread exits.
    /// nil only if the system ran out of memory or thread-specific keys.
    static var current: UnsafeMutablePointer<ThreadState>? {
        guard let key = threadStateKey else { return nil }
        if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: ThreadState.self) }
        // On lines of its own, and with a list buffer too large to share a line with another
        // thread's: both are written on every call.
        let state = CacheLine.allocate(ThreadState.self)
        state.initialize(to: ThreadState())
        state.pointee.activeForms.reserveCapacity(16)
        guard pthread_setspecific(key, state) == 0 else {
            state.deinitialize(count: 1)
            CacheLine.deallocate(state)
            return nil
        }
        return state
    }
}

private let threadStateKey: pthread_key_t? = {
    var key = pthread_key_t()
    let created = pthread_key_create(&key) { raw in
        guard let state = raw?.assumingMemoryBound(to: ThreadState.self) else { return }
        state.deinitialize(count: 1)
        CacheLine.deallocate(state)
    }
    return created == 0 ? key : nil
}()
