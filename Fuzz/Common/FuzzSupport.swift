// Shared by the libFuzzer harnesses (Fuzz/TextInputs, Fuzz/CallSequences). Compiled into module
// FormwellC together with Sources/FormwellC, so the fw_* functions are called directly as Swift functions
// with exactly the C-ABI signatures (pointers, sizes, Int32 statuses).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
    bytes.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) != nil }
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

func checkKnown(_ status: fw_status, _ what: String) {
    check((0...highestStatus).contains(status.rawValue), "\(what) returned unknown status \(status.rawValue)")
}

/// After every call: the thread's last error reflects that call exactly.
func checkLastError(_ status: fw_status, _ what: String) {
    checkKnown(status, what)
    let last = fw_last_error_code()
    check(last == status, "\(what): returned \(status.rawValue) but fw_last_error_code says \(last.rawValue)")
    let message = lastErrorMessage()
    if status == .FW_OK {
        check(message.isEmpty, "\(what): succeeded but last error message is \(show(message))")
        check(fw_last_error_offset() == -1, "\(what): succeeded but last error offset is \(fw_last_error_offset())")
    } else {
        check(!message.isEmpty, "\(what): failed with \(status.rawValue) but left no message")
        check(isValidUTF8(message), "\(what): last error message is not UTF-8: \(show(message))")
        let offset = fw_last_error_offset()
        if status == .FW_ERR_INVALID_SPEC {
            // A spec error has an offset only when PCRE2 refused one of its patterns.
            check(offset == -1 || text(message).contains(".pattern: "), "\(what): spec error with offset \(offset): \(show(message))")
        } else if status != .FW_ERR_INVALID_UTF8 && status != .FW_ERR_INVALID_PATTERN {
            check(offset == -1, "\(what): status \(status.rawValue) but offset \(offset)")
        }
    }
    // fw_status_string never returns NULL or non-UTF-8 text.
    check(isValidUTF8(cBytes(fw_status_string(status.rawValue))), "fw_status_string(\(status.rawValue)) is not UTF-8")
}

func cBytes(_ pointer: UnsafePointer<CChar>) -> [UInt8] {
    Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
}

/// The calling thread's last error message; checks the call itself leaves the last error alone.
func lastErrorMessage() -> [UInt8] {
    let before = fw_last_error_code()
    let offsetBefore = fw_last_error_offset()
    let bytes = readString("fw_last_error_message") { buf, size, len in fw_last_error_message(buf, size, len) }
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
}

struct FormSnapshot: Equatable {
    var fields: [FieldSnapshot]
    var isValid: Bool
    var firstInvalid: [UInt8]
}

/// Everything a C caller can observe about a form; nil for a handle that is not live. Also checks the
/// relations between the queries that hold whatever the rules say.
func snapshot(_ form: OpaquePointer?) -> FormSnapshot? {
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
            var display = fw_display.FW_DISPLAY_NONE, touched = false
            check(fw_field_phase(form, cid, &phase) == .FW_OK, "fw_field_phase failed on a listed field \(show(id))")
            check(fw_field_validity(form, cid, &validity) == .FW_OK, "fw_field_validity failed")
            check(fw_field_display(form, cid, &display) == .FW_OK, "fw_field_display failed")
            check(fw_field_touched(form, cid, &touched) == .FW_OK, "fw_field_touched failed")
            let value = readString("fw_field_value") { fw_field_value(form, cid, $0, $1, $2) } ?? []
            let message = readString("fw_field_message") { fw_field_message(form, cid, $0, $1, $2) } ?? []
            let displayMessage = readString("fw_field_display_message") { fw_field_display_message(form, cid, $0, $1, $2) } ?? []
            return FieldSnapshot(id: id, value: value, phase: phase.rawValue, validity: validity.rawValue,
                                 display: display.rawValue, touched: touched, message: message,
                                 displayMessage: displayMessage)
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
    check(snap.isValid == snap.firstInvalid.isEmpty, "is_valid \(snap.isValid) but first_invalid \(show(snap.firstInvalid))")
    if !snap.firstInvalid.isEmpty {
        check(snap.fields.contains { $0.id == snap.firstInvalid }, "first_invalid names no field")
    }
    var focused = 0
    for f in snap.fields {
        let name = show(f.id)
        check((0...2).contains(f.phase) && (0...2).contains(f.validity) && (0...2).contains(f.display),
              "\(name): enum out of range")
        if f.phase == fw_phase.FW_PHASE_FOCUSED.rawValue { focused += 1 }
        if f.phase == fw_phase.FW_PHASE_IDLE.rawValue {
            check(f.validity == fw_validity.FW_VALIDITY_EMPTY.rawValue, "\(name): idle but validity \(f.validity)")
        }
        if f.validity != fw_validity.FW_VALIDITY_INVALID.rawValue {
            check(f.message.isEmpty, "\(name): validity \(f.validity) but message \(show(f.message))")
        }
        if !f.touched {
            check(f.display == fw_display.FW_DISPLAY_NONE.rawValue, "\(name): untouched but display \(f.display)")
        }
        if f.display != fw_display.FW_DISPLAY_ERROR.rawValue {
            check(f.displayMessage.isEmpty, "\(name): display \(f.display) but display message \(show(f.displayMessage))")
        } else {
            check(!snap.isValid, "\(name): shows an error but the form is valid")
        }
        if f.value.isEmpty && f.phase == fw_phase.FW_PHASE_FOCUSED.rawValue {
            check(f.validity == fw_validity.FW_VALIDITY_EMPTY.rawValue, "\(name): focused and empty but validity \(f.validity)")
        }
        // The strict verdict is what both the display (inactive fields) and is_valid use.
        if f.touched && f.phase == fw_phase.FW_PHASE_INACTIVE.rawValue {
            let expected: Int32 = f.validity == fw_validity.FW_VALIDITY_INVALID.rawValue ? 2 : (f.validity == 1 ? 1 : 0)
            check(f.display == expected, "\(name): inactive+touched, validity \(f.validity) but display \(f.display)")
            if f.display == fw_display.FW_DISPLAY_ERROR.rawValue {
                check(f.displayMessage == f.message, "\(name): display message differs from message")
            }
        }
    }
    check(focused <= 1, "\(focused) fields are focused at once")
}
