// libFuzzer harness: asynchronous rules as a request/resolve protocol, against a model of what every
// call must answer.
//
// Input: a header (field count, then per field: initial value, required, min/max length, one or two
// asynchronous rules with their debounces and own messages), then a stream of operations, each an
// opcode byte and the bytes it needs:
//   0 fw_field_set_value / fw_field_set_value_at      1 fw_form_tick
//   2 fw_form_next_request (big, exact, too small or size-query buffers)
//   3 fw_form_resolve (a request handed out, a stale one, a closed one, one not handed out, 0, one
//     past the last id; every verdict, an invalid one; messages)
//   4 fw_form_submit      5 fw_form_reset      6 fw_form_remove_field      7 fw_field_add_async_rule
// The model follows every field's asynchronous rules (idle, scheduled with its id and due time, handed
// out, valid, invalid with its message, failed), the form's clock, the last request id, the stale ids
// and the stale count, as include/formwell.h describes them: a value change that passes the synchronous
// rules schedules one request per asynchronous rule, due after its debounce; a change before it is
// handed out replaces it; a change, reset or removal after makes it stale; submit makes scheduled
// requests due at once. After every call: the status (and *out_stale, *out_found, the request handed out:
// id, field, value, rule, due time, text lengths) is exactly the model's; fw_form_pending_fields,
// fw_form_next_due_time, fw_form_info (pending_count, stale_results, now_ms), fw_form_is_valid and
// fw_form_first_invalid agree with it; on the steps `checkThisStep` picks, the whole form is read and
// every field that is not idle has the model's validity (and, when invalid, failing rule and message).
import FormwellC
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private let valuePool: [[UInt8]] = [
    [], Array("a".utf8), Array("ab".utf8), Array("abc".utf8), Array("adam".utf8), Array("adam_".utf8),
    Array("\u{E9}".utf8), Array("e\u{301}".utf8), Array("hello world".utf8), Array(repeating: 0x78, count: 20),
]
private let messagePool: [[UInt8]?] = [nil, Array("taken".utf8), [], Array("日本語".utf8), [0xC3, 0x28]]
private let ruleNames: [[UInt8]] = [Array("available".utf8), Array("not-banned".utf8), Array("check".utf8)]
private let debounces: [UInt32] = [0, 0, 10, 100, 500, 1000, UInt32.max]
private let requiredDefault = Array("This field is required".utf8)
private let invalidDefault = Array("Invalid value".utf8)
private let errorDefault = Array("Could not check this value".utf8)
private let trace = getenv("FORMWELL_FUZZ_ASYNC_TRACE") != nil

// MARK: Model

private enum RuleState: Equatable {
    case idle
    case scheduled(id: UInt64, due: UInt64)
    case handed(id: UInt64, due: UInt64)
    case valid
    case invalid([UInt8])
    case failed([UInt8])
}

private struct AsyncModel {
    var name: [UInt8]
    var debounce: UInt32
    var message: [UInt8]?
    var state: RuleState = .idle
}

private struct FieldModel {
    var id: [UInt8]
    var initial: [UInt8]
    var value: [UInt8]
    var required: Bool
    var minimum: Int?
    var maximum: Int?
    var rules: [AsyncModel]

    var syncRuleCount: Int { (required ? 1 : 0) + (minimum != nil ? 1 : 0) + (maximum != nil ? 1 : 0) }

    /// The first synchronous rule the value fails (its index), or nil.
    var syncFailure: Int? {
        if value.isEmpty { return required ? 0 : nil }
        let count = text(value).count
        var index = required ? 1 : 0
        if let minimum { if count < minimum { return index }; index += 1 }
        if let maximum, count > maximum { return index }
        return nil
    }

    /// Whether the asynchronous rules run on the value (non-empty, every synchronous rule passing).
    var eligible: Bool { !value.isEmpty && syncFailure == nil }

    var pending: Bool {
        guard eligible else { return false }
        return rules.contains { if case .scheduled = $0.state { true } else if case .handed = $0.state { true } else { false } }
    }

    /// The first asynchronous failure: its rule number (after the synchronous ones) and message.
    var asyncFailure: (rule: Int, message: [UInt8])? {
        guard eligible, !pending else { return nil }
        for (i, r) in rules.enumerated() {
            switch r.state {
            case .invalid(let m), .failed(let m): return (syncRuleCount + i, m)
            default: continue
            }
        }
        return nil
    }

    /// What a submit decides: fw_validity of the strict verdict (empty optional reads valid here).
    var strictlyInvalid: Bool { syncFailure != nil || asyncFailure != nil }
    var strictlyValid: Bool { !strictlyInvalid && !pending }
}

private struct Model {
    var fields: [FieldModel] = []
    var clock: UInt64 = 0
    var lastID: UInt64 = 0
    var stale: [UInt64] = []
    var staleCount = 0
    /// Ids resolved or cancelled before being handed out: closed.
    var handedOut: [UInt64] = []

    var pendingIndices: [Int] { fields.indices.filter { fields[$0].pending } }

    var nextDue: UInt64? {
        var earliest: UInt64?
        for f in fields { for r in f.rules { if case .scheduled(_, let due) = r.state { earliest = min(earliest ?? due, due) } } }
        return earliest
    }

    /// The request that falls due first at `now` (lowest id among equal due times).
    func due(at now: UInt64) -> (field: Int, rule: Int, id: UInt64, due: UInt64)? {
        let time = max(clock, now)
        var best: (field: Int, rule: Int, id: UInt64, due: UInt64)?
        for (f, field) in fields.enumerated() {
            for (r, rule) in field.rules.enumerated() {
                guard case .scheduled(let id, let due) = rule.state, due <= time else { continue }
                if let b = best, (b.due, b.id) <= (due, id) { continue }
                best = (f, r, id, due)
            }
        }
        return best
    }

    /// Every request of the field goes: scheduled ones silently, handed-out ones become stale.
    mutating func cancel(_ f: Int) {
        for r in fields[f].rules.indices {
            if case .handed(let id, _) = fields[f].rules[r].state { stale.append(id) }
            fields[f].rules[r].state = .idle
        }
    }

    /// A new value for field f (the engine's reconcile step).
    mutating func setValue(_ f: Int, _ value: [UInt8]) {
        let wasEligible = fields[f].eligible
        let changed = fields[f].value != value
        fields[f].value = value
        guard !fields[f].rules.isEmpty else { return }
        let eligible = fields[f].eligible
        if changed || !eligible { cancel(f) }
        guard eligible, changed || !wasEligible else { return }
        for r in fields[f].rules.indices where fields[f].rules[r].state == .idle {
            lastID &+= 1
            let (due, overflow) = clock.addingReportingOverflow(UInt64(fields[f].rules[r].debounce))
            fields[f].rules[r].state = .scheduled(id: lastID, due: overflow ? .max : due)
        }
    }

    /// The id's fate in fw_form_resolve (with a valid verdict).
    func resolveStatus(_ id: UInt64) -> (fw_status, stale: Bool) {
        if stale.contains(id) { return (.FW_OK, true) }
        for f in fields {
            for r in f.rules {
                if case .handed(let current, _) = r.state, current == id { return (.FW_OK, false) }
                if case .scheduled(let current, _) = r.state, current == id { return (.FW_ERR_INVALID_ARGUMENT, false) }
            }
        }
        if id == 0 || id > lastID { return (.FW_ERR_UNKNOWN_REQUEST, false) }
        return (.FW_ERR_REQUEST_CLOSED, false)
    }
}

// MARK: Reading the library

private func fieldIndices(_ form: OpaquePointer?) -> [Int] {
    var count: UInt = 0
    let first = fw_form_pending_fields(form, nil, 0, &count)
    check(first == .FW_OK || first == .FW_ERR_BUFFER_TOO_SMALL, "fw_form_pending_fields(NULL, 0) gave \(first.rawValue)")
    guard count > 0 else { check(first == .FW_OK, "fw_form_pending_fields: no field, yet \(first.rawValue)"); return [] }
    let out = UnsafeMutablePointer<UInt>.allocate(capacity: Int(count))
    defer { out.deallocate() }
    var again: UInt = 0
    check(fw_form_pending_fields(form, out, count, &again) == .FW_OK && again == count, "fw_form_pending_fields with room for \(count) failed")
    return (0..<Int(count)).map { Int(out[$0]) }
}

/// Everything the model predicts about the form, read through the cheap queries (every step), and the
/// whole form through `snapshot` (sampled steps).
private func observe(_ form: OpaquePointer?, _ m: Model, _ what: @autoclosure () -> String) {
    let pending = fieldIndices(form)
    check(pending == m.pendingIndices, "\(what()): fw_form_pending_fields \(pending), model \(m.pendingIndices)")
    var due: UInt64 = 7, scheduled = true
    check(fw_form_next_due_time(form, &due, &scheduled) == .FW_OK, "fw_form_next_due_time failed")
    check(scheduled == (m.nextDue != nil) && due == (m.nextDue ?? 0),
          "\(what()): next due time \(scheduled ? String(due) : "none"), model \(m.nextDue.map(String.init) ?? "none")")
    var info = fw_form_info()
    info.size = MemoryLayout<fw_form_info>.size
    check(fw_form_get_info(form, &info) == .FW_OK, "fw_form_get_info failed")
    check(info.pending_count == m.pendingIndices.count && info.stale_results == m.staleCount && info.now_ms == m.clock,
          "\(what()): fw_form_info pending \(info.pending_count), stale \(info.stale_results), now \(info.now_ms); model \(m.pendingIndices.count), \(m.staleCount), \(m.clock)")
    var valid = false
    check(fw_form_is_valid(form, &valid) == .FW_OK, "fw_form_is_valid failed")
    let modelValid = m.fields.allSatisfy(\.strictlyValid)
    check(valid == modelValid, "\(what()): fw_form_is_valid \(valid), model \(modelValid)")
    var buffer = [CChar](repeating: 0, count: 256)
    var length: UInt = 0
    check(fw_form_first_invalid(form, &buffer, 256, &length) == .FW_OK, "fw_form_first_invalid failed")
    let firstInvalid = buffer[..<Int(length)].map { UInt8(bitPattern: $0) }
    let modelFirst = m.fields.first(where: \.strictlyInvalid)?.id ?? []
    check(firstInvalid == modelFirst, "\(what()): first invalid \(show(firstInvalid)), model \(show(modelFirst))")
    guard checkThisStep() else { return }
    guard let snap = snapshot(form) else { fail("\(what()): a live form does not answer") }
    check(snap.fields.count == m.fields.count, "\(what()): \(snap.fields.count) fields, model \(m.fields.count)")
    for (i, (f, mf)) in zip(snap.fields, m.fields).enumerated() {
        check(f.id == mf.id && f.value == mf.value, "\(what()): field \(i) is \(show(f.id)) = \(show(f.value)), model \(show(mf.id)) = \(show(mf.value))")
        guard f.phase == fw_phase.FW_PHASE_INACTIVE.rawValue else { continue }
        let expected: fw_validity
        if mf.value.isEmpty { expected = mf.required ? .FW_VALIDITY_INVALID : .FW_VALIDITY_EMPTY }
        else if mf.syncFailure != nil { expected = .FW_VALIDITY_INVALID }
        else if mf.pending { expected = .FW_VALIDITY_PENDING }
        else if mf.asyncFailure != nil { expected = .FW_VALIDITY_INVALID }
        else { expected = .FW_VALIDITY_VALID }
        check(f.validity == expected.rawValue, "\(what()): \(show(mf.id)) validity \(f.validity), model \(expected.rawValue) (value \(show(mf.value)), rules \(mf.rules.map(\.state)))")
        if let failure = mf.asyncFailure {
            check(f.message == failure.message, "\(what()): \(show(mf.id)) message \(show(f.message)), model \(show(failure.message))")
        }
        if expected == .FW_VALIDITY_INVALID {
            var s = fw_snapshot()
            s.size = snapshotSize
            check(fw_field_snapshot_at(form, UInt(i), &s, nil, 0) == .FW_OK, "fw_field_snapshot_at failed")
            let rule = mf.syncFailure ?? mf.asyncFailure?.rule ?? -1
            check(Int(s.failing_rule) == rule, "\(what()): \(show(mf.id)) failing rule \(s.failing_rule), model \(rule)")
        }
    }
}

// MARK: The harness

@_cdecl("LLVMFuzzerTestOneInput")
public func formwellAsyncSequencesFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    beginInput(data, size)
    defer { endInput() }
    var reader = ByteReader(data, size)
    var m = Model()
    var form: OpaquePointer? = nil
    check(fw_form_create(&form) == .FW_OK, "fw_form_create failed")
    shortenTimeLimit(form)

    // The form: 1-3 fields, each with synchronous rules and one or two asynchronous rules.
    let fieldCount = 1 + Int(reader.byte() % 3)
    for f in 0..<fieldCount {
        let b = reader.byte(), lengths = reader.byte()
        let id = Array("f\(f)".utf8)
        let initial = valuePool[Int(b) % valuePool.count]
        var field = FieldModel(id: id, initial: initial, value: initial, required: b & 0x10 != 0,
                               minimum: lengths & 0x08 != 0 ? Int(lengths % 4) : nil,
                               maximum: lengths & 0x80 != 0 ? 3 + Int((lengths >> 4) % 8) : nil, rules: [])
        check(withCString(id) { i in withCString(initial) { fw_form_add_field(form, i, nil, $0) } } == .FW_OK, "add field failed")
        if field.required { check(withCString(id) { fw_field_add_required(form, $0, nil) } == .FW_OK, "add required failed") }
        if let n = field.minimum { check(withCString(id) { fw_field_add_min_length(form, $0, Int32(n), nil) } == .FW_OK, "add min failed") }
        if let n = field.maximum { check(withCString(id) { fw_field_add_max_length(form, $0, Int32(n), nil) } == .FW_OK, "add max failed") }
        for r in 0..<(1 + Int(b >> 7)) {
            let rb = reader.byte()
            let rule = AsyncModel(name: ruleNames[(r + Int(rb >> 6)) % ruleNames.count], debounce: debounces[Int(rb) % debounces.count],
                                  message: rb & 0x20 != 0 ? Array("own words \(r)".utf8) : nil)
            let status = withCString(id) { i in withCString(rule.name) { n in withCString(rule.message) { fw_field_add_async_rule(form, i, n, rule.debounce, $0) } } }
            check(status == .FW_OK, "fw_field_add_async_rule gave \(status.rawValue)")
            field.rules.append(rule)
        }
        m.fields.append(field)
    }
    observe(form, m, "after setup")

    var steps = 0
    while !reader.isEmpty && steps < 300 {
        steps += 1
        let op = reader.byte() % 8
        var name = "op \(op)"
        switch op {
        case 0:  // a value, by id or by index
            let b = reader.byte(), v = reader.byte()
            guard !m.fields.isEmpty else { continue }
            let f = Int(b >> 1) % m.fields.count
            let value = valuePool[Int(v) % valuePool.count]
            name = "set \(show(m.fields[f].id)) = \(show(value))"
            let status = b & 1 == 0
                ? withCString(m.fields[f].id) { i in withCString(value) { fw_field_set_value(form, i, $0) } }
                : withCString(value) { fw_field_set_value_at(form, UInt(f), $0) }
            checkLastError(status, name)
            check(status == .FW_OK, "\(name) gave \(status.rawValue)")
            m.setValue(f, value)
        case 1:  // the host's clock, sometimes going back (ignored)
            let b = reader.byte()
            let now = b & 0x80 != 0 ? m.clock &- UInt64(b & 0x7F) : m.clock &+ UInt64(b) * 7
            name = "tick \(now)"
            let status = fw_form_tick(form, now)
            checkLastError(status, name)
            check(status == .FW_OK, "\(name) gave \(status.rawValue)")
            m.clock = max(m.clock, now)
        case 2:  // take the request due first
            let b = reader.byte(), sb = reader.byte()
            let now = m.clock &+ UInt64(b) * 11
            let expected = m.due(at: now)
            let textSize = expected.map { e in m.fields[e.field].id.count + m.fields[e.field].value.count + m.fields[e.field].rules[e.rule].name.count + 3 }
            let bufferSize: Int, nullBuffer: Bool
            switch sb % 8 {
            case 0: (bufferSize, nullBuffer) = (0, true)                                   // a size query
            case 1: (bufferSize, nullBuffer) = (max(0, (textSize ?? 1) - 1 - Int(sb >> 3) % 4), false) // too small
            case 2: (bufferSize, nullBuffer) = (textSize ?? 0, false)                       // exact
            default: (bufferSize, nullBuffer) = (512, false)
            }
            name = "next_request(\(now), buf \(nullBuffer ? "NULL" : String(bufferSize)))"
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bufferSize, 1))
            defer { buffer.deallocate() }
            memset(buffer, 0x55, max(bufferSize, 1))
            var request = fw_request()
            request.size = MemoryLayout<fw_request>.size
            var found = false
            let status = fw_form_next_request(form, now, &request, nullBuffer ? nil : buffer, UInt(bufferSize), &found)
            checkLastError(status, name)
            guard let e = expected, let textSize else {
                check(status == .FW_OK && !found, "\(name): nothing due, yet status \(status.rawValue), found \(found)")
                m.clock = max(m.clock, now)
                break
            }
            let field = m.fields[e.field], rule = field.rules[e.rule]
            check(found && request.id == e.id && request.due == e.due && request.field_index == UInt(e.field)
                  && request.text_size == UInt(textSize) && request.field_id_length == UInt(field.id.count)
                  && request.value_length == UInt(field.value.count) && request.rule_length == UInt(rule.name.count),
                  "\(name): found \(found), request \(request.id) due \(request.due) field \(request.field_index) text_size \(request.text_size); model \(e.id) due \(e.due) field \(e.field) (\(show(field.id)) = \(show(field.value)), \(show(rule.name))) text_size \(textSize)")
            if bufferSize < textSize {
                check(status == .FW_ERR_BUFFER_TOO_SMALL && request.field_id == nil && request.value == nil && request.rule == nil,
                      "\(name): \(textSize) bytes needed, yet status \(status.rawValue)")
                break   // not handed out, the clock not moved
            }
            check(status == .FW_OK, "\(name) gave \(status.rawValue)")
            check(request.field_id.map(cBytes) == field.id && request.value.map(cBytes) == field.value && request.rule.map(cBytes) == rule.name,
                  "\(name): texts \(request.field_id.map { show(cBytes($0)) } ?? "NULL") / \(request.value.map { show(cBytes($0)) } ?? "NULL")")
            m.clock = max(m.clock, now)
            m.fields[e.field].rules[e.rule].state = .handed(id: e.id, due: e.due)
            m.handedOut.append(e.id)
        case 3:  // a result
            let b = reader.byte(), vb = reader.byte()
            let message = messagePool[Int(vb >> 3) % messagePool.count]
            var candidates: [UInt64] = [0, m.lastID &+ 1]
            for f in m.fields { for r in f.rules {
                if case .handed(let id, _) = r.state { candidates += [id, id] }
                if case .scheduled(let id, _) = r.state { candidates.append(id) }
            } }
            candidates += m.stale + m.handedOut.suffix(4)
            let id = candidates[Int(b) % candidates.count]
            let verdicts: [Int32] = [0, 1, 2, 0, 1, 2, 3, -1]
            let verdict = verdicts[Int(vb) % verdicts.count]
            name = "resolve(\(id), \(verdict), \(message.map(show) ?? "NULL"))"
            var stale = true
            let status = withCString(message) { fw_form_resolve(form, id, verdict, $0, &stale) }
            checkLastError(status, name)
            if !(0...2).contains(verdict) {
                check(status == .FW_ERR_INVALID_ARGUMENT && !stale, "\(name): not a verdict, yet \(status.rawValue)")
                break
            }
            if verdict != 0, let message, !isValidUTF8(message) {
                check(status == .FW_ERR_INVALID_UTF8 && !stale, "\(name): message not UTF-8, yet \(status.rawValue)")
                break
            }
            let (expected, expectStale) = m.resolveStatus(id)
            check(status == expected && stale == expectStale, "\(name): status \(status.rawValue) stale \(stale), model \(expected.rawValue) stale \(expectStale)")
            guard status == .FW_OK else { break }
            if expectStale {
                m.stale.removeAll { $0 == id }
                m.staleCount += 1
                break
            }
            for f in m.fields.indices { for r in m.fields[f].rules.indices {
                guard case .handed(let current, _) = m.fields[f].rules[r].state, current == id else { continue }
                switch verdict {
                case 0: m.fields[f].rules[r].state = .valid
                case 1: m.fields[f].rules[r].state = .invalid(m.fields[f].rules[r].message ?? message ?? invalidDefault)
                default: m.fields[f].rules[r].state = .failed(message ?? errorDefault)
                }
            } }
        case 4:  // submit: scheduled requests due at once
            name = "submit"
            var outcome: Int32 = 77
            let status = fw_form_submit(form, nil, &outcome)
            checkLastError(status, name)
            check(status == .FW_OK, "\(name) gave \(status.rawValue)")
            for f in m.fields.indices { for r in m.fields[f].rules.indices {
                if case .scheduled(let id, _) = m.fields[f].rules[r].state { m.fields[f].rules[r].state = .scheduled(id: id, due: m.clock) }
            } }
            let expected: fw_submit_outcome = m.fields.contains(where: \.strictlyInvalid) ? .FW_SUBMIT_INVALID
                : m.fields.contains(where: \.pending) ? .FW_SUBMIT_PENDING : .FW_SUBMIT_VALID
            check(outcome == expected.rawValue, "\(name): outcome \(outcome), model \(expected.rawValue)")
        case 5:  // reset: initial values, every request cancelled
            name = "reset"
            let status = fw_form_reset(form)
            checkLastError(status, name)
            check(status == .FW_OK, "\(name) gave \(status.rawValue)")
            for f in m.fields.indices {
                m.fields[f].value = m.fields[f].initial
                m.cancel(f)
            }
        case 6:  // remove a field: its requests go (handed-out ones stale), later fields move down
            let b = reader.byte()
            guard m.fields.count > 1 else { continue }
            let f = Int(b) % m.fields.count
            name = "remove \(show(m.fields[f].id))"
            let status = withCString(m.fields[f].id) { fw_form_remove_field(form, $0) }
            checkLastError(status, name)
            check(status == .FW_OK, "\(name) gave \(status.rawValue)")
            m.cancel(f)
            m.fields.remove(at: f)
        default:  // another asynchronous rule: idle until the value changes
            let b = reader.byte()
            guard !m.fields.isEmpty else { continue }
            let f = Int(b) % m.fields.count
            guard m.fields[f].rules.count < 3 else { continue }
            let rule = AsyncModel(name: ruleNames[Int(b >> 4) % ruleNames.count], debounce: debounces[Int(b >> 2) % debounces.count], message: nil)
            name = "add async rule to \(show(m.fields[f].id))"
            let status = withCString(m.fields[f].id) { i in withCString(rule.name) { fw_field_add_async_rule(form, i, $0, rule.debounce, nil) } }
            checkLastError(status, name)
            check(status == .FW_OK, "\(name) gave \(status.rawValue)")
            m.fields[f].rules.append(rule)
        }
        if trace {
            let line = "  \(name): pending \(m.pendingIndices), clock \(m.clock), last id \(m.lastID), stale \(m.stale)\n"
            line.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
        }
        observe(form, m, name)
    }
    check(fw_form_free(form) == .FW_OK, "fw_form_free failed")
    check(fw_form_live_count() == 0, "forms leaked: \(fw_form_live_count()) live")
    return 0
}
