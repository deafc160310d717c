import Formwell

// External errors are set from outside the rules (a server's "this e-mail is already registered"):
// the field's verdict is invalid with the given message, overriding its rules (also on an empty
// value), until a set-value changes its value (setting the same value again keeps the error),
// fw_field_clear_error, fw_form_clear_errors or a reset. They count for fw_form_is_valid and
// fw_form_first_invalid. The field's validity reads invalid with the message unless it is idle, its
// display shows the message once touched, its snapshot's failing_rule is -1, external_error is true
// and its hint "Correct this field".

/// Sets an external error (message: non-empty) on the field named field_id, replacing any it had. A
/// field already judged (touched, or not idle) is judged again in its stage as a blur would, without
/// touching it: an optional empty field with an external error is inactive, not idle. Fields in
/// FW_MODE_ON_BLUR or FW_MODE_ON_TOUCHED show the error at once.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_INVALID_ARGUMENT for an empty message; or a general error (see Conventions).
@c public func fw_field_set_error(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ message: UnsafePointer<CChar>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        let text = try CStringInput.required(message, "message")
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.setError(text, for: id) }
        }
    }
}

/// Removes the external error of the field named field_id, if it has one (else nothing changes).
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; or a general error (see Conventions).
@c public func fw_field_clear_error(_ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.clearError(for: id) }
        }
    }
}

/// Removes every field's external error.
/// Returns: FW_OK; or a general error (see Conventions).
@c public func fw_form_clear_errors(_ form: OpaquePointer?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        try withForm(form) { (form: inout Form) throws(ABIFailure) in form.clearErrors() }
    }
}
