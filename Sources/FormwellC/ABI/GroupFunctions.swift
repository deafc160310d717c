import Formwell

// Groups (the steps of a wizard, say): a field may belong to any number of named groups, and a
// group's validate, touch-all, validity and first invalid field concern only its fields (in
// registration order). A group no field belongs to is FW_ERR_INVALID_ARGUMENT ("no field belongs to
// group 'x'"), so a misspelt name never validates nothing and passes. group NULL: the whole form.

/// Adds the field named field_id to the group (a non-empty name); nothing changes when it is already
/// in it.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_INVALID_ARGUMENT for an empty group name; or a general error (see Conventions).
@c public func fw_field_add_group(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ group: UnsafePointer<CChar>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        let name = try CStringInput.required(group, "group")
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.addGroup(name, to: id) }
        }
    }
}

/// fw_form_validate for the group's fields only: touches them, applies the strict stage, and stores
/// in *out_valid whether each of them is valid. A group's validate is not a submit: the form's
/// submit_count and submit_failed (fw_form_get_info) stay; its fields count as having taken part in
/// a validate (modified_since_submit cleared, FW_MODE_ON_SUBMIT shows their state). group NULL:
/// exactly fw_form_validate.
/// Returns: FW_OK and *out_valid set; FW_ERR_INVALID_ARGUMENT for a group no field belongs to; FW_ERR_CALLBACK when a custom validator fails (nothing changes); or a general error (see Conventions).
@c public func fw_form_validate_group(
    _ form: OpaquePointer?, _ group: UnsafePointer<CChar>?, _ out_valid: UnsafeMutablePointer<Bool>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_valid else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_valid' is NULL") }
        let name = try CStringInput.optional(group, "group")
        out_valid.pointee = try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.validate(group: name) }
        }
    }
}

/// fw_form_touch_all for the group's fields only. group NULL: exactly fw_form_touch_all.
/// Returns: FW_OK; FW_ERR_INVALID_ARGUMENT for a group no field belongs to; FW_ERR_CALLBACK when a custom validator fails (nothing changes); or a general error (see Conventions).
@c public func fw_form_touch_all_group(_ form: OpaquePointer?, _ group: UnsafePointer<CChar>?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let name = try CStringInput.optional(group, "group")
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.touchAll(group: name) }
        }
    }
}

/// fw_form_is_valid for the group's fields only: stores in *out_valid whether each of them passes
/// its strict rules on its current value (and has no external error). Runs no validator. group
/// NULL: exactly fw_form_is_valid.
/// Returns: FW_OK and *out_valid set; FW_ERR_INVALID_ARGUMENT for a group no field belongs to; or a general error (see Conventions).
@c public func fw_form_is_valid_group(
    _ form: OpaquePointer?, _ group: UnsafePointer<CChar>?, _ out_valid: UnsafeMutablePointer<Bool>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_valid else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_valid' is NULL") }
        let name = try CStringInput.optional(group, "group")
        out_valid.pointee = try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            guard let name else { return form.pointee.isValid }
            return try engine { () throws(FormError) in try form.pointee.isValid(in: name) }
        }
    }
}

/// fw_form_first_invalid among the group's fields: copies the id of the first of them, in
/// registration order, that fails its strict rules into buf; "" (length 0) when they are all valid.
/// Buffer style as fw_field_value. group NULL: exactly fw_form_first_invalid.
/// Returns: FW_OK ("" when every field of the group is valid); FW_ERR_INVALID_ARGUMENT for a group no field belongs to; FW_ERR_BUFFER_TOO_SMALL; or a general error (see Conventions).
@c public func fw_form_first_invalid_group(
    _ form: OpaquePointer?, _ group: UnsafePointer<CChar>?, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt,
    _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    copyOut(buf, buf_size, out_length) { () throws(ABIFailure) in
        let name = try CStringInput.optional(group, "group")
        return try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            guard let name else { return form.pointee.firstInvalidFieldID ?? "" }
            return try engine { () throws(FormError) in try form.pointee.firstInvalidFieldID(in: name) } ?? ""
        }
    }
}

/// Stores in *out_member whether the field named field_id belongs to the group (false for a group no
/// field belongs to).
/// Returns: FW_OK and *out_member set; FW_ERR_UNKNOWN_FIELD; or a general error (see Conventions).
@c public func fw_field_in_group(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ group: UnsafePointer<CChar>?,
    _ out_member: UnsafeMutablePointer<Bool>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_member else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_member' is NULL") }
        let id = try CStringInput.required(field_id, "field_id")
        let name = try CStringInput.required(group, "group")
        out_member.pointee = try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.pointee.isMember(id, of: name) }
        }
    }
}
