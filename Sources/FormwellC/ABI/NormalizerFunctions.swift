import Formwell

/// Sets the normalisers of the field named field_id: count fw_normalizer values (each at most once;
/// count 0 removes them all, and normalizers may then be NULL), run in array order. The value set
/// last is normalised again and the field, and the fields whose `matches` rule names it, re-judged;
/// what was set (fw_field_value) stays as it is.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_INVALID_ARGUMENT for a value that is not an fw_normalizer or one given twice; FW_ERR_CALLBACK when a custom validator fails (nothing changes); or a general error (see Conventions).
@c public func fw_field_set_normalizers(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ normalizers: UnsafePointer<Int32>?, _ count: UInt
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        guard count <= 64 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "count \(count) is more normalisers than exist (each at most once)")
        }
        if count > 0 && normalizers == nil {
            throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "normalizers is NULL but count is \(count)")
        }
        var list: [Normalizer] = []
        if let normalizers {
            for index in 0..<Int(count) {
                guard let normalizer = fw_normalizer(rawValue: normalizers[index])?.normalizer else {
                    throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                                     "normalizers[\(index)] is \(normalizers[index]), not an fw_normalizer (FW_NORMALIZE_TRIM 0 ... FW_NORMALIZE_DIGITS_ONLY 4)")
                }
                list.append(normalizer)
            }
        }
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.setNormalizers(list, for: id) }
        }
    }
}

/// Stores the normalisers of the field named field_id, in order, into out_normalizers (capacity
/// elements; may be NULL when capacity is 0) and their number into *out_count.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_BUFFER_TOO_SMALL when the field has more than capacity (*out_count set, nothing stored); or a general error (see Conventions).
@c public func fw_field_normalizers(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ out_normalizers: UnsafeMutablePointer<Int32>?,
    _ capacity: UInt, _ out_count: UnsafeMutablePointer<UInt>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        guard let out_count else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_count' is NULL") }
        if out_normalizers == nil && capacity != 0 {
            throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "out_normalizers is NULL but capacity is \(capacity)")
        }
        let list = try withForm(form) { (form: inout Form) throws(ABIFailure) -> [Normalizer] in
            try engine { () throws(FormError) in try form.normalizers(of: id) }
        }
        out_count.pointee = UInt(list.count)
        guard UInt(list.count) <= capacity else {
            throw ABIFailure(.FW_ERR_BUFFER_TOO_SMALL, "the field has \(list.count) normalisers; capacity is \(capacity)")
        }
        guard let out_normalizers else { return }
        for (slot, normalizer) in list.enumerated() { out_normalizers[slot] = fw_normalizer(normalizer).rawValue }
    }
}

/// Copies the value of the field named field_id after its normalisers (what its rules judged and a
/// submission uses) into buf; the same text as fw_field_value when the field has no normalisers.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_BUFFER_TOO_SMALL; or a general error (see Conventions).
@c public func fw_field_normalized_value(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ buf: UnsafeMutablePointer<CChar>?,
    _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    copyOut(buf, buf_size, out_length) { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        return try withForm(form) { (form: inout Form) throws(ABIFailure) -> String in
            try engine { () throws(FormError) in try form.normalizedValue(of: id) }
        }
    }
}

/// Marks the field named field_id secret (a password, a token) or not. A secret field's value is
/// never echoed outside its value (fw_field_value, fw_field_normalized_value, a snapshot's `value`
/// and `normalized`): fw_form_export_spec leaves out its initial value, and the bindings print it
/// masked. A snapshot's `secret` tells a view to draw the value hidden.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; or a general error (see Conventions).
@c public func fw_field_set_secret(_ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ secret: Bool) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.setSecret(secret, for: id) }
        }
    }
}
