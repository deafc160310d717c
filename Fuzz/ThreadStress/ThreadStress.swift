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
// At the end: the shared field holds one of the written values, private forms hold their last value,
// fw_form_live_count is back to its start and every stored validator context was destroyed once.
// Exit status 0 only when every check passed (TSan reports are turned into a failure by the script).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

// MARK: Settings and shared counters

private func setting(_ name: String, _ fallback: Int) -> Int {
    guard let raw = getenv(name), let value = Int(String(cString: raw)), value > 0 else { return fallback }
    return value
}
private let threadCount = setting("STRESS_THREADS", 8)
private let opsPerThread = setting("STRESS_OPS", 10000)
private let sharedThreads = min(threadCount, setting("STRESS_SHARED_THREADS", max(1, threadCount / 2)))

private let failures = Atomic<Int>(0)
private let busySeen = Atomic<Int>(0)
private let validatorCalls = Atomic<Int>(0)
private let contextsStored = Atomic<Int>(0)
private let contextsDestroyed = Atomic<Int>(0)
private let staleHandleCalls = Atomic<Int>(0)
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
        var threads: [pthread_t] = []
        for result in results {
            let box = Unmanaged.passRetained(Job(result: result, shared: UInt(bitPattern: shared))).toOpaque()
            var thread = pthread_t()
            let created = pthread_create(&thread, nil, threadEntry, box)
            expect(created == 0, "pthread_create failed")
            threads.append(thread)
        }
        for thread in threads { pthread_join(thread, nil) }

        // Final consistency.
        let written = Set(results.flatMap(\.written))
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

        let operations = results.reduce(0) { $0 + $1.operations }
        print("thread-stress: \(threadCount) threads (\(sharedThreads) on the shared form), \(operations) operations, "
              + "\(validatorCalls.load(ordering: .relaxed)) validator calls, \(busySeen.load(ordering: .relaxed)) re-entrant BUSY, "
              + "\(staleHandleCalls.load(ordering: .relaxed)) calls on hand-off handles, \(stored) contexts stored/destroyed, "
              + "\(failures.load(ordering: .relaxed)) failed checks")
        exit(failures.load(ordering: .relaxed) == 0 ? 0 : 1)
    }
}

/// A plain C thread entry (not actor-isolated, unlike a closure written inside main()).
private func threadEntry(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
    work(job.result, shared: OpaquePointer(bitPattern: job.shared))
    return nil
}

private final class Job: @unchecked Sendable {
    let result: ThreadResult
    let shared: UInt
    init(result: ThreadResult, shared: UInt) { self.result = result; self.shared = shared }
}
