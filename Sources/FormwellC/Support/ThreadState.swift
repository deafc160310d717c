import CFormwellAtomics
import Formwell
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
    /// Handles of the forms whose lock this thread holds, innermost last: a fixed stack (custom
    /// validators calling other forms nest at most `maxNesting` deep), so entering and leaving a
    /// form on every call touches no array machinery.
    private var active = (UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0),
                          UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0), UInt(0))
    private(set) var depth = 0
    static let maxNesting = 16
    /// Forms freed by a destroy callback while this thread is already destroying forms: the
    /// outermost free destroys them one after another (`destroyForm`), so a chain of callbacks each
    /// freeing another form grows a queue, never the stack.
    var pendingDestroys: [UnsafeMutablePointer<Form>] = []
    var destroying = false

    /// Whether this thread holds the lock of the form with this handle.
    func isInside(_ handle: UInt) -> Bool {
        withUnsafeBytes(of: active) { raw in
            let stack = raw.bindMemory(to: UInt.self)
            return stack.prefix(depth).contains(handle)
        }
    }

    /// The table slots of the forms whose lock this thread holds.
    func heldSlotIndices() -> [Int] {
        withUnsafeBytes(of: active) { raw in
            raw.bindMemory(to: UInt.self).prefix(depth).map { FormTable.index(of: $0) }
        }
    }

    /// Records that this thread holds the form's lock; false when nesting is already at its limit.
    mutating func enter(_ handle: UInt) -> Bool {
        guard depth < ThreadState.maxNesting else { return false }
        let slot = depth
        withUnsafeMutableBytes(of: &active) { raw in raw.storeBytes(of: handle, toByteOffset: slot * MemoryLayout<UInt>.stride, as: UInt.self) }
        depth += 1
        return true
    }

    mutating func leave() {
        if depth > 0 { depth -= 1 }
    }

    mutating func record(status: fw_status, message: String, offset: Int64) {
        self.status = status
        self.message = message
        self.offset = offset
    }

    /// Records a success. Inlined: successes repeat on every call, and after the first nothing
    /// changes, so nothing is stored.
    @inline(__always)
    mutating func recordSuccess() {
        if status == .FW_OK && offset == -1 && message.isEmpty { return }
        record(status: .FW_OK, message: "", offset: -1)
    }

    /// This thread's state, created on first use and freed when the thread exits.
    /// nil only if the system ran out of memory or thread-specific keys.
    static var current: UnsafeMutablePointer<ThreadState>? {
        let cache = formwell_thread_state_slot()
        if let cached = cache?.pointee { return cached.assumingMemoryBound(to: ThreadState.self) }
        guard let key = threadStateKey else { return nil }
        if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: ThreadState.self) }
        // On lines of its own: it is written on every call.
        let state = CacheLine.allocate(ThreadState.self)
        state.initialize(to: ThreadState())
        guard pthread_setspecific(key, state) == 0 else {
            state.deinitialize(count: 1)
            CacheLine.deallocate(state)
            return nil
        }
        cache?.pointee = UnsafeMutableRawPointer(state)
        return state
    }
}

let threadStateKey: pthread_key_t? = {
    var key = pthread_key_t()
    let created = pthread_key_create(&key) { raw in
        guard let state = raw?.assumingMemoryBound(to: ThreadState.self) else { return }
        // A call made later in this thread's exit (another key's destructor) starts afresh.
        formwell_thread_state_slot()?.pointee = nil
        state.deinitialize(count: 1)
        CacheLine.deallocate(state)
    }
    return created == 0 ? key : nil
}()
