import Formwell

// Validation modes decide when a field's shown state (validity, messages, display, tint, hint)
// follows its value; see fw_mode. The error mode decides whether a field reports its first failing
// rule or every failing rule (fw_error_mode, the snapshot's `errors`). Whatever the modes,
// fw_form_is_valid and fw_form_first_invalid judge the current values.

/// Sets the form's validation mode (an fw_mode other than FW_MODE_FORM; the default is
/// FW_MODE_TWO_STAGE). Fields without a mode of their own show what the new mode shows from now on.
/// Returns: FW_OK; FW_ERR_INVALID_ARGUMENT for a value that is not an fw_mode, or FW_MODE_FORM; or a general error (see Conventions).
@c public func fw_form_set_mode(_ form: OpaquePointer?, _ mode: Int32) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let decoded = fw_mode(rawValue: mode)?.validationMode else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                             "mode \(mode) is not a form's fw_mode (FW_MODE_TWO_STAGE 0 ... FW_MODE_ON_SUBMIT 4)")
        }
        try withForm(form) { (form: inout Form) throws(ABIFailure) in form.setValidationMode(decoded) }
    }
}

/// Sets the validation mode of the field named field_id: an fw_mode, or FW_MODE_FORM to follow the
/// form's mode (also when that changes later), which every field does at first.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_INVALID_ARGUMENT for a value that is not an fw_mode; or a general error (see Conventions).
@c public func fw_field_set_mode(_ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ mode: Int32) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        guard let decoded = fw_mode(rawValue: mode) else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                             "mode \(mode) is not an fw_mode (FW_MODE_FORM -1, FW_MODE_TWO_STAGE 0 ... FW_MODE_ON_SUBMIT 4)")
        }
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.setValidationMode(decoded.validationMode, for: id) }
        }
    }
}

/// Sets the form's error mode (an fw_error_mode; the default is FW_ERRORS_FIRST) and re-runs every
/// field's rules: in FW_ERRORS_ALL the rules after the first failure run too, and a snapshot's
/// `errors` lists every failing rule's message in rule order.
/// Returns: FW_OK; FW_ERR_INVALID_ARGUMENT for a value that is not an fw_error_mode; FW_ERR_CALLBACK when a custom validator fails (nothing changes); or a general error (see Conventions).
@c public func fw_form_set_error_mode(_ form: OpaquePointer?, _ error_mode: Int32) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let decoded = fw_error_mode(rawValue: error_mode) else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                             "error mode \(error_mode) is not an fw_error_mode (FW_ERRORS_FIRST 0, FW_ERRORS_ALL 1)")
        }
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.setErrorReporting(decoded.errorMode) }
        }
    }
}
