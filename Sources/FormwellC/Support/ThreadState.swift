#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Per-thread storage: the last call's outcome (so one thread's errors never overwrite another's)
/// and the forms this thread is inside of (to refuse re-entrant calls instead of deadlocking).
final class ThreadState {
    private(set) var status: fw_status = .FW_OK
    private(set) var message = ""
    private(set) var offset: Int64 = -1
    var activeForms: [UInt] = []

    func record(status: fw_status, message: String, offset: Int64) {
        self.status = status
        self.message = message
        self.offset = offset
    }

    /// This thread's state, created on first use and released when the thread exits.
    /// nil only if the system ran out of thread-specific keys.
    static var current: ThreadState? {
        guard let key = threadStateKey else { return nil }
        if let raw = pthread_getspecific(key) {
            return Unmanaged<ThreadState>.fromOpaque(raw).takeUnretainedValue()
        }
        let state = ThreadState()
        let raw = Unmanaged.passRetained(state).toOpaque()
        guard pthread_setspecific(key, raw) == 0 else {
            Unmanaged<ThreadState>.fromOpaque(raw).release()
            return nil
        }
        return state
    }
}

private let threadStateKey: pthread_key_t? = {
    var key = pthread_key_t()
    let created = pthread_key_create(&key) { raw in
        guard let raw else { return }
        Unmanaged<ThreadState>.fromOpaque(raw).release()
    }
    return created == 0 ? key : nil
}()
