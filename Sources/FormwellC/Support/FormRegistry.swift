import Formwell
import Synchronization

/// One live form behind a handle. The mutex serializes every call on the form.
final class FormSlot: Sendable {
    let id: UInt
    let form: Mutex<Form>

    init(id: UInt, form: Form) {
        self.id = id
        self.form = Mutex(form)
    }
}

/// Handles are ids looked up here, never pointers dereferenced: a freed, forged or stale handle is
/// simply not found, so it gets FW_ERR_INVALID_HANDLE instead of touching freed memory.
/// Ids are never reused within a process.
final class FormRegistry: Sendable {
    static let shared = FormRegistry()

    private struct Table {
        var nextID: UInt = 0x4F57_0000
        var slots: [UInt: FormSlot] = [:]
    }
    private let table = Mutex(Table())

    func register(_ form: Form) -> OpaquePointer? {
        let slot: FormSlot = table.withLock { table in
            table.nextID &+= 16
            let slot = FormSlot(id: table.nextID, form: form)
            table.slots[slot.id] = slot
            return slot
        }
        return OpaquePointer(bitPattern: slot.id)
    }

    func slot(_ handle: OpaquePointer?) throws(ABIFailure) -> FormSlot {
        let id = UInt(bitPattern: handle)
        guard let slot = table.withLock({ $0.slots[id] }) else { throw invalidHandle(handle) }
        return slot
    }

    /// Forgets the handle; the form itself (and custom validators' contexts) are destroyed when the
    /// last call still using it returns.
    func remove(_ handle: OpaquePointer?) throws(ABIFailure) -> FormSlot {
        let id = UInt(bitPattern: handle)
        guard let slot = table.withLock({ $0.slots.removeValue(forKey: id) }) else {
            throw invalidHandle(handle)
        }
        return slot
    }

    var liveCount: Int { table.withLock { $0.slots.count } }

    private func invalidHandle(_ handle: OpaquePointer?) -> ABIFailure {
        guard handle != nil else { return ABIFailure(.FW_ERR_INVALID_HANDLE, "form handle is NULL") }
        return ABIFailure(.FW_ERR_INVALID_HANDLE, "form handle was freed or never issued by fw_form_create")
    }
}

/// Runs `body` on the form behind `handle`, under the form's lock.
///
/// A thread that already holds a form's lock is inside a custom validator. Its calls never wait for
/// a lock: the same form is refused with FW_ERR_BUSY, and so is another form in use by another
/// thread. Waiting there could deadlock (two validators, each calling the other's form), which
/// Swift's Mutex would turn into a trap. Threads holding no form lock wait as usual, and cannot be
/// part of a cycle.
func withForm<T>(_ handle: OpaquePointer?, _ body: (inout Form) throws(ABIFailure) -> T) throws(ABIFailure) -> T {
    let slot = try FormRegistry.shared.slot(handle)
    let thread = ThreadState.current
    let insideValidator = !(thread?.activeForms.isEmpty ?? true)
    if let thread, thread.activeForms.contains(slot.id) {
        throw ABIFailure(.FW_ERR_BUSY, "a custom validator called back into the form it is validating")
    }
    thread?.activeForms.append(slot.id)
    defer { thread?.activeForms.removeLast() }
    // (The two closures cannot be shared: the Mutex requires `sending` closures written in place.)
    if insideValidator {
        let result: Result<T, ABIFailure>? = slot.form.withLockIfAvailable { form in
            do throws(ABIFailure) { return .success(try body(&form)) } catch { return .failure(error) }
        }
        guard let result else {
            throw ABIFailure(.FW_ERR_BUSY, "a custom validator called a form that another thread is using")
        }
        return try result.get()
    }
    let result: Result<T, ABIFailure> = slot.form.withLock { form in
        do throws(ABIFailure) { return .success(try body(&form)) } catch { return .failure(error) }
    }
    return try result.get()
}
