// Shared by the libFuzzer harnesses (Fuzz/<name>). Compiled into each harness's own module, which imports
// FormwellC, so the fw_* functions are called directly as Swift functions with exactly the C-ABI
// signatures (pointers, sizes, Int32 statuses).
import FormwellC
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
// The ABI's C structs and callback types (fw_snapshot, fw_rule, fw_validate_fn, fw_destroy_fn) come from
// this clang module; re-exported so every harness file of the module sees them.
@_exported import CFormwellTypes

// MARK: Failing loudly

/// Aborts with a message that scripts/fuzz.sh (and a human) can recognise. libFuzzer turns the abort
/// into a crash report and saves the input.
func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    let text = "FORMWELL-FUZZ INVARIANT FAILED (\(file):\(line)): \(message)\n"
    text.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
    abort()
}

func check(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition { fail(message(), file: file, line: line) }
}

// MARK: Reading the fuzz input

/// Consumes the fuzz input front to back; when it runs out every read answers zero / empty.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var position = 0

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    var isEmpty: Bool { position >= bytes.count }
    var remaining: Int { max(0, bytes.count - position) }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    mutating func int32() -> Int32 {
        var value: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) { value |= UInt32(byte()) << UInt32(shift) }
        return Int32(bitPattern: value)
    }

    mutating func uint64() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return value
    }

    /// A length-prefixed chunk (one length byte, at most `limit` bytes).
    mutating func chunk(limit: Int = 255) -> [UInt8] {
        let count = min(Int(byte()), limit, remaining)
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    /// Everything up to (not including) `separator`, or to the end.
    mutating func segment(separator: UInt8) -> [UInt8] {
        var out: [UInt8] = []
        while position < bytes.count {
            let b = bytes[position]
            position += 1
            if b == separator { break }
            out.append(b)
        }
        return out
    }
}

// MARK: C strings

/// A malloc'd, NUL-terminated copy of `bytes` (which may hold NULs or invalid UTF-8), sized exactly so
/// AddressSanitizer catches any read past the terminator. Freed after `body`.
func withCString<R>(_ bytes: [UInt8]?, _ body: (UnsafePointer<CChar>?) throws -> R) rethrows -> R {
    guard let bytes else { return try body(nil) }
    let raw = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
    defer { free(raw) }
    for (i, b) in bytes.enumerated() { raw[i] = CChar(bitPattern: b) }
    raw[bytes.count] = 0
    return try body(UnsafePointer(raw))
}

/// What a C function sees of `bytes`: everything before the first NUL.
func cView(_ bytes: [UInt8]) -> [UInt8] {
    if let nul = bytes.firstIndex(of: 0) { return Array(bytes[..<nul]) }
    return bytes
}

func isValidUTF8(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in
        // All-ASCII (the common case) is valid without building a String.
        var ascii = true
        for b in buffer where b >= 0x80 { ascii = false; break }
        return ascii || String(validating: buffer, as: UTF8.self) != nil
    }
}

/// The length of the longest valid UTF-8 prefix: where the library must report the first bad byte.
func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
    if isValidUTF8(bytes) { return nil }
    // Independent of the library's own ForwardParser: grow the prefix scalar by scalar by validation.
    var offset = 0
    while offset < bytes.count {
        var advanced = false
        for length in 1...4 where offset + length <= bytes.count {
            if isValidUTF8(Array(bytes[offset..<(offset + length)])) {
                offset += length
                advanced = true
                break
            }
        }
        if !advanced { return offset }
    }
    return offset
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

func show(_ bytes: [UInt8]) -> String {
    if isValidUTF8(bytes) && !bytes.contains(where: { $0 < 0x20 }) { return "\"\(text(bytes))\"" }
    return "[" + bytes.map { String($0, radix: 16) }.joined(separator: " ") + "]"
}

// MARK: Statuses and the thread's last error

/// The highest status code the library knows (fw_status_string names every one below it).
let highestStatus: Int32 = {
    var code: Int32 = 0
    while code < 1000 && String(cString: fw_status_string(code + 1)) != "unknown status code" { code += 1 }
    return code
}()

func checkKnown(_ status: fw_status, _ what: @autoclosure () -> String) {
    check((0...highestStatus).contains(status.rawValue), "\(what()) returned unknown status \(status.rawValue)")
}

/// The regex work budget (µs of the cost model) the harnesses give every form they create, instead
/// of the default 5,000: a catastrophic pattern runs to its step limit (`WorkBound`), which this
/// budget makes 50 times smaller, so such inputs stay cheap and the fuzzers reach more code.
/// CallSequences' opcode 35 still sets any limit. See Fuzz/README.md.
let fuzzTimeLimit: UInt32 = 100

/// Checks a new form's time limit is the documented default, then sets `fuzzTimeLimit`.
func shortenTimeLimit(_ form: OpaquePointer?) {
    var micros: UInt32 = 0
    check(fw_form_time_limit(form, &micros) == .FW_OK && micros == 5_000, "a new form's time limit is \(micros) µs, not 5,000")
    check(fw_form_set_time_limit(form, fuzzTimeLimit) == .FW_OK, "fw_form_set_time_limit(\(fuzzTimeLimit)) failed")
}

/// After every call: the thread's last error reflects that call exactly.
func checkLastError(_ status: fw_status, _ what: @autoclosure () -> String) {
    checkKnown(status, what())
    let last = fw_last_error_code()
    check(last == status, "\(what()): returned \(status.rawValue) but fw_last_error_code says \(last.rawValue)")
    let message = lastErrorMessage()
    if status == .FW_OK {
        check(message.isEmpty, "\(what()): succeeded but last error message is \(show(message))")
        check(fw_last_error_offset() == -1, "\(what()): succeeded but last error offset is \(fw_last_error_offset())")
    } else {
        check(!message.isEmpty, "\(what()): failed with \(status.rawValue) but left no message")
        check(isValidUTF8(message), "\(what()): last error message is not UTF-8: \(show(message))")
        let offset = fw_last_error_offset()
        if status == .FW_ERR_INVALID_SPEC {
            // A spec error has an offset only when PCRE2 refused one of its patterns.
            check(offset == -1 || text(message).contains(".pattern: "), "\(what()): spec error with offset \(offset): \(show(message))")
        } else if status != .FW_ERR_INVALID_UTF8 && status != .FW_ERR_INVALID_PATTERN {
            check(offset == -1, "\(what()): status \(status.rawValue) but offset \(offset)")
        }
    }
    // fw_status_string never returns NULL or non-UTF-8 text (a constant per code: checked once per code
    // and process, unless FORMWELL_FUZZ_FULL_SNAPSHOTS=1).
    let code = Int(status.rawValue)
    if fullSnapshotsAlways || code >= statusStringChecked.count || !statusStringChecked[code] {
        check(isValidUTF8(cBytes(fw_status_string(status.rawValue))), "fw_status_string(\(status.rawValue)) is not UTF-8")
        if code < statusStringChecked.count { statusStringChecked[code] = true }
    }
}
nonisolated(unsafe) private var statusStringChecked = [Bool](repeating: false, count: 64)

func cBytes(_ pointer: UnsafePointer<CChar>) -> [UInt8] {
    Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
}

/// The calling thread's last error message; checks the call itself leaves the last error alone.
func lastErrorMessage() -> [UInt8] {
    let before = fw_last_error_code()
    let offsetBefore = fw_last_error_offset()
    // The two-step read (length query, exact buffer) on the sampled steps, else one call into a fixed
    // buffer (falling back to the two steps when the message does not fit).
    let bytes: [UInt8]?
    if fullSnapshotsAlways || snapshotCalls % fullSnapshotEvery == fullSnapshotPhase {
        bytes = readString("fw_last_error_message") { buf, size, len in fw_last_error_message(buf, size, len) }
    } else {
        bytes = quickString("fw_last_error_message") { buf, size, len in fw_last_error_message(buf, size, len) }
    }
    check(fw_last_error_code() == before, "fw_last_error_message changed the last error code")
    check(fw_last_error_offset() == offsetBefore, "fw_last_error_message changed the last error offset")
    return bytes ?? []
}

// MARK: Buffer-style outputs

typealias StringCall = (UnsafeMutablePointer<CChar>?, UInt, UnsafeMutablePointer<UInt>?) -> fw_status

/// Reads a whole string in the two-step style (length query, then exact buffer); nil when the call
/// fails for a reason other than the buffer. Checks the two steps agree and the buffer is terminated.
func readString(_ what: String, _ call: StringCall) -> [UInt8]? {
    var length: UInt = 12345
    let first = call(nil, 0, &length)
    checkKnown(first, what)
    guard first == .FW_OK else {
        check(first != .FW_ERR_BUFFER_TOO_SMALL, "\(what): length query (NULL, 0) gave BUFFER_TOO_SMALL")
        return nil
    }
    check(length < 1 << 24, "\(what): absurd length \(length)")
    let size = Int(length) + 1
    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
    defer { buffer.deallocate() }
    buffer.initialize(repeating: 0x55, count: size)
    var second: UInt = 0
    let status = call(buffer, UInt(size), &second)
    check(status == .FW_OK, "\(what): exact-size buffer gave \(status.rawValue)")
    check(second == length, "\(what): length \(length) then \(second)")
    check(buffer[Int(length)] == 0, "\(what): not NUL-terminated at its length")
    let bytes = (0..<Int(length)).map { UInt8(bitPattern: buffer[$0]) }
    check(!bytes.contains(0), "\(what): embedded NUL in returned text")
    check(isValidUTF8(bytes), "\(what): returned text is not UTF-8: \(show(bytes))")
    return bytes
}

/// Calls a buffer-style function with a caller-chosen buffer (size 0 with NULL or a real pointer,
/// NULL with a size, or an exactly-sized heap block so ASan sees any overflow) and checks the
/// documented contract against `expected` (the full text, when known).
/// Returns the status.
@discardableResult
func probeBuffer(_ what: String, size: Int, nullBuffer: Bool, nullLength: Bool, expected: [UInt8]?,
                 _ call: StringCall) -> fw_status {
    let lengthBox = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
    defer { lengthBox.deallocate() }
    lengthBox.pointee = 0xDEAD
    let lengthPointer: UnsafeMutablePointer<UInt>? = nullLength ? nil : lengthBox
    let buffer: UnsafeMutablePointer<CChar>? = nullBuffer ? nil : malloc(max(size, 1))!.assumingMemoryBound(to: CChar.self)
    defer { free(buffer) }
    if let buffer { for i in 0..<max(size, 1) { buffer[i] = 0x55 } }
    let status = call(buffer, UInt(size), lengthPointer)
    checkKnown(status, what)
    guard let expected else {
        // Failure unrelated to the buffer: "" in the buffer.
        if status != .FW_OK && status != .FW_ERR_BUFFER_TOO_SMALL, let buffer, size > 0 {
            check(buffer[0] == 0, "\(what): failed with \(status.rawValue) but buffer does not hold \"\"")
        }
        return status
    }
    let bytes = expected
    if !nullLength && (status == .FW_OK || status == .FW_ERR_BUFFER_TOO_SMALL) {
        check(lengthBox.pointee == UInt(bytes.count), "\(what): out_length \(lengthBox.pointee), text has \(bytes.count) bytes")
    }
    if nullBuffer {
        if size == 0 { check(status == .FW_OK, "\(what): (NULL, 0) gave \(status.rawValue)") }
        else { check(status == .FW_ERR_NULL_ARGUMENT, "\(what): (NULL, \(size)) gave \(status.rawValue)") }
        return status
    }
    guard let buffer else { return status }
    if size == 0 {
        check(status == .FW_ERR_BUFFER_TOO_SMALL, "\(what): size 0 gave \(status.rawValue)")
        check(buffer[0] == 0x55, "\(what): size 0 but the buffer was written")
        return status
    }
    if size >= bytes.count + 1 {
        check(status == .FW_OK, "\(what): size \(size) >= \(bytes.count + 1) gave \(status.rawValue)")
        check((0..<bytes.count).allSatisfy { UInt8(bitPattern: buffer[$0]) == bytes[$0] } && buffer[bytes.count] == 0,
              "\(what): wrong text in a large enough buffer")
        return status
    }
    check(status == .FW_ERR_BUFFER_TOO_SMALL, "\(what): size \(size) < \(bytes.count + 1) gave \(status.rawValue)")
    guard let cut = (0..<size).first(where: { buffer[$0] == 0 }) else {
        fail("\(what): truncated output not NUL-terminated within \(size) bytes")
    }
    check((0..<cut).allSatisfy { UInt8(bitPattern: buffer[$0]) == bytes[$0] }, "\(what): truncated output is not a prefix")
    check(cut == bytes.count || bytes[cut] & 0xC0 != 0x80, "\(what): truncated inside a UTF-8 sequence at \(cut)")
    check(size - 1 - cut <= 3, "\(what): cut at \(cut) though \(size - 1) bytes fit")
    return status
}

// MARK: Whole-form snapshots (observable state)

struct FieldSnapshot: Equatable {
    var id: [UInt8]
    var value: [UInt8]
    var phase: Int32
    var validity: Int32
    var display: Int32
    var touched: Bool
    var message: [UInt8]
    var displayMessage: [UInt8]
    var limitExceeded: Bool
}

struct FormSnapshot: Equatable {
    var fields: [FieldSnapshot]
    var isValid: Bool
    var firstInvalid: [UInt8]
}

/// Everything a C caller can observe about a form; nil for a handle that is not live. Also checks the
/// relations between the queries that hold whatever the rules say.
///
/// Speed: the harnesses take a snapshot before and after nearly every call, so this is their hot path.
/// Every snapshot is read with one fw_form_snapshots call (plus fw_form_field_id per field, is_valid and
/// first_invalid: `quickSnapshot`); on a sample of them (one in `fullSnapshotEvery`, chosen per input so
/// that replaying an input repeats its sample) the whole form is also read through every per-property
/// query (`propertySnapshot`: field_count, field_id, phase, validity, display, touched, limit_exceeded,
/// value, message, display_message in the two-step length/exact-buffer style, is_valid, first_invalid)
/// and the two must agree exactly. FORMWELL_FUZZ_FULL_SNAPSHOTS=1 makes every snapshot do both.
func snapshot(_ form: OpaquePointer?) -> FormSnapshot? {
    let n = snapshotCalls
    snapshotCalls &+= 1
    let quick = quickSnapshot(form)
    if fullSnapshotsAlways || n % fullSnapshotEvery == fullSnapshotPhase {
        let full = propertySnapshot(form)
        check(full == quick, "fw_form_snapshots and the per-property queries disagree:\n  snapshots: \(String(describing: quick))\n  queries:   \(String(describing: full))")
        return full
    }
    if let quick { checkConsistent(quick) }
    return quick
}

/// One snapshot in this many also runs every per-property query (see `snapshot`).
let fullSnapshotEvery = 8
let fullSnapshotsAlways: Bool = getenv("FORMWELL_FUZZ_FULL_SNAPSHOTS").map { String(cString: $0) == "1" } ?? false
nonisolated(unsafe) private var snapshotCalls = 0
nonisolated(unsafe) private var fullSnapshotPhase = 0

/// Called first for every input: restarts the snapshot sample so that an input replayed alone (a crash
/// artifact) takes its full snapshots at the same steps as when it was found. The phase comes from the
/// input's first bytes, so different inputs sample different steps.
func beginInput(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    snapshotCalls = 0
    stepCalls = 0
    idCache.removeAll(keepingCapacity: true)
    var h: UInt32 = 2166136261
    if let data { for i in 0..<min(size, 32) { h = (h ^ UInt32(data[i])) &* 16777619 } }
    fullSnapshotPhase = Int(h >> 7) % fullSnapshotEvery
    stepPhase = Int(h >> 17) % stepCheckEvery
}

/// Called last for every input (`defer`): frees what `beginInput` keeps per input, inside the input, so
/// libFuzzer's malloc/free count of the input balances (else it re-runs the input for a leak check).
func endInput() {
    idCache.removeAll(keepingCapacity: true)
}

/// One step in this many (see `checkThisStep`).
let stepCheckEvery = 4
nonisolated(unsafe) private var stepCalls = 0
nonisolated(unsafe) private var stepPhase = 0

/// Whether the harness's step at hand does its optional whole-form checks: reading the form before a
/// call only to check that a failed (or read-only) call changed nothing, and the fixed-size probes of
/// TextInputs' snapshot reads. One step in `stepCheckEvery`, chosen like the snapshot sample (per input,
/// so a replayed artifact checks the same steps); every step with FORMWELL_FUZZ_FULL_SNAPSHOTS=1.
/// The checks a step's outcome needs (the value read back, the model's predictions) are never skipped.
func checkThisStep() -> Bool {
    let n = stepCalls
    stepCalls &+= 1
    return fullSnapshotsAlways || n % stepCheckEvery == stepPhase
}

// Reused caller memory for quickSnapshot (grown when a form needs more).
nonisolated(unsafe) private var quickCapacity = 0
nonisolated(unsafe) private var quickSnapshots: UnsafeMutableRawPointer? = nil
nonisolated(unsafe) private var quickTextSize = 0
nonisolated(unsafe) private var quickText: UnsafeMutablePointer<CChar>? = nil
nonisolated(unsafe) private var quickID = UnsafeMutablePointer<CChar>.allocate(capacity: 256)
/// The field ids quickSnapshot read, per form handle, for this input. A field's id never changes and
/// fields are only appended, so only the ids of fields added since are read (fw_form_field_id); a
/// removal (AsyncSequences) lowers the count, which drops the handle's ids. The sampled property
/// snapshots read every id again and must agree. Emptied by `beginInput`/`endInput`, unused with
/// FORMWELL_FUZZ_FULL_SNAPSHOTS=1, dropped for a handle that stops answering.
nonisolated(unsafe) private var idCache: [UInt: [[UInt8]]] = [:]

/// A text the library copied: NUL-terminated at its length, no NUL inside, UTF-8.
private func copiedText(_ what: @autoclosure () -> String, _ pointer: UnsafePointer<CChar>?, _ length: UInt) -> [UInt8] {
    guard let pointer else { fail("\(what()): fw_form_snapshots left a text NULL in a large enough buffer") }
    let bytes = Array(UnsafeRawBufferPointer(start: pointer, count: Int(length)))
    check(pointer[Int(length)] == 0, "\(what()): not NUL-terminated at its length \(length)")
    check(!bytes.contains(0), "\(what()): embedded NUL in returned text")
    check(isValidUTF8(bytes), "\(what()): returned text is not UTF-8: \(show(bytes))")
    return bytes
}

/// A fixed-buffer read of a string query (one call when the text fits, else the two-step readString).
private func quickString(_ what: String, _ call: StringCall) -> [UInt8]? {
    var length: UInt = 0
    let status = call(quickID, 256, &length)
    if status == .FW_ERR_BUFFER_TOO_SMALL { return readString(what, call) }
    checkKnown(status, what)
    guard status == .FW_OK else { return nil }
    check(length < 256, "\(what): length \(length) did not fit 256 bytes yet FW_OK")
    return copiedText(what, quickID, length)
}

/// The form as one fw_form_snapshots call sees it (see `snapshot`).
func quickSnapshot(_ form: OpaquePointer?) -> FormSnapshot? {
    var count: UInt = 0, textSize: UInt = 0
    var status: fw_status
    if quickText == nil {
        quickTextSize = 1024
        quickText = UnsafeMutablePointer<CChar>.allocate(capacity: quickTextSize)
    }
    while true {
        for i in 0..<quickCapacity { (quickSnapshots! + i * snapshotSize).storeBytes(of: UInt(snapshotSize), as: UInt.self) }
        status = fw_form_snapshots(form, quickSnapshots?.assumingMemoryBound(to: fw_snapshot.self), UInt(quickCapacity),
                                   &count, quickText, UInt(quickTextSize), &textSize)
        guard status == .FW_ERR_BUFFER_TOO_SMALL else { break }
        if Int(count) > quickCapacity {
            quickCapacity = max(Int(count), 8)
            quickSnapshots?.deallocate()
            quickSnapshots = UnsafeMutableRawPointer.allocate(byteCount: quickCapacity * snapshotSize, alignment: 16)
        } else if Int(textSize) > quickTextSize {
            check(textSize < 1 << 26, "fw_form_snapshots: absurd text size \(textSize)")
            quickTextSize = max(Int(textSize), 1024)
            quickText?.deallocate()
            quickText = UnsafeMutablePointer<CChar>.allocate(capacity: quickTextSize)
        } else {
            fail("fw_form_snapshots: BUFFER_TOO_SMALL with count \(count) <= \(quickCapacity) and text size \(textSize) <= \(quickTextSize)")
        }
    }
    let key = UInt(bitPattern: form)
    guard status == .FW_OK else {
        check(status == .FW_ERR_INVALID_HANDLE, "fw_form_snapshots gave \(status.rawValue)")
        idCache[key] = nil
        return nil
    }
    var ids = fullSnapshotsAlways ? [] : idCache[key] ?? []
    if ids.count > Int(count) { ids = [] }
    while ids.count < Int(count) {
        let index = ids.count
        guard let id = quickString("fw_form_field_id", { fw_form_field_id(form, UInt(index), $0, $1, $2) }) else {
            fail("fw_form_field_id(\(index)) failed with \(fw_last_error_code().rawValue) though fw_form_snapshots counts \(count)")
        }
        ids.append(id)
    }
    if !fullSnapshotsAlways { idCache[key] = ids }
    var fields: [FieldSnapshot] = []
    fields.reserveCapacity(Int(count))
    var textsNeeded = 0
    for index in 0..<Int(count) {
        let m = SnapshotMembers(quickSnapshots! + index * snapshotSize)
        let id = ids[index]
        func name() -> String { "fw_form_snapshots [\(show(id)) at \(index)]" }
        check(m.index == UInt(index), "\(name()): index \(m.index)")
        check(m.touched <= 1 && m.limitExceeded <= 1, "\(name()): bool members hold \(m.touched) / \(m.limitExceeded)")
        let message = copiedText("\(name()) message", m.message, m.messageLength)
        let displayMessage = copiedText("\(name()) display_message", m.displayMessage, m.displayMessageLength)
        let value = copiedText("\(name()) value", m.value, m.valueLength)
        check(m.textSize == m.messageLength + m.displayMessageLength + m.valueLength + 3, "\(name()): text_size \(m.textSize)")
        check(m.validity == fw_validity.FW_VALIDITY_INVALID.rawValue ? m.failingRule >= 0 : m.failingRule == -1,
              "\(name()): validity \(m.validity) but failing_rule \(m.failingRule)")
        textsNeeded += Int(m.textSize)
        fields.append(FieldSnapshot(id: id, value: value, phase: m.phase, validity: m.validity, display: m.display,
                                    touched: m.touched == 1, message: message, displayMessage: displayMessage,
                                    limitExceeded: m.limitExceeded == 1))
    }
    check(Int(textSize) == textsNeeded, "fw_form_snapshots: out_text_size \(textSize), the fields' texts need \(textsNeeded)")
    var isValid = false
    check(fw_form_is_valid(form, &isValid) == .FW_OK, "fw_form_is_valid failed on a live form")
    let firstInvalid = quickString("fw_form_first_invalid") { fw_form_first_invalid(form, $0, $1, $2) } ?? []
    return FormSnapshot(fields: fields, isValid: isValid, firstInvalid: firstInvalid)
}

/// `snapshot` through every per-property query.
func propertySnapshot(_ form: OpaquePointer?) -> FormSnapshot? {
    var count: UInt = 0
    let status = fw_form_field_count(form, &count)
    guard status == .FW_OK else {
        check(status == .FW_ERR_INVALID_HANDLE, "fw_form_field_count gave \(status.rawValue)")
        return nil
    }
    var fields: [FieldSnapshot] = []
    for index in 0..<count {
        guard let id = readString("fw_form_field_id", { fw_form_field_id(form, index, $0, $1, $2) }) else {
            fail("fw_form_field_id(\(index)) failed with \(fw_last_error_code().rawValue) though count is \(count)")
        }
        fields.append(withCString(id) { cid in
            var phase = fw_phase.FW_PHASE_IDLE, validity = fw_validity.FW_VALIDITY_EMPTY
            var display = fw_display.FW_DISPLAY_NONE, touched = false, exceeded = false
            check(fw_field_phase(form, cid, &phase) == .FW_OK, "fw_field_phase failed on a listed field \(show(id))")
            check(fw_field_validity(form, cid, &validity) == .FW_OK, "fw_field_validity failed")
            check(fw_field_display(form, cid, &display) == .FW_OK, "fw_field_display failed")
            check(fw_field_touched(form, cid, &touched) == .FW_OK, "fw_field_touched failed")
            check(fw_field_limit_exceeded(form, cid, &exceeded) == .FW_OK, "fw_field_limit_exceeded failed")
            let value = readString("fw_field_value") { fw_field_value(form, cid, $0, $1, $2) } ?? []
            let message = readString("fw_field_message") { fw_field_message(form, cid, $0, $1, $2) } ?? []
            let displayMessage = readString("fw_field_display_message") { fw_field_display_message(form, cid, $0, $1, $2) } ?? []
            return FieldSnapshot(id: id, value: value, phase: phase.rawValue, validity: validity.rawValue,
                                 display: display.rawValue, touched: touched, message: message,
                                 displayMessage: displayMessage, limitExceeded: exceeded)
        })
    }
    var isValid = false
    check(fw_form_is_valid(form, &isValid) == .FW_OK, "fw_form_is_valid failed on a live form")
    let firstInvalid = readString("fw_form_first_invalid") { fw_form_first_invalid(form, $0, $1, $2) } ?? []
    let snap = FormSnapshot(fields: fields, isValid: isValid, firstInvalid: firstInvalid)
    checkConsistent(snap)
    return snap
}

/// Relations that hold for every form.
func checkConsistent(_ snap: FormSnapshot) {
    // A field waiting for an asynchronous check makes the form not valid without being invalid.
    check(!snap.isValid || snap.firstInvalid.isEmpty, "is_valid \(snap.isValid) but first_invalid \(show(snap.firstInvalid))")
    if snap.isValid { check(!snap.fields.contains { $0.validity == fw_validity.FW_VALIDITY_PENDING.rawValue }, "is_valid while a field is pending") }
    if !snap.firstInvalid.isEmpty {
        check(snap.fields.contains { $0.id == snap.firstInvalid }, "first_invalid names no field")
    }
    var focused = 0
    for f in snap.fields {
        // Only a failure's message names the field (shown when it is written, not on every snapshot).
        func name() -> String { show(f.id) }
        check((0...2).contains(f.phase) && (0...3).contains(f.validity) && (0...2).contains(f.display),
              "\(name()): enum out of range")
        if f.phase == fw_phase.FW_PHASE_FOCUSED.rawValue { focused += 1 }
        if f.phase == fw_phase.FW_PHASE_IDLE.rawValue {
            check(f.validity == fw_validity.FW_VALIDITY_EMPTY.rawValue, "\(name()): idle but validity \(f.validity)")
        }
        if f.validity != fw_validity.FW_VALIDITY_INVALID.rawValue {
            check(f.message.isEmpty, "\(name()): validity \(f.validity) but message \(show(f.message))")
        }
        if !f.touched {
            check(f.display == fw_display.FW_DISPLAY_NONE.rawValue, "\(name()): untouched but display \(f.display)")
        }
        if f.display != fw_display.FW_DISPLAY_ERROR.rawValue {
            check(f.displayMessage.isEmpty, "\(name()): display \(f.display) but display message \(show(f.displayMessage))")
        } else {
            check(!snap.isValid, "\(name()): shows an error but the form is valid")
        }
        if f.value.isEmpty && f.phase == fw_phase.FW_PHASE_FOCUSED.rawValue {
            check(f.validity == fw_validity.FW_VALIDITY_EMPTY.rawValue, "\(name()): focused and empty but validity \(f.validity)")
        }
        // The strict verdict is what both the display (inactive fields) and is_valid use.
        if f.touched && f.phase == fw_phase.FW_PHASE_INACTIVE.rawValue {
            let expected: Int32 = f.validity == fw_validity.FW_VALIDITY_INVALID.rawValue ? 2 : (f.validity == 1 ? 1 : 0)
            check(f.display == expected, "\(name()): inactive+touched, validity \(f.validity) but display \(f.display)")
            if f.display == fw_display.FW_DISPLAY_ERROR.rawValue {
                check(f.displayMessage == f.message, "\(name()): display message differs from message")
            }
        }
    }
    check(focused <= 1, "\(focused) fields are focused at once")
}

// MARK: fw_snapshot: one field's whole state in one call

/// The first version's fw_snapshot (up to `value`): the harnesses are first-version callers, and
/// check that nothing past it is written.
let snapshotSize = MemoryLayout<fw_snapshot>.offset(of: \.visited)!
/// The second version's struct: a declared size from here on gets the second version's members and
/// texts (label, initial value, hint, error list), which these models do not predict, so the sizes
/// they pick stay below it.
let snapshotSecondVersionSize = MemoryLayout<fw_snapshot>.offset(of: \.errors)! + MemoryLayout<UnsafePointer<CChar>?>.size
/// What caller-owned snapshot memory holds before a call (every byte but the `size` members).
let snapshotFill: UInt8 = 0xA5
/// What caller-owned text buffers hold before a call.
let textFill: UInt8 = 0x55

private func snapshotOffset(_ key: PartialKeyPath<fw_snapshot>) -> Int { MemoryLayout<fw_snapshot>.offset(of: key)! }

/// The members of one fw_snapshot as the library left them, read byte-wise at their offsets: any
/// alignment works, and a bool member holding something other than 0 or 1 is caught rather than
/// being undefined behaviour.
struct SnapshotMembers {
    var size: UInt
    var index: UInt
    var phase: Int32
    var validity: Int32
    var display: Int32
    var failingRule: Int32
    var touched: UInt8
    var limitExceeded: UInt8
    var messageLength: UInt
    var displayMessageLength: UInt
    var valueLength: UInt
    var textSize: UInt
    var message: UnsafePointer<CChar>?
    var displayMessage: UnsafePointer<CChar>?
    var value: UnsafePointer<CChar>?

    init(_ raw: UnsafeRawPointer) {
        func word(_ key: PartialKeyPath<fw_snapshot>) -> UInt { raw.loadUnaligned(fromByteOffset: snapshotOffset(key), as: UInt.self) }
        func int32(_ key: PartialKeyPath<fw_snapshot>) -> Int32 { raw.loadUnaligned(fromByteOffset: snapshotOffset(key), as: Int32.self) }
        func byte(_ key: PartialKeyPath<fw_snapshot>) -> UInt8 { raw.load(fromByteOffset: snapshotOffset(key), as: UInt8.self) }
        func text(_ key: PartialKeyPath<fw_snapshot>) -> UnsafePointer<CChar>? { UnsafePointer(bitPattern: word(key)) }
        size = word(\.size); index = word(\.index)
        phase = int32(\.phase); validity = int32(\.validity); display = int32(\.display); failingRule = int32(\.failing_rule)
        touched = byte(\.touched); limitExceeded = byte(\.limit_exceeded)
        messageLength = word(\.message_length); displayMessageLength = word(\.display_message_length)
        valueLength = word(\.value_length); textSize = word(\.text_size)
        message = text(\.message); displayMessage = text(\.display_message); value = text(\.value)
    }
}

/// Caller-owned memory for `count` fw_snapshot elements `stride` bytes apart (stride >= sizeof, any
/// alignment), malloc'd to exactly count * stride bytes (at least one struct) so AddressSanitizer sees
/// a write past the end. Every byte is `snapshotFill` except each element's `size` member.
final class SnapshotMemory {
    let base: UnsafeMutableRawPointer
    let stride: Int
    let count: Int
    let bytes: Int

    init(count: Int, stride: Int, declared: (Int) -> UInt) {
        precondition(stride >= snapshotSize)
        self.stride = stride
        self.count = count
        bytes = max(count * stride, snapshotSize)
        base = malloc(bytes)!
        memset(base, Int32(snapshotFill), bytes)
        for i in 0..<count { (base + i * stride).storeBytes(of: declared(i), as: UInt.self) }
    }

    deinit { free(base) }

    /// Element 0 as the typed pointer the functions take (misaligned when the stride is).
    var pointer: UnsafeMutablePointer<fw_snapshot> { base.assumingMemoryBound(to: fw_snapshot.self) }

    func members(_ i: Int) -> SnapshotMembers { SnapshotMembers(base + i * stride) }

    /// Whether element i's bytes in from..<to still hold the fill.
    func untouched(_ i: Int, from: Int, to: Int) -> Bool {
        let p = (base + i * stride).assumingMemoryBound(to: UInt8.self)
        return (from..<max(from, to)).allSatisfy { p[$0] == snapshotFill }
    }

    /// Whether every byte but the `size` members still holds the fill.
    func allUntouched() -> Bool {
        let p = base.assumingMemoryBound(to: UInt8.self)
        let sizeBytes = MemoryLayout<UInt>.size
        return (0..<bytes).allSatisfy { offset in
            offset / stride < count && offset % stride < sizeBytes ? true : p[offset] == snapshotFill
        }
    }
}

/// A caller-owned text buffer for the snapshot functions: NULL (with any size), or malloc'd to exactly
/// `size` bytes (one when 0) filled with `textFill`. Follows where the copied texts land across one
/// call (fw_form_snapshots puts every field's texts in one buffer, field after field).
final class TextMemory {
    let pointer: UnsafeMutablePointer<CChar>?
    let size: Int
    /// Bytes every text so far needs with its NUL, copied or not (where the next one would go).
    private(set) var cursor = 0
    /// Every text so far was copied.
    private(set) var allCopied = true
    /// End of the last copied text: the texts lie in the buffer in order.
    private var end = 0
    private var covered: [Bool]

    init(size: Int, null: Bool) {
        self.size = size
        pointer = null ? nil : malloc(max(size, 1))!.assumingMemoryBound(to: CChar.self)
        if let pointer { memset(pointer, Int32(textFill), max(size, 1)) }
        covered = Array(repeating: false, count: null ? 0 : size)
    }

    deinit { free(pointer) }

    /// The next text of the call, `text`, came back as `copy`: a copy inside the buffer (after the
    /// texts before it, overlapping none) holding exactly `text` and a NUL, or NULL when it did not fit.
    func expect(_ what: @autoclosure () -> String, _ copy: UnsafePointer<CChar>?, _ text: [UInt8]) {
        let need = text.count + 1
        defer { cursor += need }
        guard let buffer = pointer else {
            check(copy == nil, "\(what()): a text was copied though buf is NULL")
            allCopied = false
            return
        }
        guard let copy else {
            check(!(allCopied && cursor + need <= size),
                  "\(what()): not copied although it fits (texts before it need \(cursor) bytes, it \(need), buffer \(size))")
            allCopied = false
            return
        }
        let offset = UnsafeRawPointer(buffer).distance(to: UnsafeRawPointer(copy))
        check(offset >= 0 && offset + need <= size,
              "\(what()): copy at offset \(offset) (\(need) bytes) lies outside the \(size)-byte buffer")
        check(offset >= end, "\(what()): copy at offset \(offset) overlaps or precedes the text before it (ends at \(end))")
        let bytes = (0..<need).map { UInt8(bitPattern: copy[$0]) }
        check(Array(bytes.prefix(text.count)) == text && bytes[text.count] == 0,
              "\(what()): copy holds \(show(Array(bytes.prefix(text.count)))) + \(bytes[text.count]), expected \(show(text)) + NUL")
        for i in offset..<(offset + need) { covered[i] = true }
        end = offset + need
    }

    /// Bytes no copied text covers still hold the fill (a text that did not fit was not copied at all).
    func checkRestUntouched(_ what: @autoclosure () -> String) {
        guard let pointer else { return }
        for i in 0..<size where !covered[i] {
            check(UInt8(bitPattern: pointer[i]) == textFill, "\(what()): buffer byte \(i) written outside the copied texts")
        }
    }
}

/// What the per-property queries say about a field, for checking a snapshot of it.
struct ExpectedField {
    var field: FieldSnapshot
    var index: Int
    /// The number of rules the field has, when known.
    var ruleCount: Int? = nil
    /// The failing rule a model predicts for an invalid field, when it can.
    var failingRule: Int? = nil
}

/// Checks one filled snapshot against the per-property answers; its texts go through `texts`.
func checkSnapshotMembers(_ what: @autoclosure () -> String, _ m: SnapshotMembers, declared: UInt, expected e: ExpectedField, texts: TextMemory) {
    let f = e.field
    func name() -> String { "\(what()) [\(show(f.id)) at \(e.index)]" }
    check(m.size == declared, "\(name()): size member \(m.size), caller set \(declared)")
    check(m.index == UInt(e.index), "\(name()): index \(m.index)")
    check(m.phase == f.phase, "\(name()): phase \(m.phase), fw_field_phase \(f.phase)")
    check(m.validity == f.validity, "\(name()): validity \(m.validity), fw_field_validity \(f.validity)")
    check(m.display == f.display, "\(name()): display \(m.display), fw_field_display \(f.display)")
    check(m.touched <= 1 && m.limitExceeded <= 1, "\(name()): bool members hold \(m.touched) / \(m.limitExceeded)")
    check((m.touched == 1) == f.touched, "\(name()): touched \(m.touched), fw_field_touched \(f.touched)")
    check((m.limitExceeded == 1) == f.limitExceeded, "\(name()): limit_exceeded \(m.limitExceeded), fw_field_limit_exceeded \(f.limitExceeded)")
    check(m.messageLength == UInt(f.message.count), "\(name()): message_length \(m.messageLength), message has \(f.message.count) bytes")
    check(m.displayMessageLength == UInt(f.displayMessage.count),
          "\(name()): display_message_length \(m.displayMessageLength), display message has \(f.displayMessage.count) bytes")
    check(m.valueLength == UInt(f.value.count), "\(name()): value_length \(m.valueLength), value has \(f.value.count) bytes")
    let textSize = f.message.count + f.displayMessage.count + f.value.count + 3
    check(m.textSize == UInt(textSize), "\(name()): text_size \(m.textSize), the three texts need \(textSize)")
    if f.validity == fw_validity.FW_VALIDITY_INVALID.rawValue {
        check(m.failingRule >= 0, "\(name()): invalid but failing_rule \(m.failingRule)")
        if let count = e.ruleCount { check(Int(m.failingRule) < count, "\(name()): failing_rule \(m.failingRule) but \(count) rules") }
        if let predicted = e.failingRule { check(Int(m.failingRule) == predicted, "\(name()): failing_rule \(m.failingRule), model \(predicted)") }
    } else {
        check(m.failingRule == -1, "\(name()): validity \(f.validity) but failing_rule \(m.failingRule)")
    }
    texts.expect("\(name()) message", m.message, f.message)
    texts.expect("\(name()) display_message", m.displayMessage, f.displayMessage)
    texts.expect("\(name()) value", m.value, f.value)
}

/// The stride a caller uses for snapshots declaring `declared` bytes: that size, unless it is below
/// the struct (refused) or absurd (the library must write only the struct's members anyway).
func snapshotStride(_ declared: UInt) -> Int {
    declared < UInt(snapshotSize) || declared > 4096 ? snapshotSize : Int(declared)
}

/// Whether the library must refuse a declared snapshot size: below the first version's struct.
/// (Unaligned and absurd sizes are refused by this library; the header allows either answer.)
func snapshotSizeRefused(_ declared: UInt) -> Bool { declared < UInt(snapshotSize) }
func snapshotSizeOdd(_ declared: UInt) -> Bool {
    declared % UInt(MemoryLayout<fw_snapshot>.alignment) != 0 || declared > UInt(Int32.max)
}

/// Calls a single-field snapshot function (fw_field_snapshot, _at, fw_field_update, _at) with a
/// caller-chosen `size` member and text buffer. On FW_OK / FW_ERR_BUFFER_TOO_SMALL checks every
/// member against `expected()` (asked after the call; nil means the field does not exist, so the call
/// must have failed), the copied texts, the status against what fitted, the bytes past the struct
/// (untouched) and the buffer outside the texts (untouched). On other failures, with
/// `untouchedOnFailure`, checks the snapshot was not written. Returns the status and the members.
@discardableResult
func probeSnapshot(_ what: @autoclosure () -> String, declared: UInt, texts: TextMemory, nullSnapshot: Bool = false,
                   untouchedOnFailure: Bool = false, expected: () -> ExpectedField?,
                   _ call: (UnsafeMutablePointer<fw_snapshot>?, UnsafeMutablePointer<CChar>?, UInt) -> fw_status)
    -> (status: fw_status, members: SnapshotMembers?) {
    let stride = snapshotStride(declared)
    let memory = SnapshotMemory(count: 1, stride: stride) { _ in declared }
    let status = call(nullSnapshot ? nil : memory.pointer, texts.pointer, UInt(texts.size))
    checkLastError(status, what())
    guard status == .FW_OK || status == .FW_ERR_BUFFER_TOO_SMALL else {
        if untouchedOnFailure { check(memory.allUntouched(), "\(what()): failed with \(status.rawValue) but wrote the snapshot") }
        return (status, nil)
    }
    func sizeText() -> String { "size \(declared), buf \(texts.pointer == nil ? "NULL" : "\(texts.size) bytes")" }
    check(!nullSnapshot, "\(what()): NULL snapshot gave \(status.rawValue)")
    check(!snapshotSizeRefused(declared), "\(what()): \(sizeText()) gave \(status.rawValue)")
    check(texts.pointer != nil || texts.size == 0, "\(what()): NULL buf of \(texts.size) bytes gave \(status.rawValue)")
    guard let e = expected() else { fail("\(what()) (\(sizeText())) gave \(status.rawValue) for a field that does not exist") }
    let m = memory.members(0)
    checkSnapshotMembers("\(what()) (\(sizeText()))", m, declared: declared, expected: e, texts: texts)
    if texts.pointer == nil {
        check(status == .FW_OK, "\(what()): (NULL, 0) gave \(status.rawValue)")
    } else {
        check(status == (texts.allCopied ? .FW_OK : .FW_ERR_BUFFER_TOO_SMALL),
              "\(what()) (\(sizeText()), text_size \(m.textSize)): status \(status.rawValue) but every text copied: \(texts.allCopied)")
    }
    texts.checkRestUntouched(what())
    check(memory.untouched(0, from: snapshotSize, to: stride), "\(what()): wrote past sizeof(fw_snapshot) into the caller's \(stride)-byte struct")
    return (status, m)
}

/// Picks the `size` member of a snapshot from a fuzz byte: mostly the first version's size, else larger
/// multiples of 8 below the second version's (room for sentinels), too small, unaligned, or absurd.
func pickSnapshotSize(_ b: UInt8) -> UInt {
    let base = UInt(snapshotSize)
    switch b % 16 {
    case 0...8: return base
    case 9, 10: return base + 8 * UInt(1 + (b >> 4) % 8)   // between the versions: a first-version caller
    case 11: return UInt(b >> 4) * 8 % base              // too small (0, 8, ... 120 % 96)
    case 12: return base - 1 - UInt(b >> 4) % 8          // too small, unaligned
    case 13: return base + 1 + UInt(b >> 4) % 7          // unaligned, larger
    case 14: return b & 0x10 != 0 ? UInt(Int32.max) + 1 : UInt.max & ~7
    default: return b & 0x10 != 0 ? 0 : UInt(snapshotSecondVersionSize) - 8
    }
}

/// Picks a text buffer size from a fuzz byte given the three texts' lengths: NULL/0, 0, cuts inside and
/// between the texts, exactly text_size, larger, or anything.
func pickTextSize(_ b: UInt8, _ r: UInt8, lengths: [Int]) -> (size: Int, null: Bool) {
    let m = lengths.count > 0 ? lengths[0] + 1 : 1, d = lengths.count > 1 ? lengths[1] + 1 : 1
    let total = lengths.reduce(0) { $0 + $1 + 1 }
    switch b % 12 {
    case 0: return (0, true)
    case 1: return (Int(r % 8) + 1, true)              // NULL with a size: refused
    case 2: return (0, false)
    case 3: return (max(0, m - 1), false)              // the message does not fit
    case 4: return (m, false)                          // exactly the message
    case 5: return (m + d - 1, false)                  // cut inside the display message
    case 6: return (m + d, false)                      // exactly message + display message
    case 7: return (max(0, total - 1), false)          // the value misses by one
    case 8, 9: return (total, false)                   // exactly text_size
    case 10: return (total + Int(r % 16), false)
    default: return (Int(r), false)
    }
}

/// malloc'd NUL-terminated copies (exactly sized, for AddressSanitizer) that live until the pool is
/// freed: for strings a C struct points to (fw_rule.text, fw_rule.message).
final class CStringPool {
    private var pointers: [UnsafeMutablePointer<CChar>] = []

    func make(_ bytes: [UInt8]?) -> UnsafePointer<CChar>? {
        guard let bytes else { return nil }
        let raw = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        for (i, b) in bytes.enumerated() { raw[i] = CChar(bitPattern: b) }
        raw[bytes.count] = 0
        pointers.append(raw)
        return UnsafePointer(raw)
    }

    deinit { for p in pointers { free(p) } }
}
