import Formwell
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs `body` on the form behind `handle`, under that form's own lock.
///
/// A thread that already holds a form's lock is inside a custom validator. Its calls never wait for
/// a lock: the same form is refused with FW_ERR_BUSY, and so is another form in use by another
/// thread. Waiting there could deadlock (two validators, each calling the other's form). Threads
/// holding no form lock wait as usual, and cannot be part of a cycle.
func withForm<T>(_ handle: OpaquePointer?, _ body: (inout Form) throws(ABIFailure) -> T) throws(ABIFailure) -> T {
    try withFormPointer(handle) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) -> T in try body(&form.pointee) }
}

/// `withForm` with the form as a pointer: reading it through the pointer copies nothing (a
/// non-mutating call on an `inout` form makes the compiler copy the whole form first).
func withFormPointer<T>(
    _ handle: OpaquePointer?, _ body: (UnsafeMutablePointer<Form>) throws(ABIFailure) -> T
) throws(ABIFailure) -> T {
    try withLockedSlot(handle) { (_, form) throws(ABIFailure) -> T in try body(form) }
}

/// `withFormPointer` for a field named by id, with its index: the slot's cache of the last id named
/// answers a repeated id by comparing bytes; another id is looked up (as Unicode text) and cached.
func withNamedField<T>(
    _ handle: OpaquePointer?, _ id: ValidUTF8, _ body: (UnsafeMutablePointer<Form>, Int) throws(ABIFailure) -> T
) throws(ABIFailure) -> T {
    try withLockedSlot(handle) { (slot, form) throws(ABIFailure) -> T in
        let index: Int
        let cache = slot.pointee.guarded
        if cache.pointee.cachedIndex >= 0 && cache.pointee.cachedID.elementsEqual(id.bytes) {
            index = cache.pointee.cachedIndex
        } else {
            let text = String(decoding: id.bytes, as: UTF8.self)
            index = try engine { () throws(FormError) in try form.pointee.fieldIndex(of: text) }
            cache.pointee.cachedID = Array(id.bytes)
            cache.pointee.cachedIndex = index
        }
        return try body(form, index)
    }
}

/// `withFormPointer` for a call that may change field indices (removing a field): the slot's
/// cache of the last id named is forgotten before the lock is released, whether `body` succeeded or
/// not, so no later call reads an index the change made stale.
func withFormChangingIndices<T>(
    _ handle: OpaquePointer?, _ body: (UnsafeMutablePointer<Form>) throws(ABIFailure) -> T
) throws(ABIFailure) -> T {
    try withLockedSlot(handle) { (slot, form) throws(ABIFailure) -> T in
        defer { slot.pointee.guarded.pointee.forgetNames() }
        return try body(form)
    }
}

/// The slot and form of a live handle, locked for `body` and recorded as held by this thread.
private func withLockedSlot<T>(
    _ handle: OpaquePointer?, _ body: (UnsafeMutablePointer<FormSlot>, UnsafeMutablePointer<Form>) throws(ABIFailure) -> T
) throws(ABIFailure) -> T {
    let thread = ThreadState.current
    let (slot, form) = try lockForm(handle, purpose: .use, thread: thread)
    defer {
        thread?.pointee.leave()
        pthread_mutex_unlock(slot.pointee.lock)
    }
    return try body(slot, form)
}

/// Frees the form behind `handle`. Its custom validators' destructors run after every lock is released.
/// A form a fork took from this process (`FormTable.lostToFork`) counts as freed already.
func freeForm(_ handle: OpaquePointer?) throws(ABIFailure) {
    if FormTable.shared.lostToFork(handle) { return }
    guard let (_, index, _) = FormTable.shared.locate(handle) else { throw invalidHandle(handle) }
    let (slot, _) = try lockForm(handle, purpose: .free, thread: ThreadState.current)
    let (form, reusable) = FormTable.shared.retire(slot)
    pthread_mutex_unlock(slot.pointee.lock)
    if reusable { FormTable.shared.recycle(index) }
    if let form { destroyForm(form) }
}

/// Destroys a retired form, running its custom validators' destructors. A destructor that frees
/// another form only queues it: the outermost call destroys the queue in a loop, so any depth of
/// forms freeing each other runs in constant stack.
private func destroyForm(_ form: UnsafeMutablePointer<Form>) {
    guard let thread = ThreadState.current else {
        form.deinitialize(count: 1)
        CacheLine.deallocate(form)
        return
    }
    if thread.pointee.destroying {
        thread.pointee.pendingDestroys.append(form)
        return
    }
    thread.pointee.destroying = true
    var next: UnsafeMutablePointer<Form>? = form
    while let current = next {
        current.deinitialize(count: 1)
        CacheLine.deallocate(current)
        next = thread.pointee.pendingDestroys.popLast()
    }
    thread.pointee.destroying = false
}

/// Why a slot is locked: to use the form (recorded as held by this thread until it leaves), or to
/// free it.
private enum LockPurpose { case use, free }

/// Locks the slot of a live handle and answers it with its form; throws (holding no lock) otherwise.
private func lockForm(
    _ handle: OpaquePointer?, purpose: LockPurpose, thread: UnsafeMutablePointer<ThreadState>?
) throws(ABIFailure) -> (UnsafeMutablePointer<FormSlot>, UnsafeMutablePointer<Form>) {
    guard let (slot, _, generation) = FormTable.shared.locate(handle) else { throw invalidHandle(handle) }
    let id = UInt(bitPattern: handle)
    if let thread, thread.pointee.depth > 0 {
        if thread.pointee.isInside(id) {
            throw ABIFailure(.FW_ERR_BUSY, purpose == .free
                ? "a custom validator tried to free the form it is validating"
                : "a custom validator called back into the form it is validating")
        }
        guard pthread_mutex_trylock(slot.pointee.lock) == 0 else {
            // Held by this thread (the slot was reused by a form it is validating) or by another:
            // either way a handle of an older generation is stale, not busy.
            guard FormTable.currentGeneration(slot) == generation else { throw invalidHandle(handle) }
            throw ABIFailure(.FW_ERR_BUSY, "a custom validator called a form that another thread is using")
        }
    } else {
        pthread_mutex_lock(slot.pointee.lock)
    }
    guard slot.pointee.generation == generation, let form = slot.pointee.guarded.pointee.form else {
        pthread_mutex_unlock(slot.pointee.lock)
        throw invalidHandle(handle)
    }
    // A use is recorded as held until the caller leaves; freeing takes the form away at once.
    if purpose == .use, let thread, !thread.pointee.enter(id) {
        pthread_mutex_unlock(slot.pointee.lock)
        throw ABIFailure(.FW_ERR_BUSY, "custom validators nested \(ThreadState.maxNesting) calls deep into forms")
    }
    return (slot, form)
}

private func invalidHandle(_ handle: OpaquePointer?) -> ABIFailure {
    guard handle != nil else { return ABIFailure(.FW_ERR_INVALID_HANDLE, "form handle is NULL") }
    if FormTable.shared.lostToFork(handle) {
        return ABIFailure(.FW_ERR_INVALID_HANDLE, "another thread was using this form when the process forked, so this child cannot use it (it counts as freed; create the child's forms after the fork)")
    }
    return ABIFailure(.FW_ERR_INVALID_HANDLE, "form handle was freed or never issued by fw_form_create")
}
