import Formwell

// Strings: every string argument is NUL-terminated UTF-8 (an embedded NUL ends it). Every string the
// library returns is copied into a buffer the caller owns: pass buf and its size in bytes; the
// library writes the text and a NUL, and stores the full length (without NUL) in *out_length when
// out_length is not NULL. buf == NULL with buf_size == 0 only asks for the length. When the text does
// not fit, buf receives a NUL-terminated prefix cut at a character boundary and the call returns
// FW_ERR_BUFFER_TOO_SMALL. On any other failure buf receives "".

/// The field gains focus: stage 1 (lenient). The field that had focus is blurred first.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_CALLBACK (nothing changes); or a general error (see Conventions).
@c public func fw_field_focus(_ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?) -> fw_status {
    fieldEvent(form, field_id) { (form: inout Form, index: Int) throws(FormError) in try form.focus(at: index) }
}

/// The field loses focus: stage 2 (strict); the field counts as touched.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_CALLBACK (nothing changes); or a general error (see Conventions).
@c public func fw_field_blur(_ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?) -> fw_status {
    fieldEvent(form, field_id) { (form: inout Form, index: Int) throws(FormError) in try form.blur(at: index) }
}

/// Sets the value (typing or programmatic): stage 1 if the field is focused, else stage 2. Fields with
/// a matches rule naming this field are re-checked.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_INVALID_UTF8; FW_ERR_CALLBACK (nothing changes); or a general error (see Conventions).
@c public func fw_field_set_value(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.utf8(field_id, "field_id")
        let text = try CStringInput.utf8(value, "value")
        try withNamedField(form, id) { (form: UnsafeMutablePointer<Form>, index: Int) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.pointee.setValue(text, at: index) }
        }
    }
}

/// Marks the field touched and runs its rules.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_CALLBACK (nothing changes); or a general error (see Conventions).
@c public func fw_field_touch(_ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?) -> fw_status {
    fieldEvent(form, field_id) { (form: inout Form, index: Int) throws(FormError) in try form.touch(at: index) }
}

/// Stores the field's phase in *out_phase.
/// Returns: FW_OK and *out_phase set; FW_ERR_UNKNOWN_FIELD; or a general error (see Conventions).
@c public func fw_field_phase(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ out_phase: UnsafeMutablePointer<fw_phase>?
) -> fw_status {
    query(form, field_id, out_phase, "out_phase") { fw_phase($0.phase) }
}

/// Stores the field's validity in its current phase in *out_validity (FW_VALIDITY_EMPTY when idle).
/// Returns: FW_OK and *out_validity set; FW_ERR_UNKNOWN_FIELD; or a general error (see Conventions).
@c public func fw_field_validity(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ out_validity: UnsafeMutablePointer<fw_validity>?
) -> fw_status {
    query(form, field_id, out_validity, "out_validity") { fw_validity($0.validity) }
}

/// Stores what a view should surface for the field in *out_display (FW_DISPLAY_NONE until touched).
/// Returns: FW_OK and *out_display set; FW_ERR_UNKNOWN_FIELD; or a general error (see Conventions).
@c public func fw_field_display(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ out_display: UnsafeMutablePointer<fw_display>?
) -> fw_status {
    query(form, field_id, out_display, "out_display") { fw_display($0.display) }
}

/// Stores in *out_touched whether the field was blurred or touched since it was added or reset.
/// Returns: FW_OK and *out_touched set; FW_ERR_UNKNOWN_FIELD; or a general error (see Conventions).
@c public func fw_field_touched(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ out_touched: UnsafeMutablePointer<Bool>?
) -> fw_status {
    query(form, field_id, out_touched, "out_touched") { $0.touched }
}

/// Stores in *out_exceeded whether the field's current verdict comes from a pattern that hit its match
/// limits (see fw_form_set_match_limits): the field is invalid because it could not be checked.
/// Returns: FW_OK and *out_exceeded set; FW_ERR_UNKNOWN_FIELD; or a general error (see Conventions).
@c public func fw_field_limit_exceeded(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ out_exceeded: UnsafeMutablePointer<Bool>?
) -> fw_status {
    query(form, field_id, out_exceeded, "out_exceeded") { $0.limitExceeded }
}

/// Copies the message of the field's validity (FW_VALIDITY_INVALID) into buf; "" otherwise.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_BUFFER_TOO_SMALL; or a general error (see Conventions).
@c public func fw_field_message(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ buf: UnsafeMutablePointer<CChar>?,
    _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    fieldString(form, field_id, buf, buf_size, out_length) { $0.message }
}

/// Copies the message to surface (FW_DISPLAY_ERROR) into buf; "" otherwise.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_BUFFER_TOO_SMALL; or a general error (see Conventions).
@c public func fw_field_display_message(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ buf: UnsafeMutablePointer<CChar>?,
    _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    fieldString(form, field_id, buf, buf_size, out_length) { $0.displayMessage }
}

/// Copies the field's current value into buf.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_BUFFER_TOO_SMALL; or a general error (see Conventions).
@c public func fw_field_value(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ buf: UnsafeMutablePointer<CChar>?,
    _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    fieldString(form, field_id, buf, buf_size, out_length) { $0.value }
}

private func fieldEvent(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?,
    _ event: (inout Form, Int) throws(FormError) -> Void
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.utf8(field_id, "field_id")
        try withNamedField(form, id) { (form: UnsafeMutablePointer<Form>, index: Int) throws(ABIFailure) in
            try engine { () throws(FormError) in try event(&form.pointee, index) }
        }
    }
}

// The single-property queries read the field in place, as a snapshot does (`Form.readState`):
// building a whole `FieldState` (every text as a new string) to answer one member costs several
// times the read itself.

private func query<T>(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<T>?,
    _ name: String, _ read: (StateSummary) -> T
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument '\(name)' is NULL") }
        let id = try CStringInput.utf8(field_id, "field_id")
        try withNamedField(form, id) { (form: UnsafeMutablePointer<Form>, index: Int) throws(ABIFailure) in
            try engine { () throws(FormError) in
                out.pointee = read(try form.pointee.readSummary(at: index))
            }
        }
    }
}

private func fieldString(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ buf: UnsafeMutablePointer<CChar>?,
    _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?, _ read: (StateTexts) -> UnsafeBufferPointer<UInt8>
) -> fw_status {
    let status = abiCall { () throws(ABIFailure) in
        let id = try CStringInput.utf8(field_id, "field_id")
        try withNamedField(form, id) { (form: UnsafeMutablePointer<Form>, index: Int) throws(ABIFailure) in
            var failure: ABIFailure?
            try engine { () throws(FormError) in
                try form.pointee.readState(at: index) { _, texts in
                    do throws(ABIFailure) {
                        try CStringOutput.write(bytes: read(texts), to: buf, capacity: buf_size, length: out_length)
                    } catch { failure = error }
                }
            }
            if let failure { throw failure }
        }
    }
    return clearedOnFailure(status, buf, buf_size)
}
