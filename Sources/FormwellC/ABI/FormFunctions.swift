import Formwell

/// Creates an empty form and stores its handle in *out_form. Free it with fw_form_free.
/// A handle may be used from any thread; calls on one form are serialized by the library.
/// Returns: FW_OK and *out_form set; FW_ERR_INTERNAL when too many forms are alive; or a general error (see Conventions).
@c public func fw_form_create(_ out_form: UnsafeMutablePointer<OpaquePointer?>?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_form else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_form' is NULL") }
        guard let handle = FormTable.shared.register(Form()) else {
            out_form.pointee = nil
            throw ABIFailure(.FW_ERR_INTERNAL, "too many live forms (16,777,215 at once)")
        }
        out_form.pointee = handle
    }
}

/// Frees a form and everything it owns, calling the destructors of custom validators' contexts.
/// NULL is a no-op returning FW_OK; a handle already freed returns FW_ERR_INVALID_HANDLE and does nothing.
/// A destructor may free other forms: they are destroyed after it returns, within this call, so chains
/// of forms freeing each other run in constant stack.
/// Returns: FW_OK (also for NULL); FW_ERR_INVALID_HANDLE for a freed or forged handle; FW_ERR_BUSY from inside a custom validator of that form.
@c public func fw_form_free(_ form: OpaquePointer?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard form != nil else { return }
        try freeForm(form)
    }
}

/// Adds a field. field_id: non-empty, unique in the form; ids compare as Unicode text (canonically
/// equivalent spellings such as "\u00e9" and "e\u0301" name the same field). label: how messages of other fields name it
/// (NULL: the id). initial_value: the value now and after fw_form_reset (NULL: empty).
/// Add its rules with the fw_field_add_* functions.
/// Returns: FW_OK; FW_ERR_DUPLICATE_FIELD; FW_ERR_INVALID_ARGUMENT for an empty id; or a general error (see Conventions).
@c public func fw_form_add_field(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ label: UnsafePointer<CChar>?,
    _ initial_value: UnsafePointer<CChar>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        let label = try CStringInput.optional(label, "label")
        let initial = try CStringInput.optional(initial_value, "initial_value") ?? ""
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.addField(id, label: label, initialValue: initial) }
        }
    }
}

/// Marks every field touched and runs every rule.
/// Returns: FW_OK; FW_ERR_CALLBACK when a custom validator fails (nothing changes); or a general error (see Conventions).
@c public func fw_form_touch_all(_ form: OpaquePointer?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.touchAll() }
        }
    }
}

/// Submit: touches every field, applies the strict stage, and stores in *out_valid whether every
/// field is valid. A focused field keeps its focus.
/// Returns: FW_OK and *out_valid set; FW_ERR_CALLBACK when a custom validator fails (nothing changes); or a general error (see Conventions).
@c public func fw_form_validate(_ form: OpaquePointer?, _ out_valid: UnsafeMutablePointer<Bool>?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_valid else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_valid' is NULL") }
        out_valid.pointee = try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.validate() }
        }
    }
}

/// Puts every value back to its initial value; every field idle, untouched and unfocused.
/// Returns: FW_OK; FW_ERR_CALLBACK when a custom validator fails (nothing changes); or a general error (see Conventions).
@c public func fw_form_reset(_ form: OpaquePointer?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.reset() }
        }
    }
}

/// Sets the PCRE2 limits of every pattern rule of this form (email, phone and regex rules) and re-runs
/// every field's rules under them. Defaults: 1,000,000 match steps, depth 100,000, 16,384 KiB of heap.
/// A match that hits a limit makes its field invalid with "This value is too complex to check" and
/// sets fw_field_limit_exceeded; never valid, never a hang. A limit of 0: FW_ERR_INVALID_ARGUMENT.
/// Returns: FW_OK; FW_ERR_INVALID_ARGUMENT for a limit of 0; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_form_set_match_limits(
    _ form: OpaquePointer?, _ match_limit: UInt32, _ depth_limit: UInt32, _ heap_limit_kib: UInt32
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            var limits = form.matchLimits
            (limits.matchLimit, limits.depthLimit, limits.heapLimitKiB) = (match_limit, depth_limit, heap_limit_kib)
            try engine { () throws(FormError) in try form.setMatchLimits(limits) }
        }
    }
}

/// Sets the work budget of one match of a pattern rule for a value up to 1 MiB (longer values get
/// proportionally more), and re-runs every field's rules. The budget is counted in microseconds of
/// a deterministic cost model (2 units a nanosecond per byte of the value, then a step cost that
/// grows with the length), never by a clock: the same value gets the same verdict on any machine
/// under any load. It lowers PCRE2's step limit for long values; a value whose length alone exceeds
/// it is refused unmatched. Default 5,000, which leaves short values the whole step limit (see
/// fw_form_set_match_limits). A match cut short makes its field invalid with "This value is too
/// complex to check", as a step limit does. A larger budget lets the step limits decide. What a
/// step costs in time depends on the pattern: on a few, the default 1,000,000 steps on a short value
/// take tens of milliseconds; a host that needs a tighter bound in time lowers the budget or the
/// match limit.
/// Returns: FW_OK; FW_ERR_INVALID_ARGUMENT for 0; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_form_set_time_limit(_ form: OpaquePointer?, _ microseconds: UInt32) -> fw_status {
    abiCall { () throws(ABIFailure) in
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            var limits = form.matchLimits
            limits.timeLimitMicroseconds = microseconds
            try engine { () throws(FormError) in try form.setMatchLimits(limits) }
        }
    }
}

/// Stores the form's work budget per match (see fw_form_set_time_limit) in *out_microseconds.
/// Returns: FW_OK and *out_microseconds set; or a general error (see Conventions).
@c public func fw_form_time_limit(_ form: OpaquePointer?, _ out_microseconds: UnsafeMutablePointer<UInt32>?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_microseconds else {
            throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_microseconds' is NULL")
        }
        out_microseconds.pointee = try withForm(form) { (form: inout Form) throws(ABIFailure) in form.matchLimits.timeLimitMicroseconds }
    }
}

/// Stores the form's PCRE2 limits (see fw_form_set_match_limits) in the non-NULL out-parameters.
/// Returns: FW_OK and the three limits set; or a general error (see Conventions).
@c public func fw_form_match_limits(
    _ form: OpaquePointer?, _ out_match_limit: UnsafeMutablePointer<UInt32>?,
    _ out_depth_limit: UnsafeMutablePointer<UInt32>?, _ out_heap_limit_kib: UnsafeMutablePointer<UInt32>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let limits = try withForm(form) { (form: inout Form) throws(ABIFailure) in form.matchLimits }
        out_match_limit?.pointee = limits.matchLimit
        out_depth_limit?.pointee = limits.depthLimit
        out_heap_limit_kib?.pointee = limits.heapLimitKiB
    }
}

/// Stores in *out_valid whether every field passes its strict rules on its current value, touched
/// or not (what a submit button's enabled state needs). Runs no validator.
/// Returns: FW_OK and *out_valid set; or a general error (see Conventions).
@c public func fw_form_is_valid(_ form: OpaquePointer?, _ out_valid: UnsafeMutablePointer<Bool>?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_valid else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_valid' is NULL") }
        out_valid.pointee = try withForm(form) { (form: inout Form) throws(ABIFailure) in form.isValid }
    }
}

/// Copies the id of the first field, in registration order, that fails its strict rules into buf;
/// "" (length 0) when every field is valid. Buffer style as fw_field_value.
/// Returns: FW_OK ("" when every field is valid); FW_ERR_BUFFER_TOO_SMALL; or a general error (see Conventions).
@c public func fw_form_first_invalid(
    _ form: OpaquePointer?, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt,
    _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    copyOut(buf, buf_size, out_length) { () throws(ABIFailure) in
        try withForm(form) { (form: inout Form) throws(ABIFailure) in form.firstInvalidFieldID ?? "" }
    }
}

/// Stores the number of fields in *out_count.
/// Returns: FW_OK and *out_count set; or a general error (see Conventions).
@c public func fw_form_field_count(_ form: OpaquePointer?, _ out_count: UnsafeMutablePointer<UInt>?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_count else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_count' is NULL") }
        // (The count alone: listing the ids to count them allocated an array per call.)
        out_count.pointee = try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            UInt(form.pointee.fieldCount)
        }
    }
}

/// Copies the id of the field at index (registration order, from 0) into buf; an index at or past
/// fw_form_field_count is FW_ERR_INVALID_ARGUMENT. Buffer style as fw_field_value.
/// Returns: FW_OK; FW_ERR_INVALID_ARGUMENT for an index out of range; FW_ERR_BUFFER_TOO_SMALL; or a general error (see Conventions).
@c public func fw_form_field_id(
    _ form: OpaquePointer?, _ index: UInt, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt,
    _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    copyOut(buf, buf_size, out_length) { () throws(ABIFailure) in
        // (One id: listing every id to read one made listing a form's ids quadratic.)
        try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            guard let id = form.pointee.fieldID(at: Int(clamping: index)) else {
                throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                                 "field index \(index) is out of range (\(form.pointee.fieldCount) fields)")
            }
            return id
        }
    }
}

/// Stores the index (registration order) of the field that has focus in *out_index and true in
/// *out_focused; when no field has focus, *out_index is 0 and *out_focused false.
/// Returns: FW_OK and both set; or a general error (see Conventions).
@c public func fw_form_focused_field(
    _ form: OpaquePointer?, _ out_index: UnsafeMutablePointer<UInt>?, _ out_focused: UnsafeMutablePointer<Bool>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_index else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_index' is NULL") }
        guard let out_focused else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_focused' is NULL") }
        let focused = try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            form.pointee.focusedFieldIndex
        }
        out_index.pointee = UInt(focused ?? 0)
        out_focused.pointee = focused != nil
    }
}

/// The number of forms created and not yet freed in this process (for leak checks in tests and bindings).
/// Returns: the number of live forms.
@c public func fw_form_live_count() -> UInt {
    UInt(FormTable.shared.liveCount)
}

/// Produces a string under the form's lock and copies it out after the lock is released.
func copyOut(
    _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?,
    _ produce: () throws(ABIFailure) -> String
) -> fw_status {
    let status = abiCall { () throws(ABIFailure) in
        try CStringOutput.write(try produce(), to: buf, capacity: buf_size, length: out_length)
    }
    return clearedOnFailure(status, buf, buf_size)
}

/// The buffer style's rule for a call that failed other than by a short buffer: buf holds "".
func clearedOnFailure(_ status: fw_status, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt) -> fw_status {
    if status != .FW_OK && status != .FW_ERR_BUFFER_TOO_SMALL { CStringOutput.clear(buf, capacity: buf_size) }
    return status
}
