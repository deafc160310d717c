// ThreadSanitizer stress test of the C ABI (built by scripts/tsan_stress.sh with -sanitize=thread).
//
// STRESS_THREADS threads (default 8) × STRESS_OPS operations each (default 10,000) on fw_* functions:
//  - threads 0..<STRESS_SHARED_THREADS (default half) hammer one shared form: set_value, focus, blur, touch, touch_all,
//    validate, reset, queries; its custom validator calls back into the same form and must get
//    FW_ERR_BUSY (never a deadlock);
//  - the others each own a private form and check it always holds exactly what they last wrote;
//  - every thread also creates and frees short-lived forms, and passes handles through shared slots
//    so that other threads free them while they may still be used (stale handles must give
//    FW_ERR_INVALID_HANDLE, never a crash);
//  - after each deliberate failure the thread's fw_last_error_message must name its own failure.
// Besides those STRESS_THREADS threads:
//  - STRESS_SNAPSHOT_THREADS (default 2) threads write the shared form with fw_field_update_at /
//    fw_field_update and read it with fw_field_snapshot / fw_field_snapshot_at / fw_form_snapshots. Every
//    snapshot must be one consistent moment: validity INVALID exactly when message_length > 0 (display
//    ERROR exactly when display_message_length > 0), the texts NUL-terminated inside the buffer at their
//    lengths, text_size their sum, the copied value one that a writer wrote (its "t<thread>-<n>" names a
//    thread that had got that far), its verdict the one the rules give that value, and the confirm
//    field's verdict the one its `matches` rule gives against the shared value of the same read;
//    fw_field_update's snapshot holds the value that call wrote;
//  - STRESS_CHURN_THREADS (default 1) threads create forms (fields added with fw_form_add_field_with_rules,
//    a custom validator among the rules), use them and free them in a loop, publishing the live form and,
//    once freed, its handle;
//  - STRESS_BATCH_THREADS (default 1) threads run fw_form_check_batch on their own form (pattern and
//    `matches` rules, 6,000 records, threads = 2: the library's own worker threads) while writing its
//    fields interactively, every verdict checked against the rule it must follow, and on the shared
//    form (its custom validator keeps the batch on the calling thread; its re-entrant calls get BUSY);
//  - STRESS_STALE_THREADS (default 1) threads hammer those handles: every call on a freed handle must give
//    FW_ERR_INVALID_HANDLE (and keep a refused custom rule's context with the caller), a call on the
//    churned form that may be freed meanwhile FW_OK or FW_ERR_INVALID_HANDLE; never a crash, never a
//    TSan report;
//  - asynchronous rules (issue 12): one thread types into a form with async rules (ticking its clock,
//    setting values, submitting, resetting, removing and re-adding a field, reading snapshots) while
//    STRESS_ASYNC_RESOLVERS (default 3; 0 for none) threads take its due requests (sometimes after a
//    size query, which must hand nothing out), hold a few and resolve them in any order: every request
//    is handed out once, carries a value the typing thread wrote, and resolves FW_OK (applied or
//    stale); afterwards nothing is pending and the form counted exactly the stale answers.
// At the end: the shared field holds one of the written values, private forms hold their last value,
// fw_form_live_count is back to its start and every stored validator context was destroyed once.
// Exit status 0 only when every check passed (TSan reports are turned into a failure by the script).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CFormwellTypes
import Synchronization

// MARK: Settings and shared counters

private func setting(_ name: String, _ fallback: Int) -> Int {
    guard let raw = getenv(name), let value = Int(String(cString: raw)), value > 0 else { return fallback }
    return value
}
private let threadCount = setting("STRESS_THREADS", 8)
private let opsPerThread = setting("STRESS_OPS", 10000)
private let sharedThreads = min(threadCount, setting("STRESS_SHARED_THREADS", max(1, threadCount / 2)))
/// A thread count that may be 0 (to run without that kind of thread).
private func count(_ name: String, _ fallback: Int) -> Int {
    guard let raw = getenv(name), let value = Int(String(cString: raw)), value >= 0 else { return fallback }
    return value
}
private let snapshotThreads = count("STRESS_SNAPSHOT_THREADS", 2)
private let churnThreads = count("STRESS_CHURN_THREADS", 1)
private let batchThreads = count("STRESS_BATCH_THREADS", 1)
private let batchesChecked = Atomic<Int>(0)
private let staleThreads = count("STRESS_STALE_THREADS", 1)

private let failures = Atomic<Int>(0)
private let busySeen = Atomic<Int>(0)
private let validatorCalls = Atomic<Int>(0)
private let contextsStored = Atomic<Int>(0)
private let contextsDestroyed = Atomic<Int>(0)
private let staleHandleCalls = Atomic<Int>(0)
private let snapshotsChecked = Atomic<Int>(0)
private let freedHandleCalls = Atomic<Int>(0)
private let churnedForms = Atomic<Int>(0)
private let churnRaces = Atomic<Int>(0)

/// How far each writer of the shared form got: set (releasing) to n before it writes its n-th value,
/// so a reader that copies "t<thread>-<n>" must then see at least n there.
private final class Progress: Sendable {
    let attempted = Atomic<Int>(-1)
}
private let progress = (0..<(threadCount + snapshotThreads)).map { _ in Progress() }
/// Handles passed between threads (0 = empty slot).
private let handoff = Mutex<[UInt]>([0, 0, 0, 0])

private func exchangeSlot(_ slot: Int, _ new: UInt) -> UInt {
    handoff.withLock { slots in
        let old = slots[slot]
        slots[slot] = new
        return old
    }
}

private func report(_ message: String) {
    failures.add(1, ordering: .relaxed)
    let line = "THREAD-STRESS CHECK FAILED: \(message)\n"
    line.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
}

private func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { report(message()) }
}

// MARK: Validators

/// A validator's context: the form it validates (for the re-entrant calls) and a tag.
private struct ValidatorContext {
    var form: UInt
    var reenter: Bool
}

private let stressValidator: fw_validate_fn = { context, value, length, outMessage in
    validatorCalls.add(1, ordering: .relaxed)
    guard let context, let value else { report("validator got NULL"); return 2 }
    let ctx = context.load(as: ValidatorContext.self)
    expect(strlen(value) == Int(length), "validator: value_length \(length) but strlen \(strlen(value))")
    if ctx.reenter {
        // Calling back into the form being validated: FW_ERR_BUSY, at once, on this thread only.
        let form = OpaquePointer(bitPattern: ctx.form)
        var buffer = [CChar](repeating: 0, count: 32)
        let query = fw_field_value(form, "shared", &buffer, 32, nil)
        let write = fw_field_set_value(form, "shared", "from-validator")
        let free = fw_form_free(form)
        expect(query == .FW_ERR_BUSY && write == .FW_ERR_BUSY && free == .FW_ERR_BUSY,
               "re-entrant calls gave \(query.rawValue)/\(write.rawValue)/\(free.rawValue), expected 11")
        if query == .FW_ERR_BUSY { busySeen.add(1, ordering: .relaxed) }
        expect(fw_last_error_code() == .FW_ERR_BUSY, "last error after a re-entrant call is not BUSY")
    }
    // "bad" anywhere makes the value invalid, with a message of the validator's own.
    if strstr(value, "bad") != nil {
        outMessage?.pointee = UnsafeRawPointer(("validator says bad" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
        return 1
    }
    return 0
}

private let stressDestroy: fw_destroy_fn = { context in
    contextsDestroyed.add(1, ordering: .relaxed)
    free(context)
}

private func addValidator(_ form: OpaquePointer?, _ field: String, reenter: Bool) -> fw_status {
    let context = malloc(MemoryLayout<ValidatorContext>.size)!
    context.storeBytes(of: ValidatorContext(form: UInt(bitPattern: form), reenter: reenter), as: ValidatorContext.self)
    let status = fw_field_add_custom(form, field, stressValidator, context, stressDestroy, nil)
    if status == .FW_OK { contextsStored.add(1, ordering: .relaxed) } else { free(context) }
    return status
}

// MARK: Helpers

private func string(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

private func readValue(_ form: OpaquePointer?, _ field: String) -> (fw_status, String) {
    var buffer = [CChar](repeating: 0, count: 256)
    var length: UInt = 0
    let status = fw_field_value(form, field, &buffer, 256, &length)
    return (status, string(buffer))
}

private func lastErrorMessage() -> String {
    var buffer = [CChar](repeating: 0, count: 512)
    _ = fw_last_error_message(&buffer, 512, nil)
    return string(buffer)
}

/// A small per-thread PRNG (xorshift64*).
private struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state ^= state >> 12; state ^= state << 25; state ^= state >> 27
        return Int((state &* 2685821657736338717) >> 33) % bound
    }
}

/// What one thread leaves for the final checks (only its own thread writes it before the join).
private final class ThreadResult: @unchecked Sendable {
    let index: Int
    var written: [String] = []       // values this thread set on the shared form successfully
    var privateForm: OpaquePointer? = nil
    var privateValue = ""            // what the private form's field must hold
    var operations = 0
    init(index: Int) { self.index = index }
}

// MARK: One thread's work

private func work(_ result: ThreadResult, shared: OpaquePointer?) {
    let tid = result.index
    var random = Random(state: UInt64(tid + 1) &* 0x9E37_79B9_7F4A_7C15)
    var mine: OpaquePointer? = nil
    expect(fw_form_create(&mine) == .FW_OK, "fw_form_create failed")
    expect(fw_form_add_field(mine, "own", nil, nil) == .FW_OK, "add_field own failed")
    expect(fw_field_add_min_length(mine, "own", 2, nil) == .FW_OK, "min_length failed")
    expect(addValidator(mine, "own", reenter: true) == .FW_OK, "add_custom own failed")
    result.privateForm = mine
    let onShared = tid < sharedThreads

    for n in 0..<opsPerThread {
        result.operations += 1
        let target = onShared ? shared : mine
        let field = onShared ? "shared" : "own"
        switch random.next(16) {
        case 0...4:
            let value = random.next(10) == 0 ? "bad-\(tid)-\(n)" : "t\(tid)-\(n)"
            if onShared { progress[tid].attempted.store(n, ordering: .releasing) }
            let status = fw_field_set_value(target, field, value)
            expect(status == .FW_OK, "set_value gave \(status.rawValue) on thread \(tid)")
            if status == .FW_OK {
                if onShared { result.written.append(value) } else { result.privateValue = value }
            }
            if !onShared {
                let (read, text) = readValue(mine, "own")
                expect(read == .FW_OK && text == result.privateValue, "private form reads \"\(text)\", wrote \"\(result.privateValue)\"")
            }
        case 5: expect(fw_field_focus(target, field) == .FW_OK, "focus failed")
        case 6: expect(fw_field_blur(target, field) == .FW_OK, "blur failed")
        case 7: expect(fw_field_touch(target, field) == .FW_OK, "touch failed")
        case 8:
            var valid = false
            expect(fw_form_validate(target, &valid) == .FW_OK, "validate failed")
            var again = false
            expect(fw_form_is_valid(target, &again) == .FW_OK, "is_valid failed")
            if !onShared { expect(valid == again, "private form: validate \(valid) then is_valid \(again)") }
        case 9:
            if random.next(8) == 0 {
                expect(fw_form_reset(target) == .FW_OK, "reset failed")
                if !onShared { result.privateValue = "" }
            } else {
                expect(fw_form_touch_all(target) == .FW_OK, "touch_all failed")
            }
        case 10:
            // Queries that must agree with each other on a private form.
            var phase = fw_phase.FW_PHASE_IDLE, validity = fw_validity.FW_VALIDITY_EMPTY
            expect(fw_field_phase(target, field, &phase) == .FW_OK, "phase failed")
            expect(fw_field_validity(target, field, &validity) == .FW_OK, "validity failed")
            var first = [CChar](repeating: 0, count: 64)
            let status = fw_form_first_invalid(target, &first, 64, nil)
            expect(status == .FW_OK, "first_invalid gave \(status.rawValue)")
            if !onShared && phase == .FW_PHASE_IDLE { expect(validity == .FW_VALIDITY_EMPTY, "idle field not EMPTY") }
        case 11:
            // A failure of this thread's own: the last error must be about it, whatever others do.
            let missing = "missing-\(tid)-\(n)"
            let status = fw_field_touch(random.next(2) == 0 ? shared : mine, missing)
            expect(status == .FW_ERR_UNKNOWN_FIELD, "unknown field gave \(status.rawValue)")
            expect(fw_last_error_code() == .FW_ERR_UNKNOWN_FIELD, "last error code is \(fw_last_error_code().rawValue)")
            let message = lastErrorMessage()
            expect(message.contains("'\(missing)'"), "thread \(tid): last error \"\(message)\" is not about \(missing)")
            expect(fw_field_touched(mine, "own", nil) == .FW_ERR_NULL_ARGUMENT, "NULL out pointer not refused")
            expect(!lastErrorMessage().contains(missing), "last error not replaced by the next failure")
            var count: UInt = 0
            expect(fw_form_field_count(mine, &count) == .FW_OK && count == 1, "private field count \(count)")
            expect(lastErrorMessage().isEmpty && fw_last_error_code() == .FW_OK, "success did not clear the last error")
        case 12:
            // Short-lived form, created and freed here, with a validator context to destroy.
            var temp: OpaquePointer? = nil
            expect(fw_form_create(&temp) == .FW_OK, "create temp failed")
            expect(fw_form_add_field(temp, "t", nil, "bad") == .FW_OK, "add temp field failed")
            expect(addValidator(temp, "t", reenter: random.next(2) == 0) == .FW_OK, "add temp validator failed")
            var validity = fw_validity.FW_VALIDITY_EMPTY
            expect(fw_field_blur(temp, "t") == .FW_OK, "blur temp failed")
            expect(fw_field_validity(temp, "t", &validity) == .FW_OK && validity == .FW_VALIDITY_INVALID, "temp validity \(validity.rawValue)")
            expect(fw_form_free(temp) == .FW_OK, "free temp failed")
            expect(fw_form_free(temp) == .FW_ERR_INVALID_HANDLE, "double free not refused")
            expect(fw_field_touch(temp, "t") == .FW_ERR_INVALID_HANDLE, "freed handle not refused")
        case 13:
            // Publish a new form in a hand-off slot; free whatever was there (another thread's form).
            var form: OpaquePointer? = nil
            expect(fw_form_create(&form) == .FW_OK, "create handoff failed")
            _ = fw_form_add_field(form, "h", nil, "x")
            if random.next(2) == 0 { _ = addValidator(form, "h", reenter: false) }
            let old = exchangeSlot(random.next(4), UInt(bitPattern: form))
            if old != 0 {
                let status = fw_form_free(OpaquePointer(bitPattern: old))
                expect(status == .FW_OK, "free of a handed-off form gave \(status.rawValue)")
            }
        case 14:
            // Use a handle from a slot that another thread may free at any moment.
            let slot = random.next(4)
            let bits = handoff.withLock { $0[slot] }
            if bits != 0 {
                let form = OpaquePointer(bitPattern: bits)
                let set = fw_field_set_value(form, "h", "v\(tid)")
                let (read, _) = readValue(form, "h")
                expect(set == .FW_OK || set == .FW_ERR_INVALID_HANDLE, "stale set_value gave \(set.rawValue)")
                expect(read == .FW_OK || read == .FW_ERR_INVALID_HANDLE, "stale read gave \(read.rawValue)")
                staleHandleCalls.add(1, ordering: .relaxed)
            }
        default:
            // Read the shared form's value: always one that some thread wrote (or the initial one).
            let (status, text) = readValue(shared, "shared")
            expect(status == .FW_OK, "shared read gave \(status.rawValue)")
            expect(text.isEmpty || text.hasPrefix("t") || text.hasPrefix("bad-"), "shared value \"\(text)\" never written")
        }
    }
}

// MARK: Snapshots of the shared form

/// The texts a snapshot's members point to, checked to lie NUL-terminated inside the caller's buffer at
/// their lengths; nil (after a report) when they do not.
private func snapshotTexts(_ s: fw_snapshot, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int, _ what: String)
    -> (message: String, shown: String, value: String)? {
    func text(_ pointer: UnsafePointer<CChar>?, _ length: Int, _ name: String) -> String? {
        guard let pointer else { report("\(what): \(name) not copied into a \(size)-byte buffer (text_size \(s.text_size))"); return nil }
        let offset = UnsafeRawPointer(buffer).distance(to: UnsafeRawPointer(pointer))
        guard offset >= 0, offset + length < size else { report("\(what): \(name) at offset \(offset), length \(length), outside the buffer"); return nil }
        guard pointer[length] == 0, strnlen(pointer, length + 1) == length else {
            report("\(what): \(name) is not NUL-terminated at its length \(length) (strlen \(strnlen(pointer, size - offset)))"); return nil
        }
        return String(cString: pointer)
    }
    guard let message = text(s.message, s.message_length, "message"), let shown = text(s.display_message, s.display_message_length, "display message"),
          let value = text(s.value, s.value_length, "value"),
          let normalized = text(s.normalized, s.normalized_length, "normalized value") else { return nil }
    // No field here has normalisers: the third version's normalised value is the value, read in the
    // same moment.
    guard normalized == value else { report("\(what): normalized \"\(normalized)\" but value \"\(value)\""); return nil }
    return (message, shown, value)
}

/// "t<thread>-<n>" or "bad-<thread>-<n>", as the writers of the shared form write values.
private func parseWritten(_ value: String) -> (thread: Int, n: Int, bad: Bool)? {
    let bad = value.hasPrefix("bad-")
    guard bad || value.hasPrefix("t") else { return nil }
    let parts = value.dropFirst(bad ? 4 : 1).split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let thread = Int(parts[0]), let n = Int(parts[1]), thread >= 0, thread < progress.count else { return nil }
    return (thread, n, bad)
}

/// One snapshot's members agree with each other, and (for the shared form's fields) with the rules
/// and the writers. Returns the copied value.
@discardableResult
private func checkSnapshot(_ s: fw_snapshot, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int, index: Int,
                           shared: Bool, _ what: String) -> String? {
    snapshotsChecked.add(1, ordering: .relaxed)
    expect(s.size == MemoryLayout<fw_snapshot>.size, "\(what): size member became \(s.size)")
    expect(s.index == index, "\(what): index \(s.index), expected \(index)")
    expect((s.validity == fw_validity.FW_VALIDITY_INVALID.rawValue) == (s.message_length > 0),
           "\(what): validity \(s.validity) but message_length \(s.message_length)")
    expect((s.display == fw_display.FW_DISPLAY_ERROR.rawValue) == (s.display_message_length > 0),
           "\(what): display \(s.display) but display_message_length \(s.display_message_length)")
    expect((s.validity == fw_validity.FW_VALIDITY_INVALID.rawValue) == (s.failing_rule >= 0),
           "\(what): validity \(s.validity) but failing_rule \(s.failing_rule)")
    // The second version's texts too: label, initial value, hint, and the error list with its final
    // NUL; the third's normalised value; the fourth's codes and parameters, and the code list.
    let laterVersionTexts = s.label_length + s.initial_length + s.hint_length + s.errors_size + 4 + s.normalized_length + 1
        + s.code_length + s.params_length + s.display_code_length + s.display_params_length + s.error_codes_size + 5
    // A failure's code is there exactly when its message is (the codes of this form's rules are
    // never empty), and so is the list of codes beside the list of messages.
    expect((s.message_length > 0) == (s.code_length > 0) && (s.display_message_length > 0) == (s.display_code_length > 0),
           "\(what): message/code lengths \(s.message_length)/\(s.code_length), display \(s.display_message_length)/\(s.display_code_length)")
    expect((s.error_count > 0) == (s.error_codes_size > 0), "\(what): \(s.error_count) errors but error_codes_size \(s.error_codes_size)")
    expect(s.text_size == s.message_length + s.display_message_length + s.value_length + 3 + laterVersionTexts,
           "\(what): text_size \(s.text_size) for lengths \(s.message_length)/\(s.display_message_length)/\(s.value_length)")
    expect((s.validity == fw_validity.FW_VALIDITY_INVALID.rawValue) == (s.error_count > 0)
           && (s.error_count == 0 || s.errors_size == s.message_length + 1),
           "\(what): validity \(s.validity) but error_count \(s.error_count), errors_size \(s.errors_size)")
    expect(!s.limit_exceeded, "\(what): limit_exceeded on a short value")
    guard let texts = snapshotTexts(s, buffer, size, what) else { return nil }
    guard shared, !texts.value.isEmpty else { return texts.value }
    // A value some writer wrote: its thread had announced that write before making it.
    guard let written = parseWritten(texts.value) else { report("\(what): value \"\(texts.value)\" was never written"); return texts.value }
    let reached = progress[written.thread].attempted.load(ordering: .acquiring)
    expect(written.n <= reached, "\(what): value \"\(texts.value)\" but thread \(written.thread) only got to \(reached)")
    // The verdict of that very value: the pattern passes every written value; the validator fails "bad".
    if index == 0 && s.phase != fw_phase.FW_PHASE_IDLE.rawValue {
        let expected = written.bad ? fw_validity.FW_VALIDITY_INVALID : .FW_VALIDITY_VALID
        expect(s.validity == expected.rawValue, "\(what): value \"\(texts.value)\" with validity \(s.validity)")
        if written.bad {
            expect(texts.message == "validator says bad" && s.failing_rule == 1,
                   "\(what): value \"\(texts.value)\" with message \"\(texts.message)\" from rule \(s.failing_rule)")
        }
    }
    return texts.value
}

/// Threads that write the shared form through fw_field_update_at / fw_field_update and read it through
/// every snapshot function, checking each read is one consistent moment.
private func snapshotWork(_ result: ThreadResult, shared: OpaquePointer?) {
    let tid = result.index
    var random = Random(state: UInt64(tid + 1) &* 0xD1B5_4A32_D192_ED03)
    var sharedIndex: UInt = 99, confirmIndex: UInt = 99
    expect(fw_form_field_index(shared, "shared", &sharedIndex) == .FW_OK && sharedIndex == 0, "field_index(shared) gave \(sharedIndex)")
    expect(fw_form_field_index(shared, "confirm", &confirmIndex) == .FW_OK && confirmIndex == 1, "field_index(confirm) gave \(confirmIndex)")
    let size = 512
    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
    defer { buffer.deallocate() }
    var pair = [fw_snapshot](repeating: fw_snapshot(), count: 2)
    var lastShared = ""
    for n in 0..<opsPerThread {
        result.operations += 1
        var snap = fw_snapshot()
        snap.size = MemoryLayout<fw_snapshot>.size
        switch random.next(10) {
        case 0...3:
            // A keystroke and its redraw in one call: the snapshot shows the value it wrote.
            let value = random.next(6) == 0 ? "bad-\(tid)-\(n)" : "t\(tid)-\(n)"
            progress[tid].attempted.store(n, ordering: .releasing)
            let status = fw_field_update_at(shared, sharedIndex, value, &snap, buffer, UInt(size))
            expect(status == .FW_OK, "update_at(shared) gave \(status.rawValue)")
            guard status == .FW_OK else { continue }
            result.written.append(value)
            let copied = checkSnapshot(snap, buffer, size, index: 0, shared: true, "update_at(shared, \(value))")
            expect(copied == nil || copied == value, "update_at wrote \"\(value)\", its snapshot holds \"\(copied ?? "")\"")
        case 4:
            // The confirm field: the shared value last read (so both match for a while), or its own.
            let value = random.next(2) == 0 && !lastShared.isEmpty ? lastShared : "t\(tid)-\(n)"
            progress[tid].attempted.store(n, ordering: .releasing)
            let status = random.next(2) == 0
                ? fw_field_update(shared, "confirm", value, &snap, buffer, UInt(size))
                : fw_field_update_at(shared, confirmIndex, value, &snap, buffer, UInt(size))
            expect(status == .FW_OK, "update(confirm) gave \(status.rawValue)")
            guard status == .FW_OK else { continue }
            let copied = checkSnapshot(snap, buffer, size, index: 1, shared: true, "update(confirm, \(value))")
            expect(copied == nil || copied == value, "update(confirm) wrote \"\(value)\", its snapshot holds \"\(copied ?? "")\"")
        case 5, 6:
            let byID = random.next(2) == 0
            let status = byID ? fw_field_snapshot(shared, "shared", &snap, buffer, UInt(size))
                              : fw_field_snapshot_at(shared, sharedIndex, &snap, buffer, UInt(size))
            expect(status == .FW_OK, "snapshot(shared) gave \(status.rawValue)")
            guard status == .FW_OK else { continue }
            lastShared = checkSnapshot(snap, buffer, size, index: 0, shared: true, byID ? "snapshot(shared)" : "snapshot_at(shared)") ?? ""
        case 7:
            // Too small a buffer: every member filled, text_size tells what is needed, missing texts NULL.
            let status = fw_field_snapshot_at(shared, sharedIndex, &snap, buffer, 3)
            expect(status == .FW_OK || status == .FW_ERR_BUFFER_TOO_SMALL, "snapshot_at(shared, 3 bytes) gave \(status.rawValue)")
            expect((status == .FW_OK) == (snap.text_size <= 3), "3-byte buffer: status \(status.rawValue) but text_size \(snap.text_size)")
            // The value is the third text: copied only when the first three fit (the second
            // version's texts come after it).
            let firstThree = snap.message_length + snap.display_message_length + snap.value_length + 3
            expect(snap.value == nil || firstThree <= 3, "3-byte buffer: the value was copied though the first three texts need \(firstThree)")
            expect(snap.label == nil || snap.text_size <= 3, "3-byte buffer: the label was copied though text_size is \(snap.text_size)")
            expect((snap.validity == fw_validity.FW_VALIDITY_INVALID.rawValue) == (snap.message_length > 0),
                   "3-byte buffer: validity \(snap.validity) but message_length \(snap.message_length)")
        default:
            // Both fields in one read: the confirm field's verdict is its matches rule on this very shared value.
            for i in 0..<2 { pair[i] = fw_snapshot(); pair[i].size = MemoryLayout<fw_snapshot>.size }
            var count: UInt = 0, needed: UInt = 0
            let status = fw_form_snapshots(shared, &pair, 2, &count, buffer, UInt(size), &needed)
            expect(status == .FW_OK && count == 2, "form_snapshots(shared) gave \(status.rawValue), count \(count)")
            guard status == .FW_OK, count == 2 else { continue }
            expect(needed == pair[0].text_size + pair[1].text_size, "form_snapshots: out_text_size \(needed)")
            let value = checkSnapshot(pair[0], buffer, size, index: 0, shared: true, "form_snapshots[shared]")
            let confirm = checkSnapshot(pair[1], buffer, size, index: 1, shared: true, "form_snapshots[confirm]")
            guard let value, let confirm else { continue }
            lastShared = value
            if !confirm.isEmpty && pair[1].phase != fw_phase.FW_PHASE_IDLE.rawValue {
                let expected = confirm == value ? fw_validity.FW_VALIDITY_VALID : .FW_VALIDITY_INVALID
                expect(pair[1].validity == expected.rawValue,
                       "form_snapshots: confirm \"\(confirm)\", shared \"\(value)\", but confirm's validity is \(pair[1].validity)")
                if expected == .FW_VALIDITY_INVALID, let message = pair[1].message {
                    expect(String(cString: message) == "Must match Shared", "form_snapshots: confirm's message \"\(String(cString: message))\"")
                }
            }
        }
    }
}

// MARK: Forms freed while others use their handles

/// Handles of forms the churn threads freed (the last 64), and the form one of them is using now.
private let freedHandles = Mutex<[UInt]>([])
private let churnCurrent = Atomic<UInt>(0)
/// Churn threads still running (the stale-handle threads go on until none is).
private let churnRunning = Atomic<Int>(0)

private let forbiddenDestroy: fw_destroy_fn = { context in
    report("a custom rule refused on a freed handle had its context destroyed")
}

/// The rules of a churned form's field, given atomically; the custom rule's context is stored only on success.
private func addChurnField(_ form: OpaquePointer?, reenter: Bool, destroy: fw_destroy_fn) -> (fw_status, UnsafeMutableRawPointer) {
    let context = malloc(MemoryLayout<ValidatorContext>.size)!
    context.storeBytes(of: ValidatorContext(form: UInt(bitPattern: form), reenter: reenter), as: ValidatorContext.self)
    var rules = [fw_rule](repeating: fw_rule(), count: 3)
    for i in 0..<3 { rules[i].size = MemoryLayout<fw_rule>.size }
    rules[0].kind = fw_rule_kind.FW_RULE_REQUIRED.rawValue
    rules[1].kind = fw_rule_kind.FW_RULE_MIN_LENGTH.rawValue
    rules[1].length = 2
    rules[2].kind = fw_rule_kind.FW_RULE_CUSTOM.rawValue
    rules[2].validate = stressValidator
    rules[2].context = context
    rules[2].destroy = destroy
    let status = fw_form_add_field_with_rules(form, "c", nil, "bad", &rules, 3)
    return (status, context)
}

private func churnWork(_ result: ThreadResult) {
    var random = Random(state: UInt64(result.index + 1) &* 0x94D0_49BB_1331_11EB)
    let size = 256
    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
    defer { buffer.deallocate() }
    for n in 0..<max(1, opsPerThread / 4) {
        result.operations += 1
        var form: OpaquePointer? = nil
        expect(fw_form_create(&form) == .FW_OK, "churn: create failed")
        let (status, context) = addChurnField(form, reenter: random.next(3) == 0, destroy: stressDestroy)
        expect(status == .FW_OK, "churn: add_field_with_rules gave \(status.rawValue)")
        if status == .FW_OK { contextsStored.add(1, ordering: .relaxed) } else { free(context) }
        churnCurrent.store(UInt(bitPattern: form), ordering: .releasing)
        var index: UInt = 99
        expect(fw_form_field_index(form, "c", &index) == .FW_OK && index == 0, "churn: field_index gave \(index)")
        for k in 0..<3 {
            var snap = fw_snapshot()
            snap.size = MemoryLayout<fw_snapshot>.size
            let value = "c\(n)-\(k)"
            let update = fw_field_update_at(form, 0, value, &snap, buffer, UInt(size))
            expect(update == .FW_OK, "churn: update_at gave \(update.rawValue)")
            if update == .FW_OK, let texts = snapshotTexts(snap, buffer, size, "churn update_at") {
                expect(texts.value == value, "churn: update_at wrote \"\(value)\", snapshot holds \"\(texts.value)\"")
            }
        }
        if random.next(2) == 0 { expect(fw_field_blur_at(form, 0) == .FW_OK, "churn: blur_at failed") }
        churnCurrent.store(0, ordering: .releasing)
        if random.next(2) == 0 { churnCurrent.store(UInt(bitPattern: form), ordering: .releasing) }  // freed while published
        expect(fw_form_free(form) == .FW_OK, "churn: free failed")
        churnedForms.add(1, ordering: .relaxed)
        var snap = fw_snapshot()
        snap.size = MemoryLayout<fw_snapshot>.size
        expect(fw_field_snapshot_at(form, 0, &snap, nil, 0) == .FW_ERR_INVALID_HANDLE, "churn: own freed handle still answers")
        freedHandles.withLock { ring in
            ring.append(UInt(bitPattern: form))
            if ring.count > 64 { ring.removeFirst() }
        }
    }
    churnCurrent.store(0, ordering: .releasing)
    churnRunning.subtract(1, ordering: .releasing)
}

/// Calls on handles of freed forms (FW_ERR_INVALID_HANDLE, every one) and on the churned form that may
/// be freed at any moment (FW_OK or FW_ERR_INVALID_HANDLE).
private func staleWork(_ result: ThreadResult) {
    var random = Random(state: UInt64(result.index + 1) &* 0xBF58_476D_1CE4_E5B9)
    let size = 256
    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
    defer { buffer.deallocate() }
    var pair = [fw_snapshot](repeating: fw_snapshot(), count: 2)
    var n = 0
    // While any churn thread runs (and at least STRESS_OPS rounds).
    while n < opsPerThread || churnRunning.load(ordering: .acquiring) > 0 {
        n += 1
        result.operations += 1
        var snap = fw_snapshot()
        snap.size = MemoryLayout<fw_snapshot>.size
        if random.next(3) == 0 {
            let bits = churnCurrent.load(ordering: .acquiring)
            guard bits != 0 else { sched_yield(); continue }
            let form = OpaquePointer(bitPattern: bits)
            churnRaces.add(1, ordering: .relaxed)
            let read = fw_field_snapshot_at(form, 0, &snap, buffer, UInt(size))
            expect(read == .FW_OK || read == .FW_ERR_INVALID_HANDLE, "racing snapshot_at gave \(read.rawValue)")
            if read == .FW_OK, let texts = snapshotTexts(snap, buffer, size, "racing snapshot_at") {
                expect(texts.value.hasPrefix("c") || texts.value.hasPrefix("h") || texts.value == "bad", "racing snapshot_at: value \"\(texts.value)\"")
            }
            let value = "h\(result.index)-\(n)"
            let update = fw_field_update_at(form, 0, value, &snap, buffer, UInt(size))
            expect(update == .FW_OK || update == .FW_ERR_INVALID_HANDLE, "racing update_at gave \(update.rawValue)")
            if update == .FW_OK, let texts = snapshotTexts(snap, buffer, size, "racing update_at") {
                expect(texts.value == value, "racing update_at wrote \"\(value)\", snapshot holds \"\(texts.value)\"")
            }
            for i in 0..<2 { pair[i] = fw_snapshot(); pair[i].size = MemoryLayout<fw_snapshot>.size }
            var count: UInt = 0
            let all = fw_form_snapshots(form, &pair, 2, &count, buffer, UInt(size), nil)
            expect(all == .FW_OK || all == .FW_ERR_INVALID_HANDLE, "racing form_snapshots gave \(all.rawValue)")
            if all == .FW_OK { expect(count == 1, "racing form_snapshots: \(count) fields") }
            var match: UInt32 = 0
            let limits = fw_form_match_limits(form, &match, nil, nil)
            expect(limits == .FW_OK || limits == .FW_ERR_INVALID_HANDLE, "racing match_limits gave \(limits.rawValue)")
            continue
        }
        let bits = freedHandles.withLock { ring in ring.isEmpty ? 0 : ring[random.next(ring.count)] }
        guard bits != 0 else { sched_yield(); continue }
        let form = OpaquePointer(bitPattern: bits)
        var index: UInt = 0, count: UInt = 0, match: UInt32 = 0
        var valueBuffer = [CChar](repeating: 0, count: 16)
        let (added, context) = addChurnField(form, reenter: false, destroy: forbiddenDestroy)
        free(context)  // refused: the caller still owns it
        let statuses: [(String, fw_status)] = [
            ("snapshot_at", fw_field_snapshot_at(form, 0, &snap, buffer, UInt(size))),
            ("snapshot", fw_field_snapshot(form, "c", &snap, buffer, UInt(size))),
            ("update_at", fw_field_update_at(form, 0, "stale", &snap, buffer, UInt(size))),
            ("update", fw_field_update(form, "c", "stale", &snap, nil, 0)),
            ("form_snapshots", fw_form_snapshots(form, &pair, 2, &count, buffer, UInt(size), nil)),
            ("set_value_at", fw_field_set_value_at(form, 0, "stale")),
            ("focus_at", fw_field_focus_at(form, 0)),
            ("blur_at", fw_field_blur_at(form, 0)),
            ("touch_at", fw_field_touch_at(form, 0)),
            ("field_index", fw_form_field_index(form, "c", &index)),
            ("match_limits", fw_form_match_limits(form, &match, nil, nil)),
            ("field_count", fw_form_field_count(form, &count)),
            ("value", fw_field_value(form, "c", &valueBuffer, 16, nil)),
            ("add_field_with_rules", added),
            ("free", fw_form_free(form)),
        ]
        for (what, status) in statuses {
            expect(status == .FW_ERR_INVALID_HANDLE, "\(what) on a freed form's handle gave \(status.rawValue)")
        }
        expect(fw_last_error_code() == .FW_ERR_INVALID_HANDLE, "last error after a freed handle is \(fw_last_error_code().rawValue)")
        freedHandleCalls.add(statuses.count, ordering: .relaxed)
    }
}

// MARK: Main

@main
struct ThreadStress {
    static func main() {
        let start = fw_form_live_count()
        var shared: OpaquePointer? = nil
        expect(fw_form_create(&shared) == .FW_OK, "create shared failed")
        expect(fw_form_add_field(shared, "shared", "Shared", nil) == .FW_OK, "add shared failed")
        expect(fw_form_add_field(shared, "confirm", nil, nil) == .FW_OK, "add confirm failed")
        expect(fw_field_add_regex(shared, "shared", "(t|bad-)[0-9]+-[0-9]+", nil) == .FW_OK, "regex failed")
        expect(addValidator(shared, "shared", reenter: true) == .FW_OK, "add shared validator failed")
        expect(fw_field_add_matches(shared, "confirm", "shared", nil) == .FW_OK, "matches failed")

        let results = (0..<threadCount).map { ThreadResult(index: $0) }
        // Snapshot threads write as threads threadCount..., so their values name them in `progress`.
        let snapshotResults = (0..<snapshotThreads).map { ThreadResult(index: threadCount + $0) }
        let churnResults = (0..<churnThreads).map { ThreadResult(index: 1000 + $0) }
        let staleResults = (0..<staleThreads).map { ThreadResult(index: 2000 + $0) }
        let batchResults = (0..<batchThreads).map { ThreadResult(index: 3000 + $0) }
        let asyncForm = asyncResolvers > 0 ? makeAsyncForm() : nil
        let asyncResults = (0..<(asyncResolvers > 0 ? asyncResolvers + 1 : 0)).map { ThreadResult(index: 4000 + $0) }
        asyncTyping.store(asyncResolvers > 0 ? 1 : 0, ordering: .releasing)
        var threads: [pthread_t] = []
        churnRunning.store(churnThreads, ordering: .releasing)
        let jobs = results.map { ($0, Role.classic) } + snapshotResults.map { ($0, Role.snapshots) }
            + churnResults.map { ($0, Role.churn) } + staleResults.map { ($0, Role.stale) }
            + batchResults.map { ($0, Role.batch) }
            + asyncResults.map { ($0, $0.index == 4000 ? Role.asyncTyper : Role.asyncResolver) }
        for (result, role) in jobs {
            let form = role == .asyncTyper || role == .asyncResolver ? asyncForm : shared
            let box = Unmanaged.passRetained(Job(result: result, shared: UInt(bitPattern: form), role: role)).toOpaque()
            var thread = pthread_t()
            let created = pthread_create(&thread, nil, threadEntry, box)
            expect(created == 0, "pthread_create failed")
            threads.append(thread)
        }
        for thread in threads { pthread_join(thread, nil) }
        if asyncForm != nil { finishAsync(asyncForm) }

        // Final consistency.
        let written = Set((results + snapshotResults).flatMap(\.written))
        let (status, final) = readValue(shared, "shared")
        expect(status == .FW_OK && (final.isEmpty || written.contains(final)), "shared field holds \"\(final)\", never written")
        var valid = false
        expect(fw_form_validate(shared, &valid) == .FW_OK, "final validate failed")
        var first = [CChar](repeating: 0, count: 64)
        _ = fw_form_first_invalid(shared, &first, 64, nil)
        expect(valid == (string(first) == ""), "validate \(valid) but first_invalid \"\(string(first))\"")
        for result in results where result.index >= sharedThreads {
            let (s, value) = readValue(result.privateForm, "own")
            expect(s == .FW_OK && value == result.privateValue, "thread \(result.index)'s form holds \"\(value)\", last wrote \"\(result.privateValue)\"")
        }
        for result in results { expect(fw_form_free(result.privateForm) == .FW_OK, "free private failed") }
        expect(fw_form_free(shared) == .FW_OK, "free shared failed")
        for slot in 0..<4 {
            let bits = exchangeSlot(slot, 0)
            if bits != 0 { expect(fw_form_free(OpaquePointer(bitPattern: bits)) == .FW_OK, "free handoff failed") }
        }
        expect(fw_form_live_count() == start, "live count \(fw_form_live_count()), started at \(start)")
        let stored = contextsStored.load(ordering: .relaxed), destroyed = contextsDestroyed.load(ordering: .relaxed)
        expect(stored == destroyed, "\(stored) validator contexts stored, \(destroyed) destroyed")
        expect(busySeen.load(ordering: .relaxed) > 0, "no re-entrant call was exercised")

        expect(snapshotThreads == 0 || snapshotsChecked.load(ordering: .relaxed) > 0, "no snapshot was checked")
        expect(batchThreads == 0 || batchesChecked.load(ordering: .relaxed) > 0, "no batch was checked")
        expect(staleThreads == 0 || churnThreads == 0 || freedHandleCalls.load(ordering: .relaxed) > 0, "no freed handle was used")

        expect(asyncResolvers == 0 || asyncHanded.load(ordering: .relaxed) > 0, "no asynchronous request was handed out")
        let operations = (results + snapshotResults + churnResults + staleResults + batchResults + asyncResults).reduce(0) { $0 + $1.operations }
        print("thread-stress: \(threadCount) threads (\(sharedThreads) on the shared form) + \(snapshotThreads) snapshot, "
              + "\(churnThreads) churn, \(staleThreads) stale-handle threads, \(operations) operations, "
              + "\(validatorCalls.load(ordering: .relaxed)) validator calls, \(busySeen.load(ordering: .relaxed)) re-entrant BUSY, "
              + "\(staleHandleCalls.load(ordering: .relaxed)) calls on hand-off handles, \(snapshotsChecked.load(ordering: .relaxed)) snapshots checked, "
              + "\(churnedForms.load(ordering: .relaxed)) forms churned, \(freedHandleCalls.load(ordering: .relaxed)) calls on freed handles, "
              + "\(churnRaces.load(ordering: .relaxed)) rounds on a form being freed, \(batchesChecked.load(ordering: .relaxed)) batches checked, "
              + "\(stored) contexts stored/destroyed, \(asyncSummary()), "
              + "\(failures.load(ordering: .relaxed)) failed checks")
        exit(failures.load(ordering: .relaxed) == 0 ? 0 : 1)
    }
}

/// A plain C thread entry (not actor-isolated, unlike a closure written inside main()).
private func threadEntry(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
    let shared = OpaquePointer(bitPattern: job.shared)
    switch job.role {
    case .classic: work(job.result, shared: shared)
    case .snapshots: snapshotWork(job.result, shared: shared)
    case .churn: churnWork(job.result)
    case .stale: staleWork(job.result)
    case .batch: batchWork(job.result, shared: shared)
    case .asyncTyper: asyncTyperWork(job.result, form: shared)
    case .asyncResolver: asyncResolverWork(job.result, form: shared)
    }
    return nil
}

private enum Role { case classic, snapshots, churn, stale, batch, asyncTyper, asyncResolver }

// MARK: Batches

/// Batches on a form of this thread's (on the library's own worker threads) while its fields are
/// written between batches, and on the shared form while others write it. Record i of a batch is
/// "u<i>" (valid for ^u[0-9]+$) or "x<i>" (invalid); its confirm is the same value, or not.
private func batchWork(_ result: ThreadResult, shared: OpaquePointer?) {
    var form: OpaquePointer? = nil
    expect(fw_form_create(&form) == .FW_OK, "batch: create failed")
    expect(fw_form_add_field(form, "v", nil, nil) == .FW_OK, "batch: add v failed")
    expect(fw_field_add_regex(form, "v", "^u[0-9]+$", nil) == .FW_OK, "batch: regex failed")
    expect(fw_form_add_field(form, "c", nil, nil) == .FW_OK, "batch: add c failed")
    expect(fw_field_add_matches(form, "c", "v", nil) == .FW_OK, "batch: matches failed")
    let records = 6_000
    var data: [UInt8] = [], confirm: [UInt8] = []
    var offsets: [Int32] = [0], confirmOffsets: [Int32] = [0]
    for i in 0..<records {
        let value = Array((i % 3 == 0 ? "x\(i)" : "u\(i)").utf8)
        data += value
        offsets.append(Int32(data.count))
        confirm += i % 5 == 0 ? Array("other".utf8) : value
        confirmOffsets.append(Int32(confirm.count))
    }
    var valid = [UInt8](repeating: 9, count: records)
    var failing = [Int32](repeating: 9, count: records * 2)
    let rounds = max(4, opsPerThread / 500)
    for round in 0..<rounds {
        result.operations += 1
        let status: fw_status = data.withUnsafeBufferPointer { d in
            confirm.withUnsafeBufferPointer { c in
                offsets.withUnsafeBufferPointer { o in
                    confirmOffsets.withUnsafeBufferPointer { co in
                        var columns = [fw_column(), fw_column()]
                        for (index, (bytes, starts)) in [(d, o), (c, co)].enumerated() {
                            columns[index].size = MemoryLayout<fw_column>.size
                            columns[index].offsets = UnsafeRawPointer(starts.baseAddress)
                            columns[index].data = UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self)
                            columns[index].data_size = bytes.count
                            columns[index].offset_size = 4
                        }
                        var invalid: UInt = 0
                        return fw_form_check_batch(form, columns, 2, UInt(records), 2, &valid, &failing, nil, &invalid)
                    }
                }
            }
        }
        expect(status == .FW_OK, "batch gave \(status.rawValue)")
        for i in 0..<records {
            let vOK = i % 3 != 0, cOK = i % 5 != 0
            if valid[i] != ((vOK && cOK) ? 1 : 0) || failing[i * 2] != (vOK ? -1 : 0) || failing[i * 2 + 1] != (cOK ? -1 : 0) {
                report("batch record \(i): valid \(valid[i]), failing \(failing[i * 2]), \(failing[i * 2 + 1])")
                break
            }
        }
        batchesChecked.add(1, ordering: .relaxed)
        // Interactive writes between batches; the batch must not have changed them.
        let mine = "u\(round)"
        expect(fw_field_set_value(form, "v", mine) == .FW_OK, "batch: set v failed")
        let (read, text) = readValue(form, "v")
        expect(read == .FW_OK && text == mine, "batch form's v holds \"\(text)\", wrote \"\(mine)\"")
        // The shared form: one record naming its field; its custom validator runs on this thread.
        let sharedStatus: fw_status = Array("t1-1".utf8).withUnsafeBufferPointer { bytes in
            var column = fw_column()
            let starts: [Int32] = [0, Int32(bytes.count)]
            return starts.withUnsafeBufferPointer { o in
                column.size = MemoryLayout<fw_column>.size
                column.offsets = UnsafeRawPointer(o.baseAddress)
                column.data = UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self)
                column.data_size = bytes.count
                column.offset_size = 4
                column.field_id = UnsafePointer(strdup("shared"))
                defer { free(UnsafeMutableRawPointer(mutating: column.field_id)) }
                var one: UInt8 = 9
                var invalid: UInt = 0
                return fw_form_check_batch(shared, &column, 1, 1, 2, &one, nil, nil, &invalid)
            }
        }
        expect(sharedStatus == .FW_OK, "batch on the shared form gave \(sharedStatus.rawValue)")
    }
    expect(fw_form_free(form) == .FW_OK, "batch: free failed")
}

private final class Job: @unchecked Sendable {
    let result: ThreadResult
    let shared: UInt
    let role: Role
    init(result: ThreadResult, shared: UInt, role: Role) { self.result = result; self.shared = shared; self.role = role }
}

// MARK: Asynchronous requests: resolvers on several threads while another types

private let asyncResolvers = count("STRESS_ASYNC_RESOLVERS", 3)
/// The typing thread's clock (ms): it ticks the form to it, the resolvers take requests due by it.
private let asyncClock = Atomic<UInt64>(0)
/// Typing threads still running (the resolvers go on until none is and they hold nothing).
private let asyncTyping = Atomic<Int>(0)
/// The n of the value "u<n>" / "n<n>" the typing thread is about to set (released before the set).
private let asyncProgress = Atomic<Int>(-1)
/// Every request id handed out: each must be handed out once, to one thread.
private let handedIDs = Mutex<Set<UInt64>>([])
private let asyncHanded = Atomic<Int>(0)
private let asyncApplied = Atomic<Int>(0)
private let asyncStale = Atomic<Int>(0)
private let asyncSnapshots = Atomic<Int>(0)

/// "nick"'s rules: "a" (debounce 2 ms) and "b" (debounce 0), given as FW_RULE_ASYNC elements.
private func addNick(_ form: OpaquePointer?) -> fw_status {
    var rules = [fw_rule](repeating: fw_rule(), count: 2)
    let status = "a".withCString { a in
        "b".withCString { b in
            for i in 0..<2 {
                rules[i].size = MemoryLayout<fw_rule>.size
                rules[i].kind = fw_rule_kind.FW_RULE_ASYNC.rawValue
            }
            (rules[0].text, rules[0].length) = (a, 2)
            (rules[1].text, rules[1].length) = (b, 0)
            return fw_form_add_field_with_rules(form, "nick", nil, nil, &rules, 2)
        }
    }
    return status
}

/// The form the async threads share: "user" (min_length 3, async "available", no debounce) and "nick".
private func makeAsyncForm() -> OpaquePointer? {
    var form: OpaquePointer? = nil
    expect(fw_form_create(&form) == .FW_OK, "async: create failed")
    expect(fw_form_add_field(form, "user", nil, nil) == .FW_OK, "async: add user failed")
    expect(fw_field_add_min_length(form, "user", 3, nil) == .FW_OK, "async: min_length failed")
    expect(fw_field_add_async_rule(form, "user", "available", 0, "taken") == .FW_OK, "async: add_async_rule failed")
    expect(addNick(form) == .FW_OK, "async: add nick failed")
    return form
}

/// Takes a due request (sometimes after a size query, which must hand nothing out: another thread may
/// take that request meanwhile) and checks it: texts inside the buffer at their lengths, a value the
/// typing thread wrote for that field and rule, an id never handed out before. Answers its id.
private func takeAsync(_ form: OpaquePointer?, now: UInt64, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int,
                       sizeFirst: Bool) -> UInt64? {
    var request = fw_request()
    request.size = MemoryLayout<fw_request>.size
    var found = false
    if sizeFirst {
        let query = fw_form_next_request(form, now, &request, nil, 0, &found)
        expect(query == .FW_OK || query == .FW_ERR_BUFFER_TOO_SMALL, "async: size query gave \(query.rawValue)")
        expect((query == .FW_ERR_BUFFER_TOO_SMALL) == found, "async: size query: status \(query.rawValue), found \(found)")
        if found { expect(request.field_id == nil && request.value == nil && request.rule == nil, "async: size query copied texts") }
    }
    let status = fw_form_next_request(form, now, &request, buffer, UInt(size), &found)
    expect(status == .FW_OK, "async: next_request gave \(status.rawValue)")
    guard status == .FW_OK, found else { return nil }
    asyncHanded.add(1, ordering: .relaxed)
    expect(handedIDs.withLock { $0.insert(request.id).inserted }, "async: request \(request.id) handed out twice")
    func text(_ pointer: UnsafePointer<CChar>?, _ length: Int, _ name: String) -> String {
        guard let pointer else { report("async: request \(request.id): \(name) not copied"); return "" }
        let offset = UnsafeRawPointer(buffer).distance(to: UnsafeRawPointer(pointer))
        guard offset >= 0, offset + length < size, pointer[length] == 0, strnlen(pointer, length + 1) == length else {
            report("async: request \(request.id): \(name) at \(offset), length \(length), not NUL-terminated in the buffer")
            return ""
        }
        return String(cString: pointer)
    }
    let field = text(request.field_id, request.field_id_length, "field_id")
    let value = text(request.value, request.value_length, "value")
    let rule = text(request.rule, request.rule_length, "rule")
    expect(request.text_size == request.field_id_length + request.value_length + request.rule_length + 3,
           "async: request \(request.id): text_size \(request.text_size)")
    expect(request.due <= max(now, asyncClock.load(ordering: .acquiring)), "async: request \(request.id) due \(request.due), handed out at \(now)")
    let prefix = field == "user" ? "u" : "n"
    let rules = field == "user" ? ["available"] : ["a", "b"]
    expect((field == "user" || field == "nick") && rules.contains(rule), "async: request for \(field)/\(rule)")
    if let n = Int(value.dropFirst()), value.hasPrefix(prefix) {
        expect(n <= asyncProgress.load(ordering: .acquiring), "async: value \"\(value)\" not yet written")
    } else {
        report("async: request \(request.id) for \(field) with value \"\(value)\", never written")
    }
    return request.id
}

/// Resolves `id` with a random verdict; the status must be FW_OK, applied or stale.
private func resolveAsync(_ form: OpaquePointer?, _ id: UInt64, _ random: inout Random) {
    let verdict = Int32(random.next(3))
    var stale = false
    let status = random.next(2) == 0
        ? fw_form_resolve(form, id, verdict, nil, &stale)
        : fw_form_resolve(form, id, verdict, "host \(id)", &stale)
    expect(status == .FW_OK, "async: resolve(\(id)) gave \(status.rawValue): \(lastErrorMessage())")
    if status == .FW_OK && stale { asyncStale.add(1, ordering: .relaxed) }
    if status == .FW_OK && !stale { asyncApplied.add(1, ordering: .relaxed) }
}

/// A field of the async form read in one snapshot: pending reads as nothing to show.
private func checkAsyncSnapshot(_ form: OpaquePointer?, _ index: UInt, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) {
    var snap = fw_snapshot()
    snap.size = MemoryLayout<fw_snapshot>.size
    let status = fw_field_snapshot_at(form, index, &snap, buffer, UInt(size))
    expect(status == .FW_OK, "async: snapshot_at(\(index)) gave \(status.rawValue)")
    guard status == .FW_OK else { return }
    asyncSnapshots.add(1, ordering: .relaxed)
    if snap.validity == fw_validity.FW_VALIDITY_PENDING.rawValue {
        expect(snap.message_length == 0 && snap.display == fw_display.FW_DISPLAY_NONE.rawValue && snap.failing_rule == -1
               && snap.error_count == 0, "async: a pending field shows message \(snap.message_length), display \(snap.display)")
        expect(snap.tint == fw_tint.FW_TINT_ACCENT.rawValue, "async: a pending field's tint \(snap.tint)")
    }
    expect((snap.validity == fw_validity.FW_VALIDITY_INVALID.rawValue) == (snap.message_length > 0),
           "async: validity \(snap.validity) with message_length \(snap.message_length)")
}

/// The typing thread: ticks its clock, sets values (each one cancels the field's requests), submits,
/// resets, removes and re-adds a field, reads snapshots, while the resolvers take and resolve.
private func asyncTyperWork(_ result: ThreadResult, form: OpaquePointer?) {
    var random = Random(state: UInt64(result.index + 1) &* 0x2545_F491_4F6C_DD1D)
    let size = 256
    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
    defer { buffer.deallocate() }
    var nickPresent = true
    for n in 0..<opsPerThread {
        result.operations += 1
        asyncClock.store(UInt64(n), ordering: .releasing)
        expect(fw_form_tick(form, UInt64(n)) == .FW_OK, "async: tick failed")
        asyncProgress.store(n, ordering: .releasing)
        switch random.next(12) {
        case 0...5:
            // Mostly a value the check runs on; sometimes one too short (no request) or empty.
            let value = random.next(8) == 0 ? "u" : random.next(16) == 0 ? "" : "u\(n)"
            expect(fw_field_set_value(form, "user", value) == .FW_OK, "async: set user failed")
        case 6, 7:
            if nickPresent { expect(fw_field_set_value(form, "nick", "n\(n)") == .FW_OK, "async: set nick failed") }
        case 8:
            var outcome: Int32 = -1
            expect(fw_form_submit(form, nil, &outcome) == .FW_OK && (0...2).contains(outcome), "async: submit gave \(outcome)")
        case 9:
            if random.next(4) == 0 {
                expect(fw_form_reset(form) == .FW_OK, "async: reset failed")
            } else {
                var valid = false
                expect(fw_form_validate(form, &valid) == .FW_OK, "async: validate failed")
            }
        case 10:
            var fields: UInt = 0
            expect(fw_form_field_count(form, &fields) == .FW_OK, "async: field_count failed")
            for index in 0..<fields { checkAsyncSnapshot(form, index, buffer, size) }
            var info = fw_form_info()
            info.size = MemoryLayout<fw_form_info>.size
            expect(fw_form_get_info(form, &info) == .FW_OK && info.now_ms == UInt64(n) && info.pending_count <= Int(fields),
                   "async: info now \(info.now_ms) at \(n), pending \(info.pending_count)")
        default:
            if random.next(8) == 0 {
                // Removal cancels the field's requests (handed-out ones become stale); then it comes back.
                if nickPresent { expect(fw_form_remove_field(form, "nick") == .FW_OK, "async: remove nick failed") }
                else { expect(addNick(form) == .FW_OK, "async: re-add nick failed") }
                nickPresent.toggle()
            } else {
                var due: UInt64 = 0, scheduled = false
                expect(fw_form_next_due_time(form, &due, &scheduled) == .FW_OK, "async: next_due_time failed")
                expect(!scheduled || due <= UInt64(n) + 2, "async: next due \(due) at \(n)")
            }
        }
    }
    asyncTyping.subtract(1, ordering: .releasing)
}

/// A resolving thread: takes due requests at the typing thread's clock, holds a few, resolves them in
/// any order (results for values changed meanwhile come back stale), throws garbage ids in.
private func asyncResolverWork(_ result: ThreadResult, form: OpaquePointer?) {
    var random = Random(state: UInt64(result.index + 1) &* 0x9FB2_1C65_1E98_DF25)
    let size = 256
    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
    defer { buffer.deallocate() }
    var held: [UInt64] = []
    while true {
        result.operations += 1
        let typing = asyncTyping.load(ordering: .acquiring) > 0
        let took = takeAsync(form, now: asyncClock.load(ordering: .acquiring), buffer, size, sizeFirst: random.next(4) == 0)
        if let took { held.append(took) }
        // At most four held; all of them once the typing is over.
        while !held.isEmpty && (held.count > random.next(4) || !typing) {
            resolveAsync(form, held.remove(at: random.next(held.count)), &random)
        }
        if random.next(32) == 0 {
            let garbage: [UInt64] = [0, UInt64.max, UInt64(Int64.max) + 7]
            let status = fw_form_resolve(form, garbage[random.next(3)], 0, nil, nil)
            expect(status == .FW_ERR_UNKNOWN_REQUEST, "async: a garbage id gave \(status.rawValue)")
            expect(fw_form_resolve(form, 1, 77, nil, nil) == .FW_ERR_INVALID_ARGUMENT, "async: a garbage verdict was taken")
        }
        if !typing && took == nil && held.isEmpty { break }
        if took == nil { sched_yield() }
    }
}

/// After the join: every request left is taken and resolved; then nothing is pending, every id was
/// handed out once and answered once, and the form counted exactly the stale answers.
private func finishAsync(_ form: OpaquePointer?) {
    var random = Random(state: 0x51_7CC1_B727_220A)
    let size = 256
    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
    defer { buffer.deallocate() }
    asyncClock.store(UInt64(opsPerThread) + 10, ordering: .releasing)
    while let id = takeAsync(form, now: UInt64(opsPerThread) + 10, buffer, size, sizeFirst: false) { resolveAsync(form, id, &random) }
    var info = fw_form_info()
    info.size = MemoryLayout<fw_form_info>.size
    expect(fw_form_get_info(form, &info) == .FW_OK, "async: final info failed")
    let handed = asyncHanded.load(ordering: .relaxed), applied = asyncApplied.load(ordering: .relaxed)
    let stale = asyncStale.load(ordering: .relaxed)
    expect(info.pending_count == 0, "async: \(info.pending_count) fields still pending after the drain")
    expect(applied + stale == handed, "async: \(handed) requests handed out, \(applied) applied + \(stale) stale")
    expect(info.stale_results == stale, "async: the form counted \(info.stale_results) stale results, the resolvers \(stale)")
    expect(handed == 0 || asyncResolvers == 0 || handedIDs.withLock { $0.count } == handed, "async: ids handed out more than once")
    expect(fw_form_free(form) == .FW_OK, "async: free failed")
}

/// "handed/applied/stale/snapshots" for the summary line.
private func asyncSummary() -> String {
    "\(asyncResolvers) async resolvers: \(asyncHanded.load(ordering: .relaxed)) requests handed out, "
        + "\(asyncApplied.load(ordering: .relaxed)) applied, \(asyncStale.load(ordering: .relaxed)) stale, "
        + "\(asyncSnapshots.load(ordering: .relaxed)) async snapshots"
}
