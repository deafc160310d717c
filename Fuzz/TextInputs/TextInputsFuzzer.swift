// libFuzzer harness: every text input Formwell parses through the C ABI, as raw bytes.
//
// Input layout: byte 0 holds flags; the rest is split at 0x1F bytes into segments
//   0 field id   1 label   2 initial value   3 value   4 regex pattern   5 message
//   6 second value   7 numbers (Int32 lengths, buffer sizes, a status code)
// Missing segments are empty. Each segment is handed over as a malloc'd NUL-terminated copy, so an
// embedded NUL ends the C string early and invalid UTF-8 reaches the library as is.
// Wherever a value is set and the state read, the field is also read through fw_field_snapshot_at
// (and fw_field_snapshot by id), which must agree with the per-property queries.
import FormwellC
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private let separator: UInt8 = 0x1F

// MARK: Custom validator driven by the input

/// What the validator does; set per input (libFuzzer runs inputs one at a time on one thread).
private struct ValidatorScript {
    var verdict: Int32 = 1
    var message: [UInt8]? = nil
    var expectedValue: [UInt8]? = nil
    var calls = 0
}
nonisolated(unsafe) private var script = ValidatorScript()
nonisolated(unsafe) private var scriptMessage: UnsafeMutablePointer<CChar>? = nil
nonisolated(unsafe) private var destroyed = 0

private let scriptedValidator: fw_validate_fn = { context, value, length, outMessage in
    script.calls += 1
    guard let value else { fail("validator got a NULL value") }
    check(strlen(value) == Int(length), "validator: strlen \(strlen(value)) != value_length \(length)")
    let bytes = cBytes(value)
    check(!bytes.isEmpty, "validator called on an empty value")
    check(isValidUTF8(bytes), "validator got invalid UTF-8 \(show(bytes))")
    if let expected = script.expectedValue {
        check(bytes == expected, "validator got \(show(bytes)), value set was \(show(expected))")
    }
    if let outMessage {
        outMessage.pointee = scriptMessage.map { UnsafePointer($0) }
    }
    return script.verdict
}

private let countingDestroy: fw_destroy_fn = { context in
    destroyed += 1
    free(context)
}

// MARK: Helpers

/// The expected outcome of decoding string arguments: the offsets any invalid one may report.
private func invalidOffsets(_ arguments: [[UInt8]?]) -> [Int] {
    arguments.compactMap { $0.flatMap { firstInvalidUTF8Offset(cView($0)) } }
}

/// Runs a call, checks the thread's last error agrees, and (when `expectUTF8` lists offsets) that an
/// invalid argument is refused with one of them.
private func call(_ what: String, invalid: [Int] = [], _ body: () -> fw_status) -> fw_status {
    let status = body()
    checkLastError(status, what)
    check(status != .FW_ERR_INTERNAL, "\(what) returned FW_ERR_INTERNAL (no input should cause it)")
    if !invalid.isEmpty {
        check(status == .FW_ERR_INVALID_UTF8, "\(what): invalid UTF-8 argument but status \(status.rawValue)")
        let offset = fw_last_error_offset()
        check(invalid.contains(Int(offset)), "\(what): offset \(offset), expected one of \(invalid)")
    } else {
        check(status != .FW_ERR_INVALID_UTF8, "\(what): FW_ERR_INVALID_UTF8 for valid arguments")
    }
    return status
}

private func newForm() -> OpaquePointer? {
    var form: OpaquePointer? = nil
    let status = fw_form_create(&form)
    checkLastError(status, "fw_form_create")
    check(status == .FW_OK && form != nil, "fw_form_create failed")
    shortenTimeLimit(form)
    return form
}

private func free(form: OpaquePointer?) {
    let status = fw_form_free(form)
    checkLastError(status, "fw_form_free")
    check(status == .FW_OK, "fw_form_free of a live form gave \(status.rawValue)")
    check(fw_form_free(form) == .FW_ERR_INVALID_HANDLE, "double free not refused")
    check(snapshot(form) == nil, "freed form still answers")
}

private func field(_ snap: FormSnapshot?, _ id: [UInt8]) -> FieldSnapshot? {
    snap?.fields.first { $0.id == id }
}

/// Reads the field at `index` through fw_field_snapshot_at and checks every member and copied text
/// against the whole-form snapshot `current` (taken now when nil): with a buffer size and `size` member
/// derived from `seed` (no input byte is consumed, so the input format is unchanged); on the steps
/// `checkThisStep` picks also with no buffer (OK, text_size), with exactly text_size bytes (OK), by id
/// with that buffer, and then that reading changed nothing. Snapshots run no validator.
private func checkSnapshotAt(_ form: OpaquePointer?, _ index: Int, _ what: @autoclosure () -> String, seed: Int,
                             current: FormSnapshot? = nil) {
    let full = checkThisStep()
    guard let snap = current ?? snapshot(form), index < snap.fields.count else { fail("\(what()): no field \(index) to snapshot") }
    let f = snap.fields[index]
    let expected = ExpectedField(field: f, index: index)
    let callsBefore = script.calls
    let at = UInt(index), size = UInt(snapshotSize)
    if full {
    let first = probeSnapshot("\(what()): fw_field_snapshot_at(\(index), NULL, 0)", declared: size, texts: TextMemory(size: 0, null: true),
                              expected: { expected }) { fw_field_snapshot_at(form, at, $0, $1, $2) }
    check(first.status == .FW_OK, "\(what()): fw_field_snapshot_at(NULL, 0) gave \(first.status.rawValue)")
    let textSize = Int(first.members?.textSize ?? 0)
    let exact = probeSnapshot("\(what()): fw_field_snapshot_at(\(index), \(textSize))", declared: size,
                              texts: TextMemory(size: textSize, null: false), expected: { expected }) { fw_field_snapshot_at(form, at, $0, $1, $2) }
    check(exact.status == .FW_OK, "\(what()): fw_field_snapshot_at with text_size \(textSize) bytes gave \(exact.status.rawValue)")
    let byID = withCString(f.id) { id in
        probeSnapshot("\(what()): fw_field_snapshot(\(show(f.id)))", declared: size, texts: TextMemory(size: textSize, null: false),
                      expected: { expected }) { fw_field_snapshot(form, id, $0, $1, $2) }
    }
    check(byID.status == .FW_OK, "\(what()): fw_field_snapshot by id gave \(byID.status.rawValue)")
    }
    // A derived buffer size (cuts inside and between the texts) and `size` member (larger or unaligned too).
    let b = UInt8(truncatingIfNeeded: seed), r = UInt8(truncatingIfNeeded: seed >> 8)
    var (bufferSize, null) = pickTextSize(b, r, lengths: [f.message.count, f.displayMessage.count, f.value.count])
    if null && bufferSize > 0 { null = false }
    var declared = pickSnapshotSize(UInt8(truncatingIfNeeded: seed >> 16))
    if snapshotSizeRefused(declared) { declared = size }
    let cut = probeSnapshot("\(what()): fw_field_snapshot_at(\(index), size \(declared), \(null ? "NULL" : "\(bufferSize) bytes"))",
                            declared: declared, texts: TextMemory(size: bufferSize, null: null),
                            expected: { expected }) { fw_field_snapshot_at(form, at, $0, $1, $2) }
    let allowed: [fw_status] = snapshotSizeOdd(declared) ? [.FW_OK, .FW_ERR_BUFFER_TOO_SMALL, .FW_ERR_INVALID_ARGUMENT] : [.FW_OK, .FW_ERR_BUFFER_TOO_SMALL]
    check(allowed.contains(cut.status), "\(what()): fw_field_snapshot_at (size \(declared), buffer \(bufferSize)) gave \(cut.status.rawValue)")
    check(script.calls == callsBefore, "\(what()): reading snapshots ran the validator")
    if full { check(snapshot(form) == snap, "\(what()): reading snapshots changed the form") }
}

/// A number derived from some inputs' bytes, to vary buffer sizes without consuming input.
private func mix(_ parts: [UInt8]...) -> Int {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for part in parts { for b in part { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }; h = (h ^ 0xFF) &* 0x100_0000_01b3 }
    return Int(truncatingIfNeeded: h >> 8)
}

private func sameID(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    // Field ids are Swift Strings inside the engine: canonically equivalent ids are the same field.
    isValidUTF8(a) && isValidUTF8(b) && text(a) == text(b)
}

// MARK: The harness

@_cdecl("LLVMFuzzerTestOneInput")
public func formwellTextInputsFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    beginInput(data, size)
    defer { endInput(); script = ValidatorScript() }   // freed within the input (see endInput)
    var reader = ByteReader(data, size)
    let flags = reader.byte()
    var segments: [[UInt8]] = []
    while segments.count < 8 { segments.append(reader.segment(separator: separator)) }
    let idArg = segments[0], labelArg: [UInt8]? = flags & 1 == 0 ? segments[1] : nil
    let initialArg: [UInt8]? = flags & 2 == 0 ? segments[2] : nil
    let valueArg = segments[3], patternArg = segments[4]
    let messageArg: [UInt8]? = flags & 4 == 0 ? segments[5] : nil
    let value2Arg = segments[6]
    var numbers = ByteReader(segments[7], segments[7].count)

    let liveAtStart = fw_form_live_count()
    let destroyedAtStart = destroyed
    var contextsAdded = 0

    // 1. Field id, label and initial value.
    let form = newForm()
    let before = snapshot(form)
    let added = withCString(idArg) { id in withCString(labelArg) { label in withCString(initialArg) { initial in
        call("fw_form_add_field", invalid: invalidOffsets([idArg, labelArg, initialArg])) {
            fw_form_add_field(form, id, label, initial)
        }
    } } }
    var fieldID: [UInt8] = Array("f".utf8)
    if added == .FW_OK {
        fieldID = cView(idArg)
        check(!fieldID.isEmpty, "fw_form_add_field accepted an empty id")
        let snap = snapshot(form)
        check(snap?.fields.count == 1 && snap?.fields[0].id == fieldID, "added field not listed with its exact id bytes")
        let initial = initialArg.map(cView) ?? []
        check(snap?.fields[0].value == initial, "initial value read back as \(show(snap?.fields[0].value ?? []))")
        check(snap?.fields[0].phase == 0 && snap?.fields[0].touched == false, "new field not idle/untouched")
    } else {
        if invalidOffsets([idArg, labelArg, initialArg]).isEmpty {
            check(added == .FW_ERR_INVALID_ARGUMENT && cView(idArg).isEmpty, "fw_form_add_field gave \(added.rawValue)")
        }
        check(snapshot(form) == before, "failed fw_form_add_field changed the form")
        check(withCString(fieldID) { fw_form_add_field(form, $0, nil, nil) } == .FW_OK, "adding fallback field failed")
    }
    // Adding the same id again is a duplicate (canonical equivalence included).
    let duplicate = withCString(fieldID) { id in call("fw_form_add_field(dup)") { fw_form_add_field(form, id, nil, nil) } }
    check(duplicate == .FW_ERR_DUPLICATE_FIELD, "duplicate id gave \(duplicate.rawValue)")

    // 2. Values: invalid UTF-8 is refused and the value is unchanged; a valid one reads back byte for byte.
    for value in [valueArg, value2Arg] {
        let before = checkThisStep() ? snapshot(form) : nil
        let status = withCString(fieldID) { id in withCString(value) { v in
            call("fw_field_set_value", invalid: invalidOffsets([value])) { fw_field_set_value(form, id, v) }
        } }
        let after = snapshot(form)
        if status == .FW_OK {
            check(field(after, fieldID)?.value == cView(value), "value read back differs from the bytes set")
        } else if let before {
            check(after == before, "failed fw_field_set_value changed the form")
        }
        checkSnapshotAt(form, 0, "value \(show(cView(value)))", seed: mix([flags], value), current: after)
    }

    // 3. Lookups by arbitrary id bytes: same field, unknown field, or invalid UTF-8.
    for lookup in [valueArg, patternArg] {
        let before = checkThisStep() ? snapshot(form) : nil
        let invalid = invalidOffsets([lookup])
        let status = withCString(lookup) { id in call("fw_field_touch(lookup)", invalid: invalid) { fw_field_touch(form, id) } }
        if invalid.isEmpty {
            let expected: fw_status = sameID(cView(lookup), fieldID) ? .FW_OK : .FW_ERR_UNKNOWN_FIELD
            check(status == expected, "fw_field_touch(\(show(cView(lookup)))) gave \(status.rawValue), expected \(expected.rawValue)")
        }
        if status != .FW_OK, let before { check(snapshot(form) == before, "failed fw_field_touch changed the form") }
    }

    // 4. Messages: a required rule's message comes back byte for byte.
    do {
        let status = withCString(fieldID) { id in withCString(messageArg) { m in
            call("fw_field_add_required", invalid: invalidOffsets([messageArg])) { fw_field_add_required(form, id, m) }
        } }
        if status == .FW_OK {
            _ = withCString(fieldID) { id in withCString([]) { fw_field_set_value(form, id, $0) } }
            _ = withCString(fieldID) { fw_field_blur(form, $0) }
            let snap = snapshot(form)
            let f = field(snap, fieldID)
            let expected = messageArg.map(cView) ?? Array("This field is required".utf8)
            check(f?.validity == 2 && f?.message == expected, "required message read back as \(show(f?.message ?? []))")
            check(f?.display == 2 && f?.displayMessage == expected, "required display message differs")
            checkSnapshotAt(form, 0, "required message", seed: mix([flags], messageArg ?? []), current: snap)
        }
    }

    // 5. Regex patterns (and their messages) on a second form.
    let regexForm = newForm()
    _ = fw_form_add_field(regexForm, "r", nil, nil)
    _ = fw_form_add_field(regexForm, "s", nil, nil)
    var patternOK = false
    for target in ["r", "s"] {  // the second time the pattern comes from the cache
        let before = checkThisStep() ? snapshot(regexForm) : nil
        let status = withCString(patternArg) { p in withCString(messageArg) { m in
            call("fw_field_add_regex", invalid: invalidOffsets([patternArg, messageArg])) {
                fw_field_add_regex(regexForm, target, p, m)
            }
        } }
        if status == .FW_ERR_INVALID_PATTERN {
            let offset = fw_last_error_offset()
            check(offset >= 0 && offset <= Int64(cView(patternArg).count), "pattern offset \(offset) outside the pattern")
            if let before { check(snapshot(regexForm) == before, "refused pattern changed the form") }
            check(!patternOK, "pattern accepted once, refused the second time")
        } else if status == .FW_OK {
            patternOK = true
        } else {
            check(status == .FW_ERR_INVALID_UTF8, "fw_field_add_regex gave \(status.rawValue)")
        }
    }
    if patternOK {
        for value in [valueArg, value2Arg, initialArg ?? []] {
            let status = withCString(value) { v in call("fw_field_set_value(regex)", invalid: invalidOffsets([value])) {
                fw_field_set_value(regexForm, "r", v)
            } }
            guard status == .FW_OK else { continue }
            let snap = snapshot(regexForm)
            checkSnapshotAt(regexForm, 0, "regex value", seed: mix([flags], patternArg, value), current: snap)
            let f = field(snap, Array("r".utf8))
            if cView(value).isEmpty { check(f?.validity != 2, "empty value judged invalid by a regex"); continue }
            check(f?.validity == 1 || f?.validity == 2, "regex field with a value has validity \(f?.validity ?? -1)")
            if f?.validity == 2 {
                let allowed = [messageArg.map(cView) ?? Array("Invalid format".utf8), Array("This value is too complex to check".utf8)]
                check(allowed.contains(f?.message ?? []), "regex message \(show(f?.message ?? []))")
            }
        }
    }

    // 6. A custom validator's message, as raw bytes (repaired with U+FFFD), and its error detail.
    let customForm = newForm()
    _ = fw_form_add_field(customForm, "c", nil, nil)
    let context = malloc(8)
    script = ValidatorScript(verdict: 1, message: messageArg.map(cView), expectedValue: nil)
    scriptMessage = messageArg.map { bytes in
        let p = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        for (i, b) in bytes.enumerated() { p[i] = CChar(bitPattern: b) }
        p[bytes.count] = 0
        return p
    }
    defer { free(scriptMessage); scriptMessage = nil }
    let customStatus = call("fw_field_add_custom") { fw_field_add_custom(customForm, "c", scriptedValidator, context, countingDestroy, nil) }
    check(customStatus == .FW_OK, "fw_field_add_custom gave \(customStatus.rawValue)")
    contextsAdded += 1
    for value in [valueArg, value2Arg] where !cView(value).isEmpty {
        for verdict: Int32 in [1, 0, 2, Int32(bitPattern: UInt32(truncatingIfNeeded: numbers.uint64()))] {
            script.verdict = verdict
            script.expectedValue = cView(value)
            script.calls = 0
            let before = checkThisStep() ? snapshot(customForm) : nil
            let status = withCString(value) { v in call("fw_field_set_value(custom)", invalid: invalidOffsets([value])) {
                fw_field_set_value(customForm, "c", v)
            } }
            if status == .FW_ERR_INVALID_UTF8 { check(script.calls == 0, "validator ran on invalid UTF-8"); break }
            check(script.calls == 1, "validator ran \(script.calls) times for one set_value")
            let snap = snapshot(customForm)
            let f = field(snap, Array("c".utf8))
            switch verdict {
            case 0:
                check(status == .FW_OK && f?.validity == 1, "VALID verdict: status \(status.rawValue), validity \(f?.validity ?? -1)")
            case 1:
                let expected = messageArg.map { Array(text(cView($0)).utf8) } ?? Array("Invalid value".utf8)
                check(status == .FW_OK && f?.validity == 2, "INVALID verdict: status \(status.rawValue)")
                check(f?.message == expected, "validator message \(show(f?.message ?? [])), expected \(show(expected))")
            default:
                check(status == .FW_ERR_CALLBACK, "verdict \(verdict) gave \(status.rawValue)")
                if let before { check(snap == before, "failed validator changed the form") }
            }
            checkSnapshotAt(customForm, 0, "custom verdict \(verdict)", seed: mix([flags], value, messageArg ?? []), current: snap)
        }
    }

    // 7. Labels name the other field in a matches rule's message; other_field_id is any bytes.
    let matchForm = newForm()
    let labelOK = labelArg.map { isValidUTF8(cView($0)) } ?? true
    let labelStatus = withCString(labelOK ? labelArg : nil) { label in fw_form_add_field(matchForm, "a", label, "1") }
    check(labelStatus == .FW_OK, "add_field with a valid label gave \(labelStatus.rawValue)")
    _ = fw_form_add_field(matchForm, "b", nil, "2")
    let otherStatus = withCString(idArg) { other in
        call("fw_field_add_matches", invalid: invalidOffsets([idArg])) { fw_field_add_matches(matchForm, "b", other, nil) }
    }
    if invalidOffsets([idArg]).isEmpty {
        let other = cView(idArg)
        let expected: fw_status = sameID(other, Array("b".utf8)) ? .FW_ERR_INVALID_ARGUMENT
            : sameID(other, Array("a".utf8)) ? .FW_OK : .FW_ERR_UNKNOWN_FIELD
        check(otherStatus == expected, "fw_field_add_matches(other=\(show(other))) gave \(otherStatus.rawValue), expected \(expected.rawValue)")
    }
    check(fw_field_add_matches(matchForm, "b", "a", nil) == .FW_OK, "matches a failed")
    _ = fw_field_blur(matchForm, "b")
    let shown = field(snapshot(matchForm), Array("b".utf8))
    let name = labelOK ? (labelArg.map(cView) ?? Array("a".utf8)) : Array("a".utf8)
    check(shown?.message == Array("Must match ".utf8) + name, "matches message \(show(shown?.message ?? []))")

    // 8. Lengths from random Int32s, and a value judged by them.
    let lengthForm = newForm()
    _ = fw_form_add_field(lengthForm, "m", nil, nil)
    let minimum = numbers.int32(), maximum = numbers.int32()
    let minStatus = withCString(messageArg) { m in
        call("fw_field_add_min_length", invalid: invalidOffsets([messageArg])) { fw_field_add_min_length(lengthForm, "m", minimum, m) }
    }
    let maxStatus = withCString(messageArg) { m in
        call("fw_field_add_max_length", invalid: invalidOffsets([messageArg])) { fw_field_add_max_length(lengthForm, "m", maximum, m) }
    }
    if invalidOffsets([messageArg]).isEmpty {
        check((minStatus == .FW_OK) == (minimum >= 0), "min_length \(minimum) gave \(minStatus.rawValue)")
        let maxOK = maximum >= 0 && (minStatus != .FW_OK || maximum >= minimum)
        check((maxStatus == .FW_OK) == maxOK, "max_length \(maximum) after min \(minimum) gave \(maxStatus.rawValue)")
        for value in [valueArg, value2Arg] where isValidUTF8(cView(value)) && !cView(value).isEmpty {
            _ = withCString(value) { fw_field_set_value(lengthForm, "m", $0) }
            let count = text(cView(value)).count
            var valid = true
            if minStatus == .FW_OK && count < Int(minimum) { valid = false }
            if maxStatus == .FW_OK && count > Int(maximum) { valid = false }
            let snap = snapshot(lengthForm)
            let f = field(snap, Array("m".utf8))
            checkSnapshotAt(lengthForm, 0, "length rules", seed: mix([flags], value, segments[7]), current: snap)
            check(f?.validity == (valid ? 1 : 2), "length rules (min \(minimum) \(minStatus.rawValue), max \(maximum) \(maxStatus.rawValue)) on \(count) characters: validity \(f?.validity ?? -1)")
        }
    }

    // 9. Every string query with a random buffer size (0, NULL, exact heap blocks), on live and dead ids.
    for (target, id) in [(form, fieldID), (regexForm, Array("r".utf8)), (form, valueArg)] {
        // One snapshot for every expectation: the queries below change nothing (checked on sampled steps).
        let snap = snapshot(target)
        let f = field(snap, cView(id))
        let sizeByte = Int(numbers.byte()), mode = numbers.byte()
        let size = mode & 8 != 0 ? sizeByte % 4 : sizeByte
        withCString(id) { cid in
            let queries: [(String, [UInt8]?, StringCall)] = [
                ("fw_field_value", f?.value, { fw_field_value(target, cid, $0, $1, $2) }),
                ("fw_field_message", f?.message, { fw_field_message(target, cid, $0, $1, $2) }),
                ("fw_field_display_message", f?.displayMessage, { fw_field_display_message(target, cid, $0, $1, $2) }),
            ]
            for (what, expected, query) in queries {
                probeBuffer(what, size: size, nullBuffer: mode & 1 != 0, nullLength: mode & 2 != 0, expected: expected, query)
            }
        }
        probeBuffer("fw_form_first_invalid", size: size, nullBuffer: mode & 1 != 0, nullLength: mode & 2 != 0,
                    expected: snap?.firstInvalid) { fw_form_first_invalid(target, $0, $1, $2) }
        probeBuffer("fw_form_field_id", size: size, nullBuffer: mode & 1 != 0, nullLength: mode & 2 != 0,
                    expected: snap?.fields.first?.id) { fw_form_field_id(target, 0, $0, $1, $2) }
        probeBuffer("fw_last_error_message", size: size, nullBuffer: mode & 1 != 0, nullLength: mode & 2 != 0,
                    expected: lastErrorMessage()) { fw_last_error_message($0, $1, $2) }
        if checkThisStep() { check(snapshot(target) == snap, "the string queries changed the form") }
    }
    let code = numbers.int32()
    check(isValidUTF8(cBytes(fw_status_string(code))), "fw_status_string(\(code)) not UTF-8")

    // 10. Everything freed: live count back, each stored validator context destroyed exactly once.
    for f in [form, regexForm, customForm, matchForm, lengthForm] { free(form: f) }
    check(fw_form_live_count() == liveAtStart, "live count \(fw_form_live_count()) after freeing, was \(liveAtStart)")
    check(destroyed - destroyedAtStart == contextsAdded, "\(destroyed - destroyedAtStart) contexts destroyed, \(contextsAdded) stored")
    return 0
}
