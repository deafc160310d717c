import Formwell

// The hot path: look a field's index up once (fw_form_field_index), then name the field by index.
// An index stays valid until a field before it (or the field itself) is removed with
// fw_form_remove_field, which moves every later field down by one: look indices up again after a
// removal. An index at or past fw_form_field_count is FW_ERR_INVALID_ARGUMENT. Each call behaves as
// its id-named counterpart.

/// Stores in *out_index the index (registration order, from 0) of the field named field_id.
/// Returns: FW_OK and *out_index set; FW_ERR_UNKNOWN_FIELD; or a general error (see Conventions).
@c public func fw_form_field_index(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ out_index: UnsafeMutablePointer<UInt>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_index else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_index' is NULL") }
        let id = try CStringInput.required(field_id, "field_id")
        out_index.pointee = try withForm(form) { (form: inout Form) throws(ABIFailure) in
            UInt(try engine { () throws(FormError) in try form.fieldIndex(of: id) })
        }
    }
}

/// fw_field_set_value for the field at index.
/// Returns: FW_OK; FW_ERR_INVALID_ARGUMENT for an index out of range; FW_ERR_INVALID_UTF8; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_field_set_value_at(
    _ form: OpaquePointer?, _ index: UInt, _ value: UnsafePointer<CChar>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let text = try CStringInput.utf8(value, "value")
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.setValue(text, at: Int(clamping: index)) }
        }
    }
}

/// fw_field_focus for the field at index.
/// Returns: FW_OK; FW_ERR_INVALID_ARGUMENT for an index out of range; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_field_focus_at(_ form: OpaquePointer?, _ index: UInt) -> fw_status {
    indexedEvent(form, index) { (form: inout Form, position: Int) throws(FormError) in try form.focus(at: position) }
}

/// fw_field_blur for the field at index.
/// Returns: FW_OK; FW_ERR_INVALID_ARGUMENT for an index out of range; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_field_blur_at(_ form: OpaquePointer?, _ index: UInt) -> fw_status {
    indexedEvent(form, index) { (form: inout Form, position: Int) throws(FormError) in try form.blur(at: position) }
}

/// fw_field_touch for the field at index.
/// Returns: FW_OK; FW_ERR_INVALID_ARGUMENT for an index out of range; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_field_touch_at(_ form: OpaquePointer?, _ index: UInt) -> fw_status {
    indexedEvent(form, index) { (form: inout Form, position: Int) throws(FormError) in try form.touch(at: position) }
}

private func indexedEvent(
    _ form: OpaquePointer?, _ index: UInt, _ event: (inout Form, Int) throws(FormError) -> Void
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try event(&form, Int(clamping: index)) }
        }
    }
}
