// libFuzzer harness: random sequences of C-ABI calls decoded from the input, checked against a model.
//
// Input: a stream of operations, each an opcode byte followed by the bytes it needs (handle choice,
// field-id choice, values, Int32s, buffer sizes...). Custom validators draw their verdicts from the
// same stream. After every call: the status is known and matches fw_last_error_code; a failed call left
// the form's whole observable state (every query) unchanged; a successful one moved it as the model
// says; buffers are NUL-terminated within their size. At the end everything is freed: the live count
// is back where it started and every stored validator context was destroyed exactly once.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// MARK: Pools (small, so ids collide and rules meet values they care about)

private let idPool: [[UInt8]] = [
    Array("a".utf8), Array("b".utf8), Array("c".utf8), Array("email".utf8), Array("pw".utf8),
    Array("\u{E9}".utf8), Array("e\u{301}".utf8),   // canonically equivalent ids
    [], [0xFF], [0x78, 0x00, 0x79],                   // empty, invalid UTF-8, embedded NUL ("x")
    Array("x".utf8), Array(repeating: 0x66, count: 100), Array("👨‍👩‍👧".utf8), [0xC3], [0xED, 0xA0, 0x80],
]
private let valuePool: [[UInt8]] = [
    [], Array("a".utf8), Array("abc".utf8), Array("a@b.co".utf8), Array("0123456789".utf8),
    Array("\u{E9}".utf8), Array("e\u{301}".utf8), Array("👨‍👩‍👧‍👦🇫🇷".utf8), [0x61, 0xFF], [0xF4, 0x90, 0x80, 0x80],
    Array(repeating: 0x61, count: 30) + [0x21], Array("hello world".utf8), Array("ÅΩ\u{200B}\u{FEFF}".utf8),
    Array(repeating: 0x7A, count: 300), [0xE0, 0x80, 0xAF], Array("1".utf8),
]
private let patternPool: [[UInt8]] = [
    Array("[a-z]+".utf8), Array("(a+)+$".utf8), Array("(a|aa)+".utf8), Array("\\d{10}".utf8), Array("[".utf8),
    Array("(?<x>a)\\k<x>".utf8), Array("\\C+".utf8), Array(".*".utf8), Array("(*LIMIT_MATCH=10)a+b".utf8),
    Array("\\p{L}+".utf8), [0x28, 0xFF, 0x29], Array("(.*a){20}".utf8), Array("(?=a)*".utf8), Array("a{99999}".utf8),
    Array("(?1)(a)".utf8), Array("\\X{2,3}".utf8),
]
private let messagePool: [[UInt8]?] = [nil, Array("custom".utf8), [], [0xC0, 0x80], Array("日本語".utf8), nil]

// MARK: Validator contexts

/// Per-context record; the malloc'd context holds its index here.
private struct ContextRecord {
    var form: UInt          // the handle it was registered with (for re-entrant calls)
    var stored = false      // the library accepted it (and now owns it)
    var destroyed = 0
    var noDestructor = false  // added with destroy == NULL: the harness frees it after the form is gone
}
nonisolated(unsafe) private var pendingFree: [UnsafeMutableRawPointer] = []
nonisolated(unsafe) private var contexts: [ContextRecord] = []
nonisolated(unsafe) private var stream = ByteReader(nil, 0)  // verdicts are drawn from the input too
nonisolated(unsafe) private var validatorCalls = 0
private let invalidMessage: StaticString = "bad \u{1}"
nonisolated(unsafe) private var rawMessage: UnsafeMutablePointer<CChar> = {
    let p = malloc(4)!.assumingMemoryBound(to: CChar.self)
    p[0] = CChar(bitPattern: 0xC3); p[1] = 0x28; p[2] = CChar(bitPattern: 0xFF); p[3] = 0
    return p
}()

private func contextIndex(_ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { fail("validator/destructor got a NULL context") }
    return context.load(as: Int.self)
}

private let fuzzValidator: fw_validate_fn = { context, value, length, outMessage in
    validatorCalls += 1
    let index = contextIndex(context)
    check(contexts[index].destroyed == 0 && contexts[index].stored || !contexts[index].stored,
          "validator called after its context was destroyed")
    guard let value else { fail("validator got a NULL value") }
    check(strlen(value) == Int(length), "validator: strlen \(strlen(value)) != value_length \(length)")
    let bytes = cBytes(value)
    check(!bytes.isEmpty && isValidUTF8(bytes), "validator got \(show(bytes))")
    let form = OpaquePointer(bitPattern: contexts[index].form)
    switch stream.byte() % 11 {
    case 0: return 0
    case 1: return 1
    case 2: outMessage?.pointee = UnsafeRawPointer(invalidMessage.utf8Start).assumingMemoryBound(to: CChar.self); return 1
    case 3: outMessage?.pointee = UnsafePointer(rawMessage); return 1
    case 4: return 2
    case 5: outMessage?.pointee = UnsafePointer(rawMessage); return 2
    case 6: return stream.int32()
    case 7:
        // Re-entrant calls into the form being validated: refused with FW_ERR_BUSY, never a deadlock.
        var count: UInt = 0, valid = false
        let calls: [(String, () -> fw_status)] = [
            ("fw_field_set_value", { fw_field_set_value(form, "a", "x") }),
            ("fw_form_free", { fw_form_free(form) }),
            ("fw_form_field_count", { fw_form_field_count(form, &count) }),
            ("fw_form_validate", { fw_form_validate(form, &valid) }),
            ("fw_field_add_required", { fw_field_add_required(form, "a", nil) }),
        ]
        for (what, call) in calls {
            let status = call()
            check(status == .FW_ERR_BUSY, "re-entrant \(what) from a validator gave \(status.rawValue)")
            check(fw_last_error_code() == .FW_ERR_BUSY, "re-entrant \(what): last error not BUSY")
        }
        return 0
    case 8:
        // Other forms stay usable from inside a validator.
        let live = fw_form_live_count()
        var other: OpaquePointer? = nil
        check(fw_form_create(&other) == .FW_OK, "fw_form_create inside a validator failed")
        check(fw_form_add_field(other, "z", nil, "v") == .FW_OK, "add_field on another form inside a validator failed")
        check(fw_form_free(other) == .FW_OK, "fw_form_free of another form inside a validator failed")
        check(fw_form_live_count() == live, "live count changed inside a validator")
        return 1
    case 9: outMessage?.pointee = UnsafePointer(rawMessage + 3); return 1   // ""
    default: return bytes.count % 2 == 0 ? 0 : 1
    }
}

private let fuzzDestroy: fw_destroy_fn = { context in
    let index = contextIndex(context)
    check(contexts[index].stored, "destructor called for a context the library refused")
    contexts[index].destroyed += 1
    check(contexts[index].destroyed == 1, "context destroyed \(contexts[index].destroyed) times")
    free(context)
}

// MARK: Model

private struct FieldModel {
    var id: [UInt8]
    var initial: [UInt8]
    var value: [UInt8]
    var touched = false
    var required = false
    var lengths: [(isMin: Bool, count: Int)] = []
    /// Has a rule whose verdict the model does not predict (pattern, matches, custom).
    var opaque = false
    var key: String { text(id) }

    /// The strict verdict the model predicts on the current value (nil: opaque).
    var predicted: fw_validity? {
        if value.isEmpty { return required ? .FW_VALIDITY_INVALID : .FW_VALIDITY_EMPTY }
        if opaque { return nil }
        let count = text(value).count
        for rule in lengths where rule.isMin ? count < rule.count : count > rule.count { return .FW_VALIDITY_INVALID }
        return .FW_VALIDITY_VALID
    }
}

private struct FormModel {
    var handle: OpaquePointer?
    var fields: [FieldModel] = []
    var focused: Int? = nil
    var contextIndices: [Int] = []

    func position(_ id: [UInt8]) -> Int? {
        guard isValidUTF8(id) else { return nil }
        let key = text(id)
        return fields.firstIndex { $0.key == key }  // Swift String equality, as the engine's dictionary
    }
}

// MARK: The interpreter

private struct Session {
    var reader: ByteReader
    var forms: [FormModel] = []
    var dead: [OpaquePointer?] = []

    /// Picks a handle: a live form (index into `forms`), a freed one, NULL or garbage.
    mutating func pickHandle() -> (OpaquePointer?, Int?) {
        let choice = reader.byte()
        switch choice % 10 {
        case 0...5 where !forms.isEmpty:
            let index = Int(choice / 10) % forms.count
            return (forms[index].handle, index)
        case 6 where !dead.isEmpty: return (dead[Int(choice / 10) % dead.count], nil)
        case 7: return (nil, nil)
        case 8:
            var bits = UInt(truncatingIfNeeded: reader.uint64())
            if bits == 0 || forms.contains(where: { UInt(bitPattern: $0.handle) == bits }) { bits = 0xDEAD_BEE0 }
            return (OpaquePointer(bitPattern: bits), nil)
        default:
            return forms.isEmpty ? (nil, nil) : (forms[0].handle, 0)
        }
    }

    mutating func pickID(_ form: Int?) -> [UInt8] {
        let b = reader.byte()
        if b == 0xFF { return reader.chunk(limit: 64) }
        // Mostly ids of existing fields, so events reach real fields.
        if b & 1 == 0, let form, !forms[form].fields.isEmpty {
            return forms[form].fields[Int(b >> 1) % forms[form].fields.count].id
        }
        return idPool[Int(b >> 1) % idPool.count]
    }

    mutating func pickValue() -> [UInt8] {
        let b = reader.byte()
        if b >= 0xF0 { return reader.chunk(limit: 128) }
        return valuePool[Int(b) % valuePool.count]
    }

    mutating func pickOptional(_ pool: [[UInt8]?]) -> [UInt8]? {
        let b = reader.byte()
        if b >= 0xF8 { return reader.chunk(limit: 64) }
        return pool[Int(b) % pool.count]
    }

    mutating func pickLength() -> Int32 {
        let b = reader.byte()
        if b < 0xC0 { return Int32(b % 12) }
        return reader.int32()
    }

    // MARK: One step

    mutating func step() {
        let op = reader.byte() % 22
        let (handle, index) = pickHandle()
        let before = index.flatMap { i in snapshot(forms[i].handle) }
        if let index { checkAgainstModel(forms[index], before) }
        var refused: Set<fw_status> = []      // statuses some precondition makes acceptable
        var mustFail = false                  // some precondition is violated, so OK is wrong
        func needUTF8(_ arguments: [[UInt8]?]) {
            for a in arguments { if let a, !isValidUTF8(cView(a)) { refused.insert(.FW_ERR_INVALID_UTF8); mustFail = true } }
        }
        func needHandle() {
            if index == nil { refused.insert(.FW_ERR_INVALID_HANDLE); mustFail = true }
        }
        func needField(_ id: [UInt8]) -> Int? {
            needHandle()
            guard let index else { return nil }
            let position = forms[index].position(cView(id))
            if position == nil && isValidUTF8(cView(id)) { refused.insert(.FW_ERR_UNKNOWN_FIELD); mustFail = true }
            return position
        }
        var apply: (inout FormModel) -> Void = { _ in }
        var allowed: Set<fw_status> = [.FW_OK]   // outcomes that may happen even when preconditions hold
        var name = "op \(op)"
        var outValid: Bool? = nil
        var eventPosition: Int? = nil
        let status: fw_status

        switch op {
        case 0:  // create
            name = "fw_form_create"
            if forms.count >= 4 { return }
            var form: OpaquePointer? = nil
            let nullOut = reader.byte() == 0x5A
            status = nullOut ? fw_form_create(nil) : fw_form_create(&form)
            checkLastError(status, name)
            if nullOut { check(status == .FW_ERR_NULL_ARGUMENT, "fw_form_create(NULL) gave \(status.rawValue)"); return }
            check(status == .FW_OK && form != nil, "fw_form_create failed with \(status.rawValue)")
            check(!forms.contains { $0.handle == form } && !dead.contains(form), "fw_form_create reused a handle")
            forms.append(FormModel(handle: form))
            check(snapshot(form) == FormSnapshot(fields: [], isValid: true, firstInvalid: []), "new form not empty")
            return
        case 1:  // free
            name = "fw_form_free"
            status = fw_form_free(handle)
            checkLastError(status, name)
            if handle == nil { check(status == .FW_OK, "fw_form_free(NULL) gave \(status.rawValue)"); return }
            guard let index else { check(status == .FW_ERR_INVALID_HANDLE, "fw_form_free(bad handle) gave \(status.rawValue)"); return }
            check(status == .FW_OK, "fw_form_free(live) gave \(status.rawValue)")
            for c in forms[index].contextIndices {
                check(contexts[c].destroyed == 1, "fw_form_free returned but a validator context was not destroyed")
            }
            dead.append(handle)
            forms.remove(at: index)
            check(snapshot(handle) == nil, "freed handle still answers")
            return
        case 2:  // add field
            let id = pickID(nil), label = pickOptional(idPool.map { $0 } + [nil]), initial = pickOptional(valuePool + [nil])
            name = "fw_form_add_field(\(show(id)))"
            needUTF8([id, label, initial]); needHandle()
            if let index, isValidUTF8(cView(id)) {
                if cView(id).isEmpty { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
                else if forms[index].position(cView(id)) != nil { refused.insert(.FW_ERR_DUPLICATE_FIELD); mustFail = true }
            }
            status = withCString(id) { i in withCString(label) { l in withCString(initial) { v in fw_form_add_field(handle, i, l, v) } } }
            apply = { $0.fields.append(FieldModel(id: cView(id), initial: initial.map(cView) ?? [], value: initial.map(cView) ?? [])) }
        case 3...9:  // rules
            let id = pickID(index), message = pickOptional(messagePool)
            needUTF8([id, message])
            let position = needField(id)
            allowed.insert(.FW_ERR_CALLBACK)   // adding a rule re-runs the field's validators
            switch op {
            case 3:
                name = "fw_field_add_required"
                status = withCString(id) { i in withCString(message) { m in fw_field_add_required(handle, i, m) } }
                apply = { if let position { $0.fields[position].required = true } }
            case 4:
                let email = reader.bool()
                name = email ? "fw_field_add_email" : "fw_field_add_phone"
                status = withCString(id) { i in withCString(message) { m in
                    email ? fw_field_add_email(handle, i, m) : fw_field_add_phone(handle, i, m) } }
                apply = { if let position { $0.fields[position].opaque = true } }
                allowed.insert(.FW_ERR_CALLBACK)
            case 5, 6:
                let isMin = op == 5, count = pickLength()
                name = isMin ? "fw_field_add_min_length(\(count))" : "fw_field_add_max_length(\(count))"
                // A bound contradicting any earlier opposite bound of the field is refused.
                var conflict = count < 0
                if let index, let position {
                    let others = forms[index].fields[position].lengths.filter { $0.isMin != isMin }
                    conflict = conflict || others.contains { isMin ? Int(count) > $0.count : Int(count) < $0.count }
                }
                if conflict { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
                status = withCString(id) { i in withCString(message) { m in
                    isMin ? fw_field_add_min_length(handle, i, count, m) : fw_field_add_max_length(handle, i, count, m) } }
                apply = { if let position { $0.fields[position].lengths.append((isMin, Int(count))) } }
                allowed.insert(.FW_ERR_CALLBACK)
            case 7:
                let b = reader.byte()
                let pattern = b >= 0xE0 ? reader.chunk(limit: 64) : patternPool[Int(b) % patternPool.count]
                name = "fw_field_add_regex(\(show(pattern)))"
                needUTF8([pattern])
                status = withCString(id) { i in withCString(pattern) { p in withCString(message) { m in fw_field_add_regex(handle, i, p, m) } } }
                apply = { if let position { $0.fields[position].opaque = true } }
                allowed.formUnion([.FW_ERR_INVALID_PATTERN, .FW_ERR_CALLBACK])
            case 8:
                let other = pickID(index)
                name = "fw_field_add_matches(\(show(other)))"
                needUTF8([other])
                if let index, let position, isValidUTF8(cView(other)) {
                    if let o = forms[index].position(cView(other)) {
                        if o == position { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
                    } else { refused.insert(.FW_ERR_UNKNOWN_FIELD); mustFail = true }
                }
                status = withCString(id) { i in withCString(other) { o in withCString(message) { m in fw_field_add_matches(handle, i, o, m) } } }
                apply = { if let position { $0.fields[position].opaque = true } }
                allowed.insert(.FW_ERR_CALLBACK)
            default:
                name = "fw_field_add_custom"
                let flags = reader.byte()
                let c = contexts.count
                contexts.append(ContextRecord(form: UInt(bitPattern: handle)))
                let context = malloc(MemoryLayout<Int>.size)!
                context.storeBytes(of: c, as: Int.self)
                let validate: fw_validate_fn? = flags & 7 == 7 ? nil : fuzzValidator
                let destroy: fw_destroy_fn? = flags & 8 != 0 ? nil : fuzzDestroy
                if validate == nil { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
                // Mark as stored before the call: the destructor may only run for a stored context, and
                // on success the library owns it from the moment the call returns.
                contexts[c].stored = true
                status = withCString(id) { i in withCString(message) { m in fw_field_add_custom(handle, i, validate, context, destroy, m) } }
                if status == .FW_OK {
                    if destroy == nil { contexts[c].noDestructor = true; pendingFree.append(context) }
                    else if let index { forms[index].contextIndices.append(c) }
                } else {
                    contexts[c].stored = false
                    check(contexts[c].destroyed == 0, "refused context was destroyed")
                    free(context)
                }
                apply = { if let position { $0.fields[position].opaque = true } }
                allowed.insert(.FW_ERR_CALLBACK)
            }
        case 10...13:  // events
            let id = pickID(index)
            needUTF8([id])
            let position = needField(id)
            allowed.insert(.FW_ERR_CALLBACK)
            switch op {
            case 10:
                name = "fw_field_focus"
                status = withCString(id) { fw_field_focus(handle, $0) }
                apply = { m in
                    guard let position else { return }
                    if let f = m.focused, f != position { m.fields[f].touched = true }
                    m.focused = position
                }
            case 11:
                name = "fw_field_blur"
                status = withCString(id) { fw_field_blur(handle, $0) }
                eventPosition = position
                apply = { m in
                    guard let position else { return }
                    m.fields[position].touched = true
                    if m.focused == position { m.focused = nil }
                }
            case 12:
                let value = pickValue()
                name = "fw_field_set_value(\(show(value)))"
                needUTF8([value])
                status = withCString(id) { i in withCString(value) { v in fw_field_set_value(handle, i, v) } }
                eventPosition = position
                apply = { m in if let position { m.fields[position].value = cView(value) } }
            default:
                name = "fw_field_touch"
                status = withCString(id) { fw_field_touch(handle, $0) }
                apply = { m in if let position { m.fields[position].touched = true } }
            }
        case 14:
            name = "fw_form_touch_all"
            needHandle()
            allowed.insert(.FW_ERR_CALLBACK)
            status = fw_form_touch_all(handle)
            apply = { m in for i in m.fields.indices { m.fields[i].touched = true } }
        case 15:
            name = "fw_form_validate"
            needHandle()
            allowed.insert(.FW_ERR_CALLBACK)
            var valid = false
            if reader.byte() == 0x5A {
                refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true
                status = fw_form_validate(handle, nil)
            } else {
                status = fw_form_validate(handle, &valid)
                outValid = valid
            }
            apply = { m in for i in m.fields.indices { m.fields[i].touched = true } }
        case 16:
            name = "fw_form_reset"
            needHandle()
            allowed.insert(.FW_ERR_CALLBACK)
            status = fw_form_reset(handle)
            apply = { m in
                for i in m.fields.indices { m.fields[i].value = m.fields[i].initial; m.fields[i].touched = false }
                m.focused = nil
            }
        case 17:  // enum / bool queries, sometimes with a NULL out pointer
            let id = pickID(index)
            let which = reader.byte()
            let nullOut = which & 0x80 != 0
            name = "field query \(which % 5)"
            if nullOut { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
            needUTF8([id])
            _ = needField(id)
            let out = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
            defer { out.deallocate() }
            out.storeBytes(of: 0x7777_7777, as: Int32.self)
            let p: UnsafeMutableRawPointer? = nullOut ? nil : out
            status = withCString(id) { i in
                switch which % 5 {
                case 0: return fw_field_phase(handle, i, p?.assumingMemoryBound(to: fw_phase.self))
                case 1: return fw_field_validity(handle, i, p?.assumingMemoryBound(to: fw_validity.self))
                case 2: return fw_field_display(handle, i, p?.assumingMemoryBound(to: fw_display.self))
                case 3: return fw_field_touched(handle, i, p?.assumingMemoryBound(to: Bool.self))
                default: return fw_field_limit_exceeded(handle, i, p?.assumingMemoryBound(to: Bool.self))
                }
            }
            if status == .FW_OK && which % 5 < 3 {
                let raw = out.load(as: Int32.self)
                check((0...2).contains(raw), "\(name) stored \(raw)")
            }
        case 18:  // string queries with random buffers
            let id = pickID(index)
            let which = reader.byte() % 6, size = Int(reader.byte()) % 40, mode = reader.byte()
            let fieldIndex = UInt(reader.byte() % 6)
            let position = index.flatMap { forms[$0].position(cView(id)) }
            let field = position.flatMap { p in before?.fields[p] }
            name = "string query \(which)"
            status = withCString(id) { i in
                let nullBuffer = mode & 1 != 0, nullLength = mode & 2 != 0
                switch which {
                case 0: return probeBuffer("fw_field_value", size: size, nullBuffer: nullBuffer, nullLength: nullLength,
                                           expected: field?.value) { fw_field_value(handle, i, $0, $1, $2) }
                case 1: return probeBuffer("fw_field_message", size: size, nullBuffer: nullBuffer, nullLength: nullLength,
                                           expected: field?.message) { fw_field_message(handle, i, $0, $1, $2) }
                case 2: return probeBuffer("fw_field_display_message", size: size, nullBuffer: nullBuffer, nullLength: nullLength,
                                           expected: field?.displayMessage) { fw_field_display_message(handle, i, $0, $1, $2) }
                case 3: return probeBuffer("fw_form_first_invalid", size: size, nullBuffer: nullBuffer, nullLength: nullLength,
                                           expected: before?.firstInvalid) { fw_form_first_invalid(handle, $0, $1, $2) }
                case 4:
                    let expected = before.flatMap { Int(fieldIndex) < $0.fields.count ? $0.fields[Int(fieldIndex)].id : nil }
                    return probeBuffer("fw_form_field_id(\(fieldIndex))", size: size, nullBuffer: nullBuffer, nullLength: nullLength,
                                       expected: expected) { fw_form_field_id(handle, fieldIndex, $0, $1, $2) }
                default:
                    let expected = lastErrorMessage()
                    return probeBuffer("fw_last_error_message", size: size, nullBuffer: nullBuffer, nullLength: nullLength,
                                       expected: expected) { fw_last_error_message($0, $1, $2) }
                }
            }
            checkKnown(status, name)
            check(status != .FW_ERR_INTERNAL, "\(name) gave FW_ERR_INTERNAL")
            if which != 5 { check(fw_last_error_code() == status, "\(name): last error \(fw_last_error_code().rawValue) vs \(status.rawValue)") }
            if let index { check(snapshot(forms[index].handle) == before, "\(name) changed the form") }
            return
        case 19:
            name = "fw_form_field_count/is_valid"
            needHandle()
            let nullOut = reader.byte() == 0x5A
            if nullOut { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
            var count: UInt = 0, valid = false
            if reader.bool() {
                status = nullOut ? fw_form_field_count(handle, nil) : fw_form_field_count(handle, &count)
                if status == .FW_OK, let index { check(Int(count) == forms[index].fields.count, "field count \(count)") }
            } else {
                status = nullOut ? fw_form_is_valid(handle, nil) : fw_form_is_valid(handle, &valid)
                if status == .FW_OK { check(valid == before?.isValid, "is_valid \(valid) vs snapshot") }
            }
        default:  // match limits, including 0 and huge values
            let m = UInt32(bitPattern: reader.int32()) % 2_000_001, d = UInt32(bitPattern: reader.int32()), h = UInt32(bitPattern: reader.int32()) % 65_537
            name = "fw_form_set_match_limits(\(m), \(d), \(h))"
            needHandle()
            if m == 0 || d == 0 || h == 0 { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
            allowed.insert(.FW_ERR_CALLBACK)
            status = fw_form_set_match_limits(handle, m, d, h)
        }

        checkLastError(status, name)
        check(status != .FW_ERR_INTERNAL, "\(name) returned FW_ERR_INTERNAL (no input should cause it)")
        if mustFail {
            check(refused.contains(status), "\(name): expected one of \(refused.map(\.rawValue).sorted()), got \(status.rawValue)")
        } else {
            check(allowed.contains(status), "\(name): status \(status.rawValue), allowed \(allowed.map(\.rawValue).sorted())")
        }
        guard let index else { return }
        let after = snapshot(forms[index].handle)
        if status != .FW_OK {
            check(after == before, "failed \(name) (status \(status.rawValue)) changed the form's observable state")
            return
        }
        apply(&forms[index])
        checkAgainstModel(forms[index], after)
        if let outValid { check(outValid == after?.isValid, "fw_form_validate said \(outValid), is_valid says \(after?.isValid ?? false)") }
        if op == 16 { check(after?.fields.allSatisfy { $0.phase == 0 && !$0.touched } ?? false, "reset left a field non-idle or touched") }
        if let position = eventPosition, let after, forms[index].focused != position {
            // After blur / set_value on an unfocused field: strict stage, idle only when empty and optional.
            let f = forms[index].fields[position]
            let idle = f.value.isEmpty && !f.required
            check((after.fields[position].phase == fw_phase.FW_PHASE_IDLE.rawValue) == idle,
                  "\(name): field \(show(f.id)) phase \(after.fields[position].phase) (value \(show(f.value)), required \(f.required))")
        }
    }

    /// The model's view against the library's.
    func checkAgainstModel(_ model: FormModel, _ snap: FormSnapshot?) {
        guard let snap else { fail("live form \(String(describing: model.handle)) does not answer") }
        check(snap.fields.count == model.fields.count, "\(snap.fields.count) fields, model has \(model.fields.count)")
        var allPredicted = true, predictedValid = true
        for (i, (f, m)) in zip(snap.fields, model.fields).enumerated() {
            let name = show(m.id)
            check(f.id == m.id, "field \(i) id \(show(f.id)), model \(name)")
            check(f.value == m.value, "\(name): value \(show(f.value)), model \(show(m.value))")
            check(f.touched == m.touched, "\(name): touched \(f.touched), model \(m.touched)")
            check((f.phase == fw_phase.FW_PHASE_FOCUSED.rawValue) == (model.focused == i), "\(name): phase \(f.phase), model focus \(String(describing: model.focused))")
            if let predicted = m.predicted {
                predictedValid = predictedValid && predicted != .FW_VALIDITY_INVALID
                if f.phase == fw_phase.FW_PHASE_INACTIVE.rawValue {
                    check(f.validity == predicted.rawValue, "\(name): validity \(f.validity), model \(predicted.rawValue) (value \(show(m.value)), lengths \(m.lengths), required \(m.required))")
                }
                if f.phase == fw_phase.FW_PHASE_FOCUSED.rawValue && !m.value.isEmpty {
                    check(f.validity == predicted.rawValue, "\(name): focused validity \(f.validity), model \(predicted.rawValue)")
                }
            } else {
                allPredicted = false
            }
        }
        if allPredicted { check(snap.isValid == predictedValid, "is_valid \(snap.isValid), model \(predictedValid)") }
    }
}

// MARK: Entry point

@_cdecl("LLVMFuzzerTestOneInput")
public func formwellCallSequencesFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let liveAtStart = fw_form_live_count()
    let contextsAtStart = contexts.count
    // Verdicts come from the input's tail, operations from its head.
    let split = size / 4 * 3
    stream = ByteReader(data.map { $0 + split }, size - split)
    var session = Session(reader: ByteReader(data, split))
    var steps = 0
    while !session.reader.isEmpty && steps < 400 {
        session.step()
        steps += 1
    }
    for form in session.forms {
        check(fw_form_free(form.handle) == .FW_OK, "final fw_form_free failed")
        for c in form.contextIndices { check(contexts[c].destroyed == 1, "context not destroyed when its form was freed") }
    }
    check(fw_form_live_count() == liveAtStart, "live count \(fw_form_live_count()) after freeing everything, was \(liveAtStart)")
    for c in contextsAtStart..<contexts.count where contexts[c].stored && !contexts[c].noDestructor {
        check(contexts[c].destroyed == 1, "stored context \(c) destroyed \(contexts[c].destroyed) times")
    }
    contexts.removeSubrange(contextsAtStart...)
    for p in pendingFree { free(p) }
    pendingFree.removeAll()
    return 0
}
