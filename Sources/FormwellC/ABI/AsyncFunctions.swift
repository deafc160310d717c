import CFormwellTypes
import Formwell

// Asynchronous rules (a username's availability, say): checks the host makes however it likes (a
// worker thread, an event loop, an HTTP call). The library runs no thread and reads no clock: the
// host tells it the time (milliseconds, monotonic: CLOCK_MONOTONIC, performance.now(), ...) with
// fw_form_tick or fw_form_next_request, and value changes are dated with the last time told.
//
//   host (debounce 500 ms)                  library
//   fw_form_tick(1000), set "adam"   ---->  sync rules pass: request 1 due at 1500; PENDING
//   fw_form_tick(1080), set "adam_"  ---->  request 1 dropped (never handed out); request 2 due 1580
//   fw_form_next_request(1580)       <----  request 2 {"username", "adam_", rule name}, handed out once
//   ... a worker checks "adam_" ...
//   fw_form_resolve(2, FW_ASYNC_VALID) -->  applied: the field reads FW_VALIDITY_VALID
//   (a result for a request handed out before the value changed again comes back *out_stale)
//
// Debounce: a value set before its request is due replaces that request silently. Stale results: a
// request is tied to the value it was made for; once the value changes (or the form is reset, or
// the field removed) a handed-out request's result is dropped and reported stale (*out_stale),
// whatever order results arrive in. A field waiting for a check reads FW_VALIDITY_PENDING (display
// none, tint accent); fw_form_is_valid is false while any field is pending, and fw_form_submit
// flushes debounced requests (due at once) and answers FW_SUBMIT_PENDING while checks run. A value
// that is empty or fails a synchronous rule sends nothing. Any thread may resolve (calls on a form
// are serialized); a request never resolved only keeps its field pending.

/// Adds an asynchronous rule to the field named field_id (after its other asynchronous rules): the
/// host checks it (the library never calls anything). Whenever the field's value changes to a
/// non-empty value that passes every other rule, a request for it falls due debounce_ms after the
/// time last told (fw_form_tick), to be taken with fw_form_next_request and answered with
/// fw_form_resolve. The current value counts as checked: nothing is scheduled until the value
/// changes. Its failures are numbered after the field's synchronous rules (the snapshot's
/// failing_rule). name: non-empty, what the host knows the check by. message: replaces the message
/// the host gives with FW_ASYNC_INVALID (NULL: the host's, else "Invalid value").
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_INVALID_ARGUMENT for an empty name; or a general error (see Conventions).
@c public func fw_field_add_async_rule(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ name: UnsafePointer<CChar>?,
    _ debounce_ms: UInt32, _ message: UnsafePointer<CChar>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        let rule = try CStringInput.required(name, "name")
        let text = try CStringInput.optional(message, "message")
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in
                try form.addAsyncRule(AsyncRule(rule, debounceMilliseconds: UInt64(debounce_ms), message: text), to: id)
            }
        }
    }
}

/// Tells the form the host's monotonic time in milliseconds. A time before the last one told is
/// ignored (the form's clock never goes back). Value changes after it are dated with it; no field
/// changes.
/// Returns: FW_OK; or a general error (see Conventions).
@c public func fw_form_tick(_ form: OpaquePointer?, _ now_ms: UInt64) -> fw_status {
    abiCall { () throws(ABIFailure) in
        try withForm(form) { (form: inout Form) throws(ABIFailure) in form.tick(now_ms) }
    }
}

/// Ticks to now_ms (as fw_form_tick) and hands out the request that fell due first (the lowest id
/// among equal due times): fills *out_request (set out_request->size to sizeof(fw_request) first),
/// copies its texts into buf and sets *out_found. A request is handed out once; resolve it with
/// fw_form_resolve. None due: *out_found false, *out_request untouched. A buffer too small for the
/// texts (buf NULL with buf_size 0 asks for the size): the request is NOT handed out and the form's
/// clock is not moved, *out_found is true, the members but the texts are filled (text_size is the
/// size to retry with) and every text pointer is NULL.
/// Returns: FW_OK and *out_found set; FW_ERR_BUFFER_TOO_SMALL (nothing handed out); FW_ERR_INVALID_ARGUMENT for a bad request size; or a general error (see Conventions).
@c public func fw_form_next_request(
    _ form: OpaquePointer?, _ now_ms: UInt64, _ out_request: UnsafeMutablePointer<fw_request>?,
    _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt, _ out_found: UnsafeMutablePointer<Bool>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_found else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_found' is NULL") }
        out_found.pointee = false
        guard let out_request else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_request' is NULL") }
        try RequestWriter.checkSize(out_request)
        if buf == nil && buf_size != 0 {
            throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "buf is NULL but its size is \(buf_size)")
        }
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            // Sized before it is handed out: a request the caller cannot take stays scheduled.
            guard let next = form.peekRequest(now: now_ms) else {
                form.tick(now_ms)
                return
            }
            out_found.pointee = true
            let needed = RequestWriter.fill(out_request, with: next)
            guard let buf, needed <= buf_size else {
                throw ABIFailure(.FW_ERR_BUFFER_TOO_SMALL,
                                 "buf holds \(buf_size) bytes; \(needed) needed for the request's texts")
            }
            guard let handed = form.nextRequest(now: now_ms), handed.id == next.id else {
                throw ABIFailure(.FW_ERR_INTERNAL, "request \(next.id) could not be handed out")
            }
            RequestWriter.copyTexts(of: handed, to: out_request, buf)
        }
    }
}

/// Applies the host's answer to request request_id: verdict an fw_async_verdict; message (NULL for
/// none) goes with FW_ASYNC_INVALID and FW_ASYNC_ERROR and is not read with FW_ASYNC_VALID. The
/// field's current request: its verdict becomes the field's (*out_stale false). A request whose
/// field's value changed since it was handed out (or the form was reset, or the field removed): the
/// result is dropped and counted (fw_form_info's stale_results), *out_stale true. out_stale may be
/// NULL. Any thread may call it, e.g. the worker that made the check. Every error changes nothing.
/// Returns: FW_OK and *out_stale set; FW_ERR_UNKNOWN_REQUEST for an id never issued (0, or above the last); FW_ERR_REQUEST_CLOSED for one already resolved (or cancelled more than 1,024 stale ids ago); FW_ERR_INVALID_ARGUMENT for one not yet handed out, or a verdict that is not an fw_async_verdict; or a general error (see Conventions).
@c public func fw_form_resolve(
    _ form: OpaquePointer?, _ request_id: UInt64, _ verdict: Int32, _ message: UnsafePointer<CChar>?,
    _ out_stale: UnsafeMutablePointer<Bool>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        out_stale?.pointee = false
        let answer: AsyncVerdict
        switch fw_async_verdict(rawValue: verdict) {
        case .FW_ASYNC_VALID: answer = .valid
        case .FW_ASYNC_INVALID: answer = .invalid(try CStringInput.optional(message, "message"))
        case .FW_ASYNC_ERROR: answer = .error(try CStringInput.optional(message, "message"))
        case nil: throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "verdict \(verdict) is not an fw_async_verdict")
        }
        let outcome = try withForm(form) { (form: inout Form) throws(ABIFailure) -> ResolveOutcome in
            try engine { () throws(FormError) -> ResolveOutcome in try form.resolve(request_id, answer) }
        }
        out_stale?.pointee = outcome == .stale
    }
}

/// A submit with asynchronous rules: fw_form_validate_group (group NULL: the whole form, counted as
/// fw_form_validate is), whose debounced requests first fall due at once (a submit does not wait out
/// a debounce), then stores an fw_submit_outcome in *out_outcome: FW_SUBMIT_INVALID when a field
/// taking part fails now, else FW_SUBMIT_PENDING when some wait for a check (take them with
/// fw_form_next_request, then submit again once resolved), else FW_SUBMIT_VALID. submit_failed
/// (fw_form_info) becomes true only for FW_SUBMIT_INVALID.
/// Returns: FW_OK and *out_outcome set; FW_ERR_INVALID_ARGUMENT for a group no field belongs to; FW_ERR_CALLBACK when a custom validator fails (nothing changes); or a general error (see Conventions).
@c public func fw_form_submit(
    _ form: OpaquePointer?, _ group: UnsafePointer<CChar>?, _ out_outcome: UnsafeMutablePointer<Int32>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_outcome else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_outcome' is NULL") }
        let name = try CStringInput.optional(group, "group")
        let outcome = try withForm(form) { (form: inout Form) throws(ABIFailure) -> SubmitOutcome in
            try engine { () throws(FormError) -> SubmitOutcome in try form.submit(group: name) }
        }
        switch outcome {
        case .valid: out_outcome.pointee = fw_submit_outcome.FW_SUBMIT_VALID.rawValue
        case .invalid: out_outcome.pointee = fw_submit_outcome.FW_SUBMIT_INVALID.rawValue
        case .pending: out_outcome.pointee = fw_submit_outcome.FW_SUBMIT_PENDING.rawValue
        }
    }
}

/// When the next request not yet handed out falls due, to set a timer: *out_scheduled true and
/// *out_due_ms that host time (it may already have passed: take it with fw_form_next_request), or
/// *out_scheduled false and *out_due_ms 0 when none is scheduled.
/// Returns: FW_OK and both set; or a general error (see Conventions).
@c public func fw_form_next_due_time(
    _ form: OpaquePointer?, _ out_due_ms: UnsafeMutablePointer<UInt64>?, _ out_scheduled: UnsafeMutablePointer<Bool>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_due_ms else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_due_ms' is NULL") }
        guard let out_scheduled else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_scheduled' is NULL") }
        let due = try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) -> UInt64? in
            form.pointee.nextDueTime
        }
        out_due_ms.pointee = due ?? 0
        out_scheduled.pointee = due != nil
    }
}

/// Fills caller-owned fw_request structs (the growth rule of fw_snapshot).
private enum RequestWriter {
    /// The first version's struct (up to `rule`): the smallest `size` a caller may declare.
    static let minimumSize = (MemoryLayout<fw_request>.offset(of: \.rule) ?? MemoryLayout<fw_request>.size)
        + MemoryLayout<UnsafePointer<CChar>?>.size

    static func checkSize(_ request: UnsafeMutablePointer<fw_request>) throws(ABIFailure) {
        let alignment = MemoryLayout<fw_request>.alignment
        guard Int(bitPattern: request) % alignment == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "out_request is not aligned for an fw_request")
        }
        let size = request.pointee.size
        guard size >= minimumSize, size <= Int(Int32.max), size % alignment == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                             "request size \(size) is not sizeof(fw_request) (\(minimumSize) or more, a multiple of \(alignment))")
        }
    }

    /// Writes the members but the texts (pointers NULL), member by member (the caller's `size`
    /// kept); answers the buffer size the texts need.
    static func fill(_ out: UnsafeMutablePointer<fw_request>, with request: AsyncRequest) -> UInt {
        let (id, value, rule) = (request.fieldID.utf8.count, request.value.utf8.count, request.rule.utf8.count)
        let needed = id &+ value &+ rule &+ 3
        out.pointee.id = request.id
        out.pointee.due = request.due
        out.pointee.field_index = request.fieldIndex
        out.pointee.field_id_length = id
        out.pointee.value_length = value
        out.pointee.rule_length = rule
        out.pointee.text_size = needed
        out.pointee.field_id = nil
        out.pointee.value = nil
        out.pointee.rule = nil
        return UInt(needed)
    }

    /// Copies the three texts into `buf`, which holds `text_size` bytes (checked by the caller).
    static func copyTexts(of request: AsyncRequest, to out: UnsafeMutablePointer<fw_request>,
                          _ buf: UnsafeMutablePointer<CChar>) {
        var at = 0
        out.pointee.field_id = UnsafePointer(buf + at)
        at &+= SnapshotWriter.copy(request.fieldID, to: buf + at)
        out.pointee.value = UnsafePointer(buf + at)
        at &+= SnapshotWriter.copy(request.value, to: buf + at)
        out.pointee.rule = UnsafePointer(buf + at)
        _ = SnapshotWriter.copy(request.rule, to: buf + at)
    }
}

/// Stores in out_indices[0 ...] the indices (registration order) of the fields waiting for an
/// asynchronous check (scheduled or handed out), whatever their modes show, and their number in
/// *out_count. When the count exceeds capacity nothing is stored and the call returns
/// FW_ERR_BUFFER_TOO_SMALL (NULL with capacity 0 asks for the count), as fw_form_changed_since.
/// Returns: FW_OK and *out_count set; FW_ERR_BUFFER_TOO_SMALL (*out_count set, nothing stored); or a general error (see Conventions).
@c public func fw_form_pending_fields(
    _ form: OpaquePointer?, _ out_indices: UnsafeMutablePointer<UInt>?, _ capacity: UInt,
    _ out_count: UnsafeMutablePointer<UInt>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let count = try IndexOutput.checkArguments(out_indices, capacity, out_count)
        let pending = try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            form.pointee.pendingFieldIndices
        }
        try IndexOutput.store(pending, to: out_indices, capacity: capacity, count: count, what: "fields are pending")
    }
}
