import CFormwellTypes
import Formwell

// A form spec is JSON text (schema: schema/form-spec.schema.json): {"formwell": 1, "fields": [...]},
// each field {"id", "label"?, "initial"?, "rules": [...]}, each rule {"rule": kind, parameter, "message"?}.
// Custom rules name validators defined on the form first with fw_form_define_validator.

/// Loads a form spec into the form: its fields are added after any the form has, then their rules
/// (so a matches rule may name a field defined later in the spec). All or nothing: on
/// FW_ERR_INVALID_SPEC the detail names the JSON path and the problem, fw_last_error_offset gives the
/// offset inside a rejected pattern, and the form is unchanged.
/// Returns: FW_OK; FW_ERR_INVALID_SPEC (the detail names the JSON path and problem; nothing changes); or a general error (see Conventions).
@c public func fw_form_load_spec(_ form: OpaquePointer?, _ spec_json: UnsafePointer<CChar>?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let text = try CStringInput.required(spec_json, "spec_json")
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            do throws(SpecError) {
                try form.load(try FormSpec(json: text))
            } catch {
                throw ABIFailure(error)
            }
        }
    }
}

/// Copies the form's definition as spec JSON (pretty-printed, keys sorted: loading it and exporting
/// again gives the same text) into buf. Fails with FW_ERR_INVALID_ARGUMENT when a rule is a custom
/// validator added with fw_field_add_custom, which has no name a spec could use.
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL; FW_ERR_INVALID_ARGUMENT for a form with an anonymous custom rule; or a general error (see Conventions).
@c public func fw_form_export_spec(
    _ form: OpaquePointer?, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt,
    _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    copyOut(buf, buf_size, out_length) { () throws(ABIFailure) in
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.spec().json }
        }
    }
}

/// Defines a custom validator (see fw_validate_fn) that specs loaded later may name with
/// {"rule": "custom", "name": name}. Ownership as fw_field_add_custom: on success the form owns context
/// and calls destroy(context) when it is freed; on failure the caller keeps it.
/// Returns: FW_OK (a name defined again is replaced); FW_ERR_INVALID_ARGUMENT for an empty name; or a general error (see Conventions).
@c public func fw_form_define_validator(
    _ form: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ validate: fw_validate_fn?,
    _ context: UnsafeMutableRawPointer?, _ destroy: fw_destroy_fn?
) -> fw_status {
    guard let validate else {
        return abiCall { () throws(ABIFailure) in throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'validate' is NULL") }
    }
    let validator = CValidator(validate: validate, context: context, destroy: destroy)
    let status = abiCall { () throws(ABIFailure) in
        let text = try CStringInput.required(name, "name")
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in
                try form.defineValidator(text, CustomValidator { value in try validator.check(value) })
            }
        }
    }
    if status == .FW_OK { validator.ownsContext = true }
    return status
}
