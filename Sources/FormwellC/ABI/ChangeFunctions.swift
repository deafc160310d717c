import CFormwellTypes
import Formwell

// Live changes (removing a field, a reset to new initial values) and change tracking. The form
// keeps a revision that goes up with every event that changes anything observable (a field's state,
// or the form's submit count, submit-failed flag or modes); each field records the revision at
// which its state last changed (the snapshot's `revision`). A view redraws only what changed: read
// fw_form_info.revision, let events happen, then ask fw_form_changed_since for that revision.

/// Removes the field named field_id. Refused while another field's matches rule names it (remove
/// that field first). Every later field's index moves down by one (look indices up again); if the
/// field had focus, no field has.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_INVALID_ARGUMENT when a matches rule names the field (nothing changes); or a general error (see Conventions).
@c public func fw_form_remove_field(_ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        try withFormChangingIndices(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.pointee.removeField(id) }
        }
    }
}

/// Makes values[i] the initial value of the field named field_ids[i] (for i below count), then
/// resets the form as fw_form_reset does: every value back to its (new) initial value; every field
/// idle, untouched, not visited, unfocused, without external error; the submit count 0. With count
/// 0 (field_ids and values may then be NULL) it is fw_form_reset. All or nothing: an unknown id, a
/// NULL element or an id named twice changes nothing.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_INVALID_ARGUMENT for an id named twice; FW_ERR_CALLBACK when a custom validator fails (nothing changes); or a general error (see Conventions).
@c public func fw_form_reset_values(
    _ form: OpaquePointer?, _ field_ids: UnsafePointer<UnsafePointer<CChar>?>?,
    _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ count: UInt
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        var initials: [String: String] = [:]
        if count > 0 {
            guard let field_ids else {
                throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'field_ids' is NULL but count is \(count)")
            }
            guard let values else {
                throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'values' is NULL but count is \(count)")
            }
            for index in 0..<Int(clamping: count) {
                let id = try CStringInput.required(field_ids[index], "field_ids[\(index)]")
                let value = try CStringInput.required(values[index], "values[\(index)]")
                guard initials.updateValue(value, forKey: id) == nil else {
                    throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "field_ids[\(index)] names field '\(id)' a second time")
                }
            }
        }
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.reset(values: initials) }
        }
    }
}

/// Fills *out_info with the form's own state (see fw_form_info): set out_info->size to
/// sizeof(fw_form_info) first. A size that covers only the first version gets the first version's
/// members, and nothing past them is written.
/// Returns: FW_OK and *out_info filled; FW_ERR_INVALID_ARGUMENT for a bad size; or a general error (see Conventions).
@c public func fw_form_get_info(_ form: OpaquePointer?, _ out_info: UnsafeMutablePointer<fw_form_info>?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_info else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_info' is NULL") }
        let alignment = MemoryLayout<fw_form_info>.alignment
        guard Int(bitPattern: out_info) % alignment == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "out_info is not aligned for an fw_form_info")
        }
        let size = out_info.pointee.size
        // The first version (up to error_mode) is the smallest size a caller may declare.
        let minimum = MemoryLayout<fw_form_info>.offset(of: \.pending_count) ?? MemoryLayout<fw_form_info>.size
        let second = (MemoryLayout<fw_form_info>.offset(of: \.now_ms) ?? MemoryLayout<fw_form_info>.size)
            + MemoryLayout<UInt64>.size
        guard size >= minimum, size <= Int(Int32.max), size % alignment == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                             "out_info size \(size) is not sizeof(fw_form_info) (\(minimum) or more, a multiple of \(alignment))")
        }
        try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            let dirtyCount = form.pointee.dirtyFieldIDs.count
            out_info.pointee.field_count = form.pointee.fieldCount
            out_info.pointee.dirty_count = dirtyCount
            out_info.pointee.revision = form.pointee.revision
            out_info.pointee.submit_count = Int32(clamping: form.pointee.submitCount)
            out_info.pointee.submit_failed = form.pointee.submitFailed
            out_info.pointee.dirty = dirtyCount > 0
            out_info.pointee.mode = fw_mode(form.pointee.validationMode).rawValue
            out_info.pointee.error_mode = fw_error_mode(form.pointee.errorReporting).rawValue
            if size >= second {
                out_info.pointee.pending_count = form.pointee.pendingFieldIDs.count
                out_info.pointee.stale_results = form.pointee.staleResults
                out_info.pointee.now_ms = form.pointee.now
            }
        }
    }
}

/// Stores in out_indices[0 ...] the indices (registration order) of the fields whose observable
/// state changed after revision (a value read from fw_form_info.revision or a snapshot's revision);
/// adding a field counts as a change of it. *out_count receives how many there are; when that
/// exceeds capacity nothing is stored and the call returns FW_ERR_BUFFER_TOO_SMALL. out_indices may
/// be NULL when capacity is 0 (a count query).
/// Returns: FW_OK and *out_count set; FW_ERR_BUFFER_TOO_SMALL (*out_count set, nothing stored); or a general error (see Conventions).
@c public func fw_form_changed_since(
    _ form: OpaquePointer?, _ revision: UInt64, _ out_indices: UnsafeMutablePointer<UInt>?, _ capacity: UInt,
    _ out_count: UnsafeMutablePointer<UInt>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let count = try IndexOutput.checkArguments(out_indices, capacity, out_count)
        let changed = try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            form.pointee.changedFieldIndices(since: revision)
        }
        try IndexOutput.store(changed, to: out_indices, capacity: capacity, count: count, what: "fields changed")
    }
}

/// Copies what a screen reader should announce after a failed submit into buf: when the last
/// whole-form validate answered false, the fields that fail their strict rules now, by label (the id
/// when a field has none): "1 field needs attention: Email", "2 fields need attention: Email,
/// Password"; "" otherwise. Buffer style as fw_field_value.
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL; or a general error (see Conventions).
@c public func fw_form_announcement(
    _ form: OpaquePointer?, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt,
    _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    copyOut(buf, buf_size, out_length) { () throws(ABIFailure) in
        try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in form.pointee.announcement }
    }
}
