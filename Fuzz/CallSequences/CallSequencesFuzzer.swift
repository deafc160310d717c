// libFuzzer harness: random sequences of C-ABI calls decoded from the input, checked against a model.
//
// Input: a stream of operations, each an opcode byte followed by the bytes it needs (handle choice,
// field-id choice, values, Int32s, buffer sizes...). Custom validators draw their verdicts from the
// same stream. After every call: the status is known and matches fw_last_error_code; a failed call left
// the form's whole observable state (every query) unchanged; a successful one moved it as the model
// says; buffers are NUL-terminated within their size. At the end everything is freed: the live count
// is back where it started and every stored validator context was destroyed exactly once.
//
// Opcodes 0-21 are the original calls (their encoding is unchanged, so the committed corpus still
// decodes); 22-28 cover the snapshot / index / atomic-rules functions:
//   22 fw_field_snapshot     23 fw_field_snapshot_at     24 fw_form_snapshots
//   25 fw_field_update / fw_field_update_at               26 fw_form_add_field_with_rules
//   27 fw_form_match_limits  28 fw_form_field_index, then fw_field_{focus,blur,set_value,touch}_at
// Snapshots get random `size` members (sizeof, larger with sentinels after the struct, too small,
// unaligned, absurd) and text buffers (NULL/0, NULL with a size, cuts inside and between the texts,
// exactly text_size, larger); every member and copied text must agree with the per-property queries.
// 29-34 cover asynchronous rules (issue 12; fw_form_add_field_with_rules also takes FW_RULE_ASYNC):
//   29 fw_field_add_async_rule   30 fw_form_tick   31 fw_form_next_request   32 fw_form_resolve
//   33 fw_form_submit            34 fw_form_next_due_time and fw_form_info's second version
// A field with an async rule is opaque to the model (pending / the host's verdict); a request handed
// out must carry the field's current value; resolving a request handed out and not yet resolved must
// succeed, resolving it again must be FW_ERR_REQUEST_CLOSED, id 0 FW_ERR_UNKNOWN_REQUEST; a too-small
// buffer hands nothing out; the form's clock (fw_form_info.now_ms) follows the model's.
// 35 covers the regex time bound (issue 14): fw_form_set_time_limit (0 refused; 1 µs to 20 ms, so a
// catastrophic pattern is cut short after anything from at once to four times the default) and
// fw_form_time_limit read back (NULL out-parameter refused), against the model's last value set.
import FormwellC
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
    var decoy = false         // passed in an fw_rule whose kind is not FW_RULE_CUSTOM: must never be used
}
nonisolated(unsafe) private var pendingFree: [UnsafeMutableRawPointer] = []
nonisolated(unsafe) private var contexts: [ContextRecord] = []
nonisolated(unsafe) private var stream = ByteReader(nil, 0)  // verdicts are drawn from the input too
nonisolated(unsafe) private var validatorCalls = 0
/// FORMWELL_FUZZ_TRACE=1: print every call and its status (to see what an input reaches).
private let trace = getenv("FORMWELL_FUZZ_TRACE") != nil
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
    check(!contexts[index].decoy, "the validator of a non-custom fw_rule was called")
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
        var count: UInt = 0, valid = false, position: UInt = 0, limit: UInt32 = 0
        var snap = fw_snapshot()
        snap.size = snapshotSize
        var request = fw_request()
        request.size = MemoryLayout<fw_request>.size
        var outcome: Int32 = 0, due: UInt64 = 0
        let calls: [(String, () -> fw_status)] = [
            ("fw_field_set_value", { fw_field_set_value(form, "a", "x") }),
            ("fw_form_free", { fw_form_free(form) }),
            ("fw_form_field_count", { fw_form_field_count(form, &count) }),
            ("fw_form_validate", { fw_form_validate(form, &valid) }),
            ("fw_field_add_required", { fw_field_add_required(form, "a", nil) }),
            ("fw_field_snapshot_at", { fw_field_snapshot_at(form, 0, &snap, nil, 0) }),
            ("fw_field_snapshot", { fw_field_snapshot(form, "a", &snap, nil, 0) }),
            ("fw_field_update_at", { fw_field_update_at(form, 0, "x", &snap, nil, 0) }),
            ("fw_form_snapshots", { fw_form_snapshots(form, &snap, 1, &count, nil, 0, nil) }),
            ("fw_form_field_index", { fw_form_field_index(form, "a", &position) }),
            ("fw_field_touch_at", { fw_field_touch_at(form, 0) }),
            ("fw_form_match_limits", { fw_form_match_limits(form, &limit, nil, nil) }),
            ("fw_form_add_field_with_rules", { fw_form_add_field_with_rules(form, "reentrant", nil, nil, nil, 0) }),
            ("fw_field_add_async_rule", { fw_field_add_async_rule(form, "a", "check", 0, nil) }),
            ("fw_form_tick", { fw_form_tick(form, 1) }),
            ("fw_form_next_request", { fw_form_next_request(form, 1, &request, nil, 0, &valid) }),
            ("fw_form_resolve", { fw_form_resolve(form, 1, 0, nil, nil) }),
            ("fw_form_submit", { fw_form_submit(form, nil, &outcome) }),
            ("fw_form_next_due_time", { fw_form_next_due_time(form, &due, &valid) }),
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
    check(!contexts[index].decoy, "destructor of a non-custom fw_rule's context was called")
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
    /// Every rule in the order added (for fw_snapshot's failing_rule).
    var rules: [ModelRule] = []
    /// Asynchronous rules (numbered after `rules`): the verdict of a non-empty value is the host's.
    var asyncCount = 0
    var key: String { text(id) }

    mutating func addAsync() {
        asyncCount += 1
        opaque = true
    }

    mutating func add(_ rule: ModelRule) {
        rules.append(rule)
        switch rule {
        case .required: required = true
        case .length(let isMin, let count): lengths.append((isMin, count))
        case .opaque: opaque = true
        }
    }

    /// The rule an invalid verdict comes from, when the model knows: the first required rule for an
    /// empty value, else (no opaque rule) the first length rule the value breaks.
    var predictedFailingRule: Int? {
        if value.isEmpty { return rules.firstIndex { if case .required = $0 { true } else { false } } }
        if opaque { return nil }
        let count = text(value).count
        return rules.firstIndex {
            if case .length(let isMin, let n) = $0 { isMin ? count < n : count > n } else { false }
        }
    }

    /// The strict verdict the model predicts on the current value (nil: opaque).
    var predicted: fw_validity? {
        if value.isEmpty { return required ? .FW_VALIDITY_INVALID : .FW_VALIDITY_EMPTY }
        if opaque { return nil }
        let count = text(value).count
        for rule in lengths where rule.isMin ? count < rule.count : count > rule.count { return .FW_VALIDITY_INVALID }
        return .FW_VALIDITY_VALID
    }
}

private enum ModelRule {
    case required
    case length(isMin: Bool, count: Int)
    case opaque
}

/// fw_form_set_match_limits' documented defaults.
private let defaultLimits: [UInt32] = [1_000_000, 100_000, 16_384]

private struct FormModel {
    var handle: OpaquePointer?
    var fields: [FieldModel] = []
    var focused: Int? = nil
    var contextIndices: [Int] = []
    var limits = defaultLimits
    /// fw_form_set_time_limit's last value (µs): `fuzzTimeLimit`, set at creation (after checking the
    /// documented default, 5,000).
    var timeLimit: UInt32 = fuzzTimeLimit
    /// Requests handed out (fw_form_next_request) and not yet resolved, and those resolved.
    var handed: [UInt64] = []
    var resolved: Set<UInt64> = []
    /// The host's time as last told (fw_form_tick, a successful fw_form_next_request).
    var clock: UInt64 = 0

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
    /// Per live form (by handle bits), the snapshot its last step ended with, already checked against
    /// the model: the next step on that form starts from it instead of reading the form again, as only
    /// calls on a form change it. On the steps `checkThisStep` picks (every step with
    /// FORMWELL_FUZZ_FULL_SNAPSHOTS=1) the form is read again and must still equal it, and at the end of
    /// the input every form is read again: so a call on another form or a garbage handle that changed
    /// this one is still caught.
    var settled: [UInt: FormSnapshot] = [:]

    /// Picks a handle: a live form (index into `forms`), a freed one, NULL or garbage.
    mutating func pickHandle() -> (OpaquePointer?, Int?) {
        let choice = reader.byte()
        switch choice % 10 {
        case 0...5 where !forms.isEmpty:
            let index = Int(choice / 10) % forms.count
            return (forms[index].handle, index)
        case 6 where !dead.isEmpty: return (dead[Int(choice / 10) % dead.count], nil)
        case 7: return (nil, nil)
        case 8 where choice / 10 % 2 == 1 && !(forms.isEmpty && dead.isEmpty):
            // A forged neighbour of a real handle: the next or previous slot, or another generation of
            // the same slot. It names a live form only if it equals that form's handle.
            let known = forms.map(\.handle) + dead
            let base = UInt(bitPattern: known[Int(reader.byte()) % known.count])
            let deltas: [UInt] = [1, 1 << 24, 2 << 24, UInt.max, 0 &- (1 << 24), 1 << 23]
            let bits = base &+ deltas[Int(choice / 20) % deltas.count]
            if let live = forms.firstIndex(where: { UInt(bitPattern: $0.handle) == bits }) { return (forms[live].handle, live) }
            return (OpaquePointer(bitPattern: bits), nil)
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

    /// A field index for the *_at functions: mostly a field's, else one past the end, huge, or any byte.
    mutating func pickIndex(_ form: Int?) -> UInt {
        let b = reader.byte()
        let count = form.map { forms[$0].fields.count } ?? 0
        switch b % 8 {
        case 0...4 where count > 0: return UInt(Int(b >> 3) % count)
        case 5: return UInt(count)
        case 6: return b & 0x80 != 0 ? UInt.max : UInt(Int.max) + 1
        default: return UInt(b >> 3)
        }
    }

    mutating func pickLength() -> Int32 {
        let b = reader.byte()
        if b < 0xC0 { return Int32(b % 12) }
        return reader.int32()
    }

    // MARK: One step

    mutating func step() {
        let op = reader.byte() % 36
        let (handle, index) = pickHandle()
        let reread = checkThisStep()
        var before: FormSnapshot? = nil
        if let index {
            let key = UInt(bitPattern: forms[index].handle)
            if !reread, let known = settled[key] {
                before = known
            } else {
                before = snapshot(forms[index].handle)
                checkAgainstModel(forms[index], before)
                if let known = settled[key] { check(before == known, "the form changed between two of its steps (no call on it)") }
            }
            settled[key] = nil
        }
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
        var submitOutcome: Int32? = nil
        var eventPosition: Int? = nil
        var readOnly = false                     // the call must change nothing observable, whatever it returns
        var changesOn: Set<fw_status> = []       // failures after which the change was made anyway
        var lastErrorChecked = false             // checked right after the call (queries have run since)
        let status: fw_status
        /// The model's expectation for a snapshot of the field at `position`, from per-property reads.
        func expectedField(_ position: Int, _ snap: FormSnapshot?, value: [UInt8]? = nil) -> ExpectedField? {
            guard let index, let snap, position < snap.fields.count, position < forms[index].fields.count else { return nil }
            var model = forms[index].fields[position]
            if let value { model.value = value }
            var e = ExpectedField(field: snap.fields[position], index: position, ruleCount: model.rules.count + model.asyncCount)
            if snap.fields[position].validity == fw_validity.FW_VALIDITY_INVALID.rawValue { e.failingRule = model.predictedFailingRule }
            return e
        }
        /// Preconditions of a snapshot struct and text buffer.
        func needSnapshotArguments(declared: UInt, nullSnapshot: Bool, texts: TextMemory) {
            if nullSnapshot { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
            if snapshotSizeRefused(declared) { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
            if snapshotSizeOdd(declared) { refused.insert(.FW_ERR_INVALID_ARGUMENT); allowed.insert(.FW_ERR_INVALID_ARGUMENT) }
            if texts.pointer == nil && texts.size != 0 { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
        }
        /// An index argument: the live form's field at it, or FW_ERR_INVALID_ARGUMENT.
        func needIndex(_ fieldIndex: UInt) -> Int? {
            needHandle()
            guard let index else { return nil }
            guard fieldIndex < UInt(forms[index].fields.count) else { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true; return nil }
            return Int(fieldIndex)
        }
        /// The model's move for a field event, id-named or index-named alike (kind: 0 focus, 1 blur,
        /// 2 set_value, 3 touch).
        func event(_ kind: Int, _ position: Int?, value: [UInt8] = []) -> (inout FormModel) -> Void {
            switch kind {
            case 0: return { m in
                guard let position else { return }
                if let f = m.focused, f != position { m.fields[f].touched = true }
                m.focused = position
            }
            case 1: return { m in
                guard let position else { return }
                m.fields[position].touched = true
                if m.focused == position { m.focused = nil }
            }
            case 2: return { m in if let position { m.fields[position].value = cView(value) } }
            default: return { m in if let position { m.fields[position].touched = true } }
            }
        }

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
            shortenTimeLimit(form)
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
                apply = { if let position { $0.fields[position].add(.required) } }
            case 4:
                let email = reader.bool()
                name = email ? "fw_field_add_email" : "fw_field_add_phone"
                status = withCString(id) { i in withCString(message) { m in
                    email ? fw_field_add_email(handle, i, m) : fw_field_add_phone(handle, i, m) } }
                apply = { if let position { $0.fields[position].add(.opaque) } }
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
                apply = { if let position { $0.fields[position].add(.length(isMin: isMin, count: Int(count))) } }
                allowed.insert(.FW_ERR_CALLBACK)
            case 7:
                let b = reader.byte()
                let pattern = b >= 0xE0 ? reader.chunk(limit: 64) : patternPool[Int(b) % patternPool.count]
                name = "fw_field_add_regex(\(show(pattern)))"
                needUTF8([pattern])
                status = withCString(id) { i in withCString(pattern) { p in withCString(message) { m in fw_field_add_regex(handle, i, p, m) } } }
                apply = { if let position { $0.fields[position].add(.opaque) } }
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
                apply = { if let position { $0.fields[position].add(.opaque) } }
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
                apply = { if let position { $0.fields[position].add(.opaque) } }
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
                apply = event(0, position)
            case 11:
                name = "fw_field_blur"
                status = withCString(id) { fw_field_blur(handle, $0) }
                eventPosition = position
                apply = event(1, position)
            case 12:
                let value = pickValue()
                name = "fw_field_set_value(\(show(value)))"
                needUTF8([value])
                status = withCString(id) { i in withCString(value) { v in fw_field_set_value(handle, i, v) } }
                eventPosition = position
                apply = event(2, position, value: value)
            default:
                name = "fw_field_touch"
                status = withCString(id) { fw_field_touch(handle, $0) }
                apply = event(3, position)
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
            readOnly = true
            if status == .FW_OK && which % 5 < 3 {
                let raw = out.load(as: Int32.self)
                check((0...(which % 5 == 1 ? 3 : 2)).contains(raw), "\(name) stored \(raw)")   // validity: PENDING is 3
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
            readOnly = true
        case 20, 21:  // match limits, including 0 and huge values
            let m = UInt32(bitPattern: reader.int32()) % 2_000_001, d = UInt32(bitPattern: reader.int32()), h = UInt32(bitPattern: reader.int32()) % 65_537
            name = "fw_form_set_match_limits(\(m), \(d), \(h))"
            needHandle()
            if m == 0 || d == 0 || h == 0 { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
            allowed.insert(.FW_ERR_CALLBACK)
            status = fw_form_set_match_limits(handle, m, d, h)
            apply = { $0.limits = [m, d, h] }
        case 22, 23:  // one field's whole state: fw_field_snapshot (by id) / fw_field_snapshot_at (by index)
            let sizeByte = reader.byte(), bufferByte = reader.byte(), r = reader.byte()
            let declared = pickSnapshotSize(sizeByte)
            let nullSnapshot = sizeByte == 0xFF
            var position: Int? = nil, id: [UInt8] = [], fieldIndex: UInt = 0
            if op == 22 {
                id = pickID(index)
                name = "fw_field_snapshot(\(show(id)))"
                needUTF8([id])
                position = needField(id)
            } else {
                fieldIndex = pickIndex(index)
                name = "fw_field_snapshot_at(\(fieldIndex))"
                position = needIndex(fieldIndex)
            }
            let field = position.flatMap { p in before?.fields[p] }
            let (size, null) = pickTextSize(bufferByte, r, lengths: field.map { [$0.message.count, $0.displayMessage.count, $0.value.count] } ?? [])
            let texts = TextMemory(size: size, null: null)
            needSnapshotArguments(declared: declared, nullSnapshot: nullSnapshot, texts: texts)
            allowed.insert(.FW_ERR_BUFFER_TOO_SMALL)
            readOnly = true
            status = withCString(id) { i in
                probeSnapshot(name, declared: declared, texts: texts, nullSnapshot: nullSnapshot,
                              expected: { position.flatMap { expectedField($0, before) } }) {
                    op == 22 ? fw_field_snapshot(handle, i, $0, $1, $2) : fw_field_snapshot_at(handle, fieldIndex, $0, $1, $2)
                }.status
            }
        case 24:  // every field's state in one call: fw_form_snapshots
            name = "fw_form_snapshots"
            needHandle()
            let flags = reader.byte(), capacityByte = reader.byte(), sizeByte = reader.byte(), bufferByte = reader.byte(), r = reader.byte()
            let fields = before?.fields ?? []
            let count = index == nil ? Int(capacityByte % 3) : fields.count
            var declared = pickSnapshotSize(sizeByte)
            if declared > 4096 { declared = UInt(snapshotSize) + 16 }  // the array's stride: keep it allocatable
            let stride = snapshotStride(declared)
            let capacity: UInt
            switch capacityByte % 8 {
            case 0...3: capacity = UInt(count + Int(capacityByte >> 3) % 3)
            case 4: capacity = UInt(max(0, count - 1))
            case 5: capacity = 0
            case 6: capacity = UInt.max  // only `count` elements exist: the library must touch no more
            default: capacity = UInt(count)
            }
            let elements = capacity == UInt.max ? count : Int(capacity)
            let nullArray = flags & 3 == 3
            let nullCount = flags & 0x0C == 0x0C
            let nullTextSize = flags & 0x10 != 0
            let odd = count > 1 && flags & 0xE0 == 0xE0 ? 1 + Int(r) % (count - 1) : nil  // an element declaring another size
            let (size, null) = pickTextSize(bufferByte, r, lengths: fields.flatMap { [$0.message.count, $0.displayMessage.count, $0.value.count] })
            let texts = TextMemory(size: size, null: null)
            let memory = SnapshotMemory(count: elements, stride: stride) { $0 == odd ? declared + 8 : declared }
            if nullCount || (texts.pointer == nil && texts.size != 0) { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
            if index != nil {
                if UInt(count) > capacity {
                    refused.insert(.FW_ERR_BUFFER_TOO_SMALL); mustFail = true
                    if nullArray { refused.insert(.FW_ERR_NULL_ARGUMENT) }
                } else if count > 0 {
                    if nullArray { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
                    if snapshotSizeRefused(declared) || (odd != nil && elements > 1) { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
                    if snapshotSizeOdd(declared) { refused.insert(.FW_ERR_INVALID_ARGUMENT); allowed.insert(.FW_ERR_INVALID_ARGUMENT) }
                    allowed.insert(.FW_ERR_BUFFER_TOO_SMALL)
                } else {
                    // No field, nothing to fill: whether the array and its sizes are looked at is open.
                    if nullArray { refused.insert(.FW_ERR_NULL_ARGUMENT); allowed.insert(.FW_ERR_NULL_ARGUMENT) }
                    if snapshotSizeRefused(declared) || snapshotSizeOdd(declared) {
                        refused.insert(.FW_ERR_INVALID_ARGUMENT); allowed.insert(.FW_ERR_INVALID_ARGUMENT)
                    }
                }
            }
            let outs = UnsafeMutablePointer<UInt>.allocate(capacity: 2)
            defer { outs.deallocate() }
            outs.initialize(repeating: 0xDEAD, count: 2)
            status = fw_form_snapshots(handle, nullArray ? nil : memory.pointer, capacity, nullCount ? nil : outs,
                                       texts.pointer, UInt(texts.size), nullTextSize ? nil : outs + 1)
            checkLastError(status, name)
            readOnly = true
            if index != nil && (status == .FW_OK || status == .FW_ERR_BUFFER_TOO_SMALL) {
                let what = "\(name)(capacity \(capacity), size \(declared), buf \(null ? "NULL" : "\(size) bytes"))"
                check(!nullCount, "\(what): NULL out_count gave \(status.rawValue)")
                check(outs[0] == UInt(count), "\(what): out_count \(outs[0]), the form has \(count) fields")
                if UInt(count) > capacity {
                    check(memory.allUntouched(), "\(what): \(count) fields exceed the capacity, yet snapshots were written")
                } else {
                    for i in 0..<count {
                        guard let e = expectedField(i, before) else { fail("\(what): no expectation for field \(i)") }
                        checkSnapshotMembers("\(what)[\(i)]", memory.members(i), declared: declared, expected: e, texts: texts)
                        check(memory.untouched(i, from: snapshotSize, to: stride), "\(what): wrote past sizeof(fw_snapshot) in element \(i)")
                    }
                    for i in count..<max(count, elements) {
                        check(memory.untouched(i, from: MemoryLayout<UInt>.size, to: stride), "\(what): element \(i), past the count, was written")
                    }
                    let needed = fields.reduce(0) { $0 + $1.message.count + $1.displayMessage.count + $1.value.count + 3 }
                    if !nullTextSize { check(outs[1] == UInt(needed), "\(what): out_text_size \(outs[1]), the texts need \(needed)") }
                    if texts.pointer == nil {
                        check(status == .FW_OK, "\(what): no text buffer, yet \(status.rawValue)")
                    } else {
                        check(status == (texts.allCopied ? .FW_OK : .FW_ERR_BUFFER_TOO_SMALL),
                              "\(what): status \(status.rawValue), but every text copied: \(texts.allCopied) (need \(needed))")
                    }
                    texts.checkRestUntouched(what)
                }
            }
        case 25:  // a keystroke and its redraw: fw_field_update (by id) / fw_field_update_at (by index)
            let byIndex = reader.bool()
            let value = pickValue()
            let sizeByte = reader.byte(), bufferByte = reader.byte(), r = reader.byte()
            let declared = pickSnapshotSize(sizeByte)
            let nullSnapshot = sizeByte == 0xFF
            let nullValue = bufferByte == 0xFF
            var position: Int? = nil, id: [UInt8] = [], fieldIndex: UInt = 0
            if byIndex {
                fieldIndex = pickIndex(index)
                name = "fw_field_update_at(\(fieldIndex), \(nullValue ? "NULL" : show(value)))"
                position = needIndex(fieldIndex)
            } else {
                id = pickID(index)
                name = "fw_field_update(\(show(id)), \(nullValue ? "NULL" : show(value)))"
                needUTF8([id])
                position = needField(id)
            }
            if nullValue { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true } else { needUTF8([value]) }
            // Buffer sizes around the texts as they are now, with the new value's length.
            let field = position.flatMap { p in before?.fields[p] }
            let (size, null) = pickTextSize(bufferByte, r, lengths: field.map { [$0.message.count, $0.displayMessage.count, cView(value).count] } ?? [])
            let texts = TextMemory(size: size, null: null)
            needSnapshotArguments(declared: declared, nullSnapshot: nullSnapshot, texts: texts)
            allowed.formUnion([.FW_ERR_CALLBACK, .FW_ERR_BUFFER_TOO_SMALL])
            changesOn = [.FW_ERR_BUFFER_TOO_SMALL]   // the value was set; only texts did not fit
            eventPosition = position
            apply = event(2, position, value: value)
            let live = index.map { forms[$0].handle }
            // The members must equal what the per-property queries say right after the call.
            status = withCString(id) { i in withCString(nullValue ? nil : value) { v in
                probeSnapshot(name, declared: declared, texts: texts, nullSnapshot: nullSnapshot, untouchedOnFailure: true,
                              expected: { position.flatMap { expectedField($0, live.flatMap { snapshot($0) }, value: cView(value)) } }) {
                    byIndex ? fw_field_update_at(handle, fieldIndex, v, $0, $1, $2) : fw_field_update(handle, i, v, $0, $1, $2)
                }.status
            } }
            lastErrorChecked = true   // the expectation's queries replaced the last error; probeSnapshot checked it first
        case 26:  // a field and its rules, all or nothing: fw_form_add_field_with_rules
            let id = pickID(nil), label = pickOptional(idPool.map { $0 } + [nil]), initial = pickOptional(valuePool + [nil])
            let flags = reader.byte(), extra = reader.byte()
            let ruleCount = Int(flags % 6)
            let ruleSize = MemoryLayout<fw_rule>.size
            let firstRuleSize = MemoryLayout<fw_rule>.offset(of: \.hint)!  // the first version: no hint
            let stride: Int
            switch (flags >> 3) % 16 {
            case 0...9: stride = ruleSize
            case 10: stride = firstRuleSize         // a first-version caller (hint not read)
            case 11, 12: stride = ruleSize + 8
            case 13: stride = ruleSize + 64
            case 14: stride = firstRuleSize - 8     // too small
            default: stride = ruleSize + 1          // unaligned
            }
            let nullRules = ruleCount > 0 && extra == 0xFF
            let mismatch = ruleCount > 1 && extra >= 0xF0 && extra < 0xFF ? Int(extra & 0xF) % ruleCount : nil
            name = "fw_form_add_field_with_rules(\(show(id)), \(ruleCount) rules, stride \(stride))"
            needUTF8([id, label, initial]); needHandle()
            if let index, isValidUTF8(cView(id)) {
                if cView(id).isEmpty { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
                else if forms[index].position(cView(id)) != nil { refused.insert(.FW_ERR_DUPLICATE_FIELD); mustFail = true }
            }
            if nullRules { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
            if ruleCount > 0 && (stride < firstRuleSize || stride % MemoryLayout<fw_rule>.alignment != 0) {
                refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true
            }
            if mismatch != nil { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
            // The array, exactly sized (slack only when a size lies about the stride), garbage between elements.
            let bytes = max(1, ruleCount * stride + (mismatch != nil ? 64 * ruleCount : 0))
            let array = malloc(bytes)!
            defer { free(array) }
            memset(array, 0xCC, bytes)
            let strings = CStringPool()
            var modelRules: [ModelRule] = []
            var asyncRules = 0
            var mins: [Int] = [], maxes: [Int] = []
            var custom: [(record: Int, context: UnsafeMutableRawPointer, destroy: Bool)] = []
            var decoys: [(record: Int, context: UnsafeMutableRawPointer)] = []
            for i in 0..<ruleCount {
                let kb = reader.byte()
                var rule = fw_rule()
                rule.size = i == mismatch ? stride + 8 : stride
                rule.length = Int32(bitPattern: UInt32(kb) &* 0x0101_0101)   // read only by the length kinds
                let message = pickOptional(messagePool)
                needUTF8([message])
                rule.message = strings.make(message)
                // Members the kind does not read hold junk, which must be ignored: even invalid UTF-8.
                rule.text = strings.make(idPool[Int(kb >> 4) % idPool.count])
                var decoy = kb & 0x80 != 0
                switch kb % 10 {
                case 0: rule.kind = fw_rule_kind.FW_RULE_REQUIRED.rawValue; modelRules.append(.required)
                case 1: rule.kind = fw_rule_kind.FW_RULE_EMAIL.rawValue; modelRules.append(.opaque)
                case 2: rule.kind = fw_rule_kind.FW_RULE_PHONE.rawValue; modelRules.append(.opaque)
                case 3, 4:
                    let isMin = kb % 10 == 3, n = pickLength()
                    rule.kind = (isMin ? fw_rule_kind.FW_RULE_MIN_LENGTH : .FW_RULE_MAX_LENGTH).rawValue
                    rule.length = n
                    // Checked against the earlier rules of the same array, as fw_field_add_min/max_length.
                    if n < 0 || (isMin ? maxes.contains { Int(n) > $0 } : mins.contains { Int(n) < $0 }) {
                        refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true
                    }
                    if isMin { mins.append(Int(n)) } else { maxes.append(Int(n)) }
                    modelRules.append(.length(isMin: isMin, count: Int(n)))
                case 5:
                    let b = reader.byte()
                    let pattern: [UInt8]? = b == 0xDF ? nil : b >= 0xE0 ? reader.chunk(limit: 64) : patternPool[Int(b) % patternPool.count]
                    rule.kind = fw_rule_kind.FW_RULE_REGEX.rawValue
                    rule.text = strings.make(pattern)
                    if let pattern {
                        needUTF8([pattern])
                        if isValidUTF8(cView(pattern)) { refused.insert(.FW_ERR_INVALID_PATTERN); allowed.insert(.FW_ERR_INVALID_PATTERN) }
                    } else { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
                    modelRules.append(.opaque)
                case 6:
                    let b = reader.byte()
                    let other: [UInt8]? = b == 0xDF ? nil : (b & 1 == 0 ? pickID(index) : idPool[Int(b >> 1) % idPool.count])
                    rule.kind = fw_rule_kind.FW_RULE_MATCHES.rawValue
                    rule.text = strings.make(other)
                    if let other {
                        needUTF8([other])
                        if isValidUTF8(cView(other)) && isValidUTF8(cView(id)) {
                            if text(cView(other)) == text(cView(id)) { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
                            else if let index, forms[index].position(cView(other)) == nil { refused.insert(.FW_ERR_UNKNOWN_FIELD); mustFail = true }
                        }
                    } else { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
                    modelRules.append(.opaque)
                case 7, 8:
                    let cb = reader.byte()
                    rule.kind = fw_rule_kind.FW_RULE_CUSTOM.rawValue
                    let c = contexts.count
                    // Marked stored before the call (the validator may run on the initial value); undone on failure.
                    contexts.append(ContextRecord(form: UInt(bitPattern: handle), stored: true))
                    let context = malloc(MemoryLayout<Int>.size)!
                    context.storeBytes(of: c, as: Int.self)
                    rule.validate = cb & 7 == 7 ? nil : fuzzValidator
                    rule.context = context
                    rule.destroy = cb & 8 != 0 ? nil : fuzzDestroy
                    if rule.validate == nil { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
                    custom.append((c, context, rule.destroy != nil))
                    if !cView(initial ?? []).isEmpty { allowed.insert(.FW_ERR_CALLBACK) }  // it runs on the initial value
                    modelRules.append(.opaque)
                    decoy = false
                default:
                    let kinds: [Int32] = [63, -1, Int32.max, 100, Int32.min]   // 0-20 are rule kinds, 64 FW_RULE_JSON
                    let pick = Int(kb >> 4) % (kinds.count + 1)
                    if pick == kinds.count {
                        // An asynchronous rule: `text` is its name (the junk above), `length` its debounce.
                        let name = idPool[Int(kb >> 4) % idPool.count]
                        rule.kind = fw_rule_kind.FW_RULE_ASYNC.rawValue
                        needUTF8([name])
                        if isValidUTF8(cView(name)) && cView(name).isEmpty { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
                        asyncRules += 1
                    } else {
                        rule.kind = kinds[pick]
                        refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true
                        modelRules.append(.opaque)
                    }
                }
                if decoy {
                    // A validator, context and destructor on a kind that does not read them: never called.
                    let c = contexts.count
                    contexts.append(ContextRecord(form: UInt(bitPattern: handle), decoy: true))
                    let context = malloc(MemoryLayout<Int>.size)!
                    context.storeBytes(of: c, as: Int.self)
                    rule.validate = fuzzValidator; rule.context = context; rule.destroy = fuzzDestroy
                    decoys.append((c, context))
                }
                withUnsafeBytes(of: &rule) { (array + i * stride).copyMemory(from: $0.baseAddress!, byteCount: min(ruleSize, stride)) }
            }
            let rules: UnsafePointer<fw_rule>? = nullRules || (ruleCount == 0 && flags & 0x40 != 0) ? nil
                : UnsafePointer(array.assumingMemoryBound(to: fw_rule.self))
            status = withCString(id) { i in withCString(label) { l in withCString(initial) { v in
                fw_form_add_field_with_rules(handle, i, l, v, rules, UInt(ruleCount))
            } } }
            for (c, context, destroys) in custom {
                if status == .FW_OK {
                    if destroys { if let index { forms[index].contextIndices.append(c) } }
                    else { contexts[c].noDestructor = true; pendingFree.append(context) }
                } else {
                    contexts[c].stored = false
                    check(contexts[c].destroyed == 0, "\(name) failed (\(status.rawValue)) but destroyed a custom rule's context")
                    free(context)
                }
            }
            for (c, context) in decoys {
                check(contexts[c].destroyed == 0, "\(name): the context of a non-custom rule was destroyed")
                free(context)
            }
            let added = modelRules, addedAsync = asyncRules
            apply = { m in
                var field = FieldModel(id: cView(id), initial: initial.map(cView) ?? [], value: initial.map(cView) ?? [])
                for rule in added { field.add(rule) }
                for _ in 0..<addedAsync { field.addAsync() }
                m.fields.append(field)
            }
        case 27:  // the match limits read back: fw_form_match_limits
            name = "fw_form_match_limits"
            needHandle()
            let mask = reader.byte()
            let out = UnsafeMutablePointer<UInt32>.allocate(capacity: 3)
            defer { out.deallocate() }
            out.initialize(repeating: 0xDEAD_BEEF, count: 3)
            let nulls = (0..<3).map { mask & (1 << $0) != 0 }
            status = fw_form_match_limits(handle, nulls[0] ? nil : out, nulls[1] ? nil : out + 1, nulls[2] ? nil : out + 2)
            readOnly = true
            if status == .FW_OK, let index {
                for k in 0..<3 {
                    let expected = nulls[k] ? 0xDEAD_BEEF : forms[index].limits[k]
                    check(out[k] == expected, "\(name): limit \(k) reads \(out[k]), last set \(forms[index].limits[k]) (NULL: \(nulls[k]))")
                }
            }
        case 29:  // an asynchronous rule
            let id = pickID(index), message = pickOptional(messagePool)
            let ruleName = pickOptional(idPool.map { $0 } + [nil])
            let debounce = UInt32(reader.byte() % 4) * 100
            name = "fw_field_add_async_rule(\(show(id)), \(ruleName.map(show) ?? "NULL"), \(debounce))"
            needUTF8([id, ruleName, message])
            let position = needField(id)
            if let ruleName {
                if isValidUTF8(cView(ruleName)) && cView(ruleName).isEmpty { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
            } else { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
            status = withCString(id) { i in withCString(ruleName) { n in withCString(message) { m in
                fw_field_add_async_rule(handle, i, n, debounce, m) } } }
            apply = { if let position { $0.fields[position].addAsync() } }
        case 30:  // the host's clock
            let now = UInt64(reader.byte()) * 10
            name = "fw_form_tick(\(now))"
            needHandle()
            status = fw_form_tick(handle, now)
            readOnly = true
            if status == .FW_OK, let index { forms[index].clock = max(forms[index].clock, now) }
        case 31:  // take a due request, with random fw_request sizes and text buffers
            let now = UInt64(reader.byte()) * 10
            let sizeByte = reader.byte(), bufferByte = reader.byte()
            let requestSize = MemoryLayout<fw_request>.size
            let declared: Int
            switch sizeByte % 8 {
            case 5: declared = requestSize + 8     // a later version's caller
            case 6: declared = requestSize - 8     // too small
            case 7: declared = requestSize + 1     // not a multiple of the alignment
            default: declared = requestSize
            }
            let nullRequest = sizeByte == 0xFF, nullFound = bufferByte == 0xFF
            let bufferSize: Int, nullBuffer: Bool
            switch bufferByte % 5 {
            case 0: (bufferSize, nullBuffer) = (0, true)        // a size query
            case 1: (bufferSize, nullBuffer) = (5, true)        // NULL with a size
            case 2: (bufferSize, nullBuffer) = (Int(bufferByte >> 3), false)
            default: (bufferSize, nullBuffer) = (512, false)
            }
            name = "fw_form_next_request(\(now), size \(declared), buf \(nullBuffer ? "NULL" : "") \(bufferSize))"
            needHandle()
            if nullRequest || nullFound || (nullBuffer && bufferSize != 0) { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
            if !nullRequest && declared != requestSize && declared != requestSize + 8 { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
            allowed.insert(.FW_ERR_BUFFER_TOO_SMALL)
            readOnly = true   // handing a request out changes nothing a snapshot shows
            let memory = UnsafeMutableRawPointer.allocate(byteCount: requestSize + 16, alignment: 16)
            defer { memory.deallocate() }
            memset(memory, 0xA5, requestSize + 16)
            memory.storeBytes(of: UInt(declared), as: UInt.self)
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bufferSize, 1) + 8)
            defer { buffer.deallocate() }
            memset(buffer, 0x55, max(bufferSize, 1) + 8)
            var found = true
            let request = memory.assumingMemoryBound(to: fw_request.self)
            status = withUnsafeMutablePointer(to: &found) { f in
                fw_form_next_request(handle, now, nullRequest ? nil : request, nullBuffer ? nil : buffer, UInt(bufferSize),
                                     nullFound ? nil : f)
            }
            checkLastError(status, name)
            lastErrorChecked = true
            let r = request.pointee
            let untouchedFrom = { (offset: Int) -> Bool in (offset..<(requestSize + 16)).allSatisfy { memory.load(fromByteOffset: $0, as: UInt8.self) == 0xA5 } }
            if status == .FW_OK || status == .FW_ERR_BUFFER_TOO_SMALL {
                check(untouchedFrom(requestSize), "\(name): wrote past sizeof(fw_request)")
                check(r.size == UInt(declared), "\(name): size member became \(r.size)")
            }
            if status == .FW_OK && !found {
                check(untouchedFrom(MemoryLayout<UInt>.size), "\(name): nothing due, yet the request was written")
            }
            if status == .FW_ERR_BUFFER_TOO_SMALL {
                check(found && r.field_id == nil && r.value == nil && r.rule == nil && r.text_size > bufferSize,
                      "\(name): too small: found \(found), text_size \(r.text_size) for \(bufferSize) bytes")
                check((0..<(max(bufferSize, 1) + 8)).allSatisfy { UInt8(bitPattern: buffer[$0]) == 0x55 }, "\(name): too small, yet texts were copied")
            }
            if status == .FW_OK, let index { forms[index].clock = max(forms[index].clock, now) }
            if status == .FW_OK && found, let index {
                check(r.text_size == r.field_id_length + r.value_length + r.rule_length + 3 && r.text_size <= bufferSize,
                      "\(name): text_size \(r.text_size), lengths \(r.field_id_length)/\(r.value_length)/\(r.rule_length)")
                check(r.id > 0 && !forms[index].handed.contains(r.id) && !forms[index].resolved.contains(r.id),
                      "\(name): request \(r.id) handed out before")
                check(r.due <= forms[index].clock, "\(name): request due at \(r.due), the clock is at \(forms[index].clock)")
                if let before, r.field_index < before.fields.count, let fieldID = r.field_id, let value = r.value, r.rule != nil {
                    let field = before.fields[r.field_index]
                    check(cBytes(fieldID) == field.id && UInt(field.id.count) == r.field_id_length,
                          "\(name): field \(show(cBytes(fieldID))) at index \(r.field_index), which is \(show(field.id))")
                    check(cBytes(value) == field.value, "\(name): value \(show(cBytes(value))), the field holds \(show(field.value))")
                    check(forms[index].fields[r.field_index].asyncCount > 0, "\(name): a request for a field without async rules")
                } else {
                    check(false, "\(name): field_index \(r.field_index) out of range, or texts not copied")
                }
                forms[index].handed.append(r.id)
            }
        case 32:  // resolve: a request handed out, one resolved before, or a garbage id
            let choice = reader.byte(), verdictByte = reader.byte()
            let message = pickOptional(messagePool)
            var id: UInt64 = 0
            var kind = "garbage"
            if let index, choice % 4 < 2, !forms[index].handed.isEmpty {
                id = forms[index].handed[Int(choice >> 2) % forms[index].handed.count]
                kind = "handed out"
            } else if let index, choice % 4 == 2, !forms[index].resolved.isEmpty {
                id = forms[index].resolved.sorted()[Int(choice >> 2) % forms[index].resolved.count]
                kind = "resolved"
            } else {
                let garbage: [UInt64] = [0, 1, 2, 999, UInt64.max, UInt64(Int64.max) + 1]
                id = garbage[Int(choice >> 2) % garbage.count]
            }
            let verdicts: [Int32] = [0, 1, 2, 0, 1, 2, 3, -1]
            let verdict = verdicts[Int(verdictByte) % verdicts.count]
            let nullStale = verdictByte & 0x80 != 0
            name = "fw_form_resolve(\(id) (\(kind)), \(verdict), \(message.map(show) ?? "NULL"))"
            needHandle()
            if !(0...2).contains(verdict) { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
            else if verdict != 0 { needUTF8([message]) }
            if id == 0 { refused.insert(.FW_ERR_UNKNOWN_REQUEST); mustFail = true }
            switch kind {
            case "handed out": break                                   // only FW_OK
            case "resolved": refused.insert(.FW_ERR_REQUEST_CLOSED); mustFail = true
            default: allowed.formUnion([.FW_ERR_UNKNOWN_REQUEST, .FW_ERR_REQUEST_CLOSED, .FW_ERR_INVALID_ARGUMENT])
            }
            var stale = true
            status = withUnsafeMutablePointer(to: &stale) { out in
                withCString(message) { m in fw_form_resolve(handle, id, verdict, m, nullStale ? nil : out) }
            }
            checkLastError(status, name)
            lastErrorChecked = true
            if status == .FW_OK, let index {
                forms[index].handed.removeAll { $0 == id }
                forms[index].resolved.insert(id)
            }
            // A result changes only a field the model does not predict (apply: nothing).
        case 33:  // submit: a validate that flushes debounces, answered valid / invalid / pending
            let g = reader.byte()
            let group: [UInt8]? = g % 4 == 0 ? idPool[Int(g >> 2) % idPool.count] : nil
            let nullOut = g % 4 == 3 && g >= 0xF0
            name = "fw_form_submit(\(group.map(show) ?? "NULL"))"
            needHandle()
            needUTF8([group])
            // These forms have no groups: any group name is one no field belongs to.
            if let group, isValidUTF8(cView(group)) { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
            if nullOut { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
            allowed.insert(.FW_ERR_CALLBACK)
            var outcome: Int32 = 77
            status = withUnsafeMutablePointer(to: &outcome) { out in withCString(group) { fw_form_submit(handle, $0, nullOut ? nil : out) } }
            if status == .FW_OK { submitOutcome = outcome }
            apply = { m in for i in m.fields.indices { m.fields[i].touched = true } }
        case 34:  // when the next request falls due, and fw_form_info's second version
            let nulls = reader.byte()
            name = "fw_form_next_due_time"
            needHandle()
            if nulls % 8 == 1 || nulls % 8 == 2 { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
            var due: UInt64 = 7, scheduled = true
            switch nulls % 8 {
            case 1: status = fw_form_next_due_time(handle, nil, &scheduled)
            case 2: status = fw_form_next_due_time(handle, &due, nil)
            default: status = fw_form_next_due_time(handle, &due, &scheduled)
            }
            checkLastError(status, name)
            lastErrorChecked = true
            readOnly = true
            if status == .FW_OK {
                if !scheduled { check(due == 0, "\(name): nothing scheduled, yet due \(due)") }
                if let index, let before {
                    var info = fw_form_info()
                    info.size = MemoryLayout<fw_form_info>.size
                    check(fw_form_get_info(handle, &info) == .FW_OK, "fw_form_get_info failed on a live form")
                    // Pending is the verdict, whatever the field shows: a field that reads PENDING is
                    // in fw_form_pending_fields, and so is an idle one (it reads EMPTY) whose check
                    // was scheduled by an event that does not judge it (a rule added, or a change
                    // of the field its `matches` names, made its value eligible).
                    var listed = [UInt](repeating: UInt.max, count: max(before.fields.count, 1)), count: UInt = 0
                    check(fw_form_pending_fields(handle, &listed, UInt(listed.count), &count) == .FW_OK, "fw_form_pending_fields failed on a live form")
                    let pending = Set(listed.prefix(Int(count)))
                    check(info.pending_count == Int(count), "fw_form_info: pending_count \(info.pending_count), fw_form_pending_fields \(count)")
                    for (i, field) in before.fields.enumerated() where field.validity == fw_validity.FW_VALIDITY_PENDING.rawValue {
                        check(pending.contains(UInt(i)), "field \(i) reads pending but fw_form_pending_fields lists \(pending.sorted())")
                    }
                    check(info.now_ms == forms[index].clock, "fw_form_info: now_ms \(info.now_ms), the model's clock \(forms[index].clock)")
                    if scheduled { check(count > 0, "\(name): a request is scheduled, yet no field is pending") }
                }
            }
        case 35:  // the time bound on matches: fw_form_set_time_limit, or fw_form_time_limit read back
            let choice = reader.byte()
            if choice & 1 == 0 {
                let micros = UInt32(bitPattern: reader.int32()) % 20_001
                name = "fw_form_set_time_limit(\(micros))"
                needHandle()
                if micros == 0 { refused.insert(.FW_ERR_INVALID_ARGUMENT); mustFail = true }
                allowed.insert(.FW_ERR_CALLBACK)
                status = fw_form_set_time_limit(handle, micros)
                apply = { $0.timeLimit = micros }
            } else {
                let nullOut = choice == 0xFF
                name = "fw_form_time_limit"
                needHandle()
                if nullOut { refused.insert(.FW_ERR_NULL_ARGUMENT); mustFail = true }
                var micros: UInt32 = 0xDEAD_BEEF
                status = nullOut ? fw_form_time_limit(handle, nil) : fw_form_time_limit(handle, &micros)
                readOnly = true
                if status == .FW_OK, let index {
                    check(micros == forms[index].timeLimit, "\(name): reads \(micros), last set \(forms[index].timeLimit)")
                }
            }
        default:  // 28: fw_form_field_index, then an event naming the field by index
            let id = pickID(index)
            let lookupByte = reader.byte()
            let nullOut = lookupByte == 0xFF
            let outIndex = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
            defer { outIndex.deallocate() }
            outIndex.pointee = 0xDEAD
            let lookup = withCString(id) { fw_form_field_index(handle, $0, nullOut ? nil : outIndex) }
            let lookupName = "fw_form_field_index(\(show(id)))"
            checkLastError(lookup, lookupName)
            var lookupRefused: Set<fw_status> = []
            let found = index.flatMap { forms[$0].position(cView(id)) }
            if nullOut { lookupRefused.insert(.FW_ERR_NULL_ARGUMENT) }
            if !isValidUTF8(cView(id)) { lookupRefused.insert(.FW_ERR_INVALID_UTF8) }
            if index == nil { lookupRefused.insert(.FW_ERR_INVALID_HANDLE) }
            else if found == nil && isValidUTF8(cView(id)) { lookupRefused.insert(.FW_ERR_UNKNOWN_FIELD) }
            if let found, lookupRefused.isEmpty {
                check(lookup == .FW_OK && outIndex.pointee == UInt(found),
                      "\(lookupName): status \(lookup.rawValue), index \(outIndex.pointee), model \(found)")
            } else {
                check(lookupRefused.contains(lookup), "\(lookupName): expected one of \(lookupRefused.map(\.rawValue).sorted()), got \(lookup.rawValue)")
            }
            if let index { check(snapshot(forms[index].handle) == before, "\(lookupName) changed the form") }
            let kind = Int(lookupByte % 4)
            let fieldIndex = lookup == .FW_OK && lookupByte & 0x30 != 0x30 ? outIndex.pointee : pickIndex(index)
            let position = needIndex(fieldIndex)
            allowed.insert(.FW_ERR_CALLBACK)
            var value: [UInt8] = []
            switch kind {
            case 0:
                name = "fw_field_focus_at(\(fieldIndex))"
                status = fw_field_focus_at(handle, fieldIndex)
            case 1:
                name = "fw_field_blur_at(\(fieldIndex))"
                status = fw_field_blur_at(handle, fieldIndex)
                eventPosition = position
            case 2:
                value = pickValue()
                name = "fw_field_set_value_at(\(fieldIndex), \(show(value)))"
                needUTF8([value])
                status = withCString(value) { fw_field_set_value_at(handle, fieldIndex, $0) }
                eventPosition = position
            default:
                name = "fw_field_touch_at(\(fieldIndex))"
                status = fw_field_touch_at(handle, fieldIndex)
            }
            apply = event(kind, position, value: value)
        }

        if lastErrorChecked { checkKnown(status, name) } else { checkLastError(status, name) }
        if trace {
            let line = "  \(name) -> \(status.rawValue)\(mustFail ? " (must fail: \(refused.map(\.rawValue).sorted()))" : "")\n"
            line.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
        }
        check(status != .FW_ERR_INTERNAL, "\(name) returned FW_ERR_INTERNAL (no input should cause it)")
        if mustFail {
            check(refused.contains(status), "\(name): expected one of \(refused.map(\.rawValue).sorted()), got \(status.rawValue)")
        } else {
            check(allowed.contains(status), "\(name): status \(status.rawValue), allowed \(allowed.map(\.rawValue).sorted())")
        }
        guard let index else { return }
        let after = snapshot(forms[index].handle)
        if readOnly { check(after == before, "\(name) (status \(status.rawValue)) changed the form's observable state") }
        if status != .FW_OK && !changesOn.contains(status) {
            check(after == before, "failed \(name) (status \(status.rawValue)) changed the form's observable state")
            if let after { settled[UInt(bitPattern: forms[index].handle)] = after }
            return
        }
        apply(&forms[index])
        checkAgainstModel(forms[index], after)
        if let after { settled[UInt(bitPattern: forms[index].handle)] = after }
        if let outValid { check(outValid == after?.isValid, "fw_form_validate said \(outValid), is_valid says \(after?.isValid ?? false)") }
        if let submitOutcome, let after {
            switch submitOutcome {
            case fw_submit_outcome.FW_SUBMIT_VALID.rawValue: check(after.isValid, "fw_form_submit said valid, is_valid says false")
            case fw_submit_outcome.FW_SUBMIT_INVALID.rawValue:
                check(!after.firstInvalid.isEmpty, "fw_form_submit said invalid, yet no field is invalid")
            case fw_submit_outcome.FW_SUBMIT_PENDING.rawValue:
                check(!after.isValid && after.firstInvalid.isEmpty, "fw_form_submit said pending: is_valid \(after.isValid), first_invalid \(show(after.firstInvalid))")
                check(after.fields.contains { $0.validity == fw_validity.FW_VALIDITY_PENDING.rawValue }, "fw_form_submit said pending, yet no field reads pending")
            default: check(false, "fw_form_submit stored \(submitOutcome)")
            }
        }
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
        // The match limits read back as last set (a refused or failed set_match_limits kept them).
        var limits: [UInt32] = [0, 0, 0]
        let status = limits.withUnsafeMutableBufferPointer { fw_form_match_limits(model.handle, $0.baseAddress, $0.baseAddress! + 1, $0.baseAddress! + 2) }
        check(status == .FW_OK && limits == model.limits, "fw_form_match_limits: \(status.rawValue), \(limits), model \(model.limits)")
        var micros: UInt32 = 0
        let timeStatus = fw_form_time_limit(model.handle, &micros)
        check(timeStatus == .FW_OK && micros == model.timeLimit, "fw_form_time_limit: \(timeStatus.rawValue), \(micros), model \(model.timeLimit)")
    }
}

// MARK: Entry point

@_cdecl("LLVMFuzzerTestOneInput")
public func formwellCallSequencesFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    beginInput(data, size)
    defer { endInput() }
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
        if let known = session.settled[UInt(bitPattern: form.handle)] {
            check(snapshot(form.handle) == known, "a form changed after its last step (no call on it)")
        }
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
