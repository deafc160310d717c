import CFormwellTypes
import Formwell

// A snapshot is one field's whole state, read in one call under the form's lock (see fw_snapshot):
// set snapshot.size = sizeof(fw_snapshot), pass a text buffer (or NULL and 0 for no texts).
// Failures other than FW_ERR_BUFFER_TOO_SMALL leave the snapshot's members unspecified.

/// Fills *snapshot with the state of the field named field_id and copies its texts (message, display
/// message, value; with the second version's size also label, initial value, hint and error list)
/// into buf (buf_size bytes). FW_ERR_BUFFER_TOO_SMALL: every member is filled,
/// snapshot->text_size tells the buffer size needed, and the texts that did not fit are NULL.
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL (members filled, texts that did not fit NULL); FW_ERR_UNKNOWN_FIELD; FW_ERR_INVALID_ARGUMENT for a bad snapshot size; or a general error (see Conventions).
@c public func fw_field_snapshot(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ snapshot: UnsafeMutablePointer<fw_snapshot>?,
    _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.utf8(field_id, "field_id")
        try snapshotOne(form, snapshot, buf, buf_size, id: id, index: 0)
    }
}

/// fw_field_snapshot for the field at index (registration order; see fw_form_field_index).
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL; FW_ERR_INVALID_ARGUMENT for an index out of range or a bad snapshot size; or a general error (see Conventions).
@c public func fw_field_snapshot_at(
    _ form: OpaquePointer?, _ index: UInt, _ snapshot: UnsafeMutablePointer<fw_snapshot>?,
    _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        try snapshotOne(form, snapshot, buf, buf_size, id: nil, index: Int(clamping: index))
    }
}

/// Sets the value of the field named field_id (as fw_field_set_value) and fills *snapshot with its
/// new state (as fw_field_snapshot), in one call under one lock: a keystroke and the redraw it
/// needs. When setting the value fails nothing changes and the snapshot is not filled.
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL (the value was set); FW_ERR_UNKNOWN_FIELD, FW_ERR_INVALID_UTF8, FW_ERR_CALLBACK (nothing changes); or a general error (see Conventions).
@c public func fw_field_update(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?,
    _ snapshot: UnsafeMutablePointer<fw_snapshot>?, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.utf8(field_id, "field_id")
        try update(form, id: id, index: 0, value, snapshot, buf, buf_size)
    }
}

/// fw_field_update for the field at index.
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL (the value was set); FW_ERR_INVALID_ARGUMENT, FW_ERR_INVALID_UTF8, FW_ERR_CALLBACK (nothing changes); or a general error (see Conventions).
@c public func fw_field_update_at(
    _ form: OpaquePointer?, _ index: UInt, _ value: UnsafePointer<CChar>?,
    _ snapshot: UnsafeMutablePointer<fw_snapshot>?, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        try update(form, id: nil, index: Int(clamping: index), value, snapshot, buf, buf_size)
    }
}

/// Fills snapshots[0 ...] with every field's state, in registration order, in one consistent read
/// (a view redrawing the whole form). Set the size member of every element to sizeof(fw_snapshot);
/// the array's stride is that size. *out_count receives the number of fields; when it exceeds
/// capacity nothing is filled and the call returns FW_ERR_BUFFER_TOO_SMALL. The texts of all fields
/// go into buf, field after field; *out_text_size (if not NULL) receives the buffer size that holds
/// them all, and texts that do not fit are NULL as in fw_field_snapshot.
/// Returns: FW_OK and *out_count set; FW_ERR_BUFFER_TOO_SMALL (too few snapshots: nothing filled; too small a buffer: texts that did not fit NULL); FW_ERR_INVALID_ARGUMENT for bad snapshot sizes; or a general error (see Conventions).
@c public func fw_form_snapshots(
    _ form: OpaquePointer?, _ snapshots: UnsafeMutablePointer<fw_snapshot>?, _ capacity: UInt,
    _ out_count: UnsafeMutablePointer<UInt>?, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt,
    _ out_text_size: UnsafeMutablePointer<UInt>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let out_count else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_count' is NULL") }
        var texts = try SnapshotWriter.TextBuffer(buf, buf_size)
        try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            let count = form.pointee.fieldCount
            out_count.pointee = UInt(count)
            guard UInt(count) <= capacity else {
                throw ABIFailure(.FW_ERR_BUFFER_TOO_SMALL, "the form has \(count) fields; capacity is \(capacity)")
            }
            guard count > 0 else { return }
            let stride = try SnapshotWriter.declaredSize(snapshots)
            guard let base = snapshots.map(UnsafeMutableRawPointer.init) else { return }
            for index in 0..<count where (base + index * stride).assumingMemoryBound(to: fw_snapshot.self).pointee.size != stride {
                throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                                 "snapshots[\(index)].size differs from snapshots[0].size (\(stride))")
            }
            for index in 0..<count {
                let out = (base + index * stride).assumingMemoryBound(to: fw_snapshot.self)
                try engine { () throws(FormError) in
                    try SnapshotWriter.write(form, index: index, to: out, size: stride, texts: &texts)
                }
            }
        }
        out_text_size?.pointee = UInt(texts.needed)
        if texts.overflowed {
            throw ABIFailure(.FW_ERR_BUFFER_TOO_SMALL, "buf holds \(buf_size) bytes; \(texts.needed) needed for every text")
        }
    }
}

private func snapshotOne(
    _ form: OpaquePointer?, _ snapshot: UnsafeMutablePointer<fw_snapshot>?, _ buf: UnsafeMutablePointer<CChar>?,
    _ buf_size: UInt, id: ValidUTF8?, index: Int
) throws(ABIFailure) {
    let size = try SnapshotWriter.declaredSize(snapshot)
    guard let snapshot else { return }
    var texts = try SnapshotWriter.TextBuffer(buf, buf_size)
    try withField(form, id: id, index: index) { (form: UnsafeMutablePointer<Form>, position: Int) throws(ABIFailure) in
        try engine { () throws(FormError) in
            try SnapshotWriter.write(form, index: position, to: snapshot, size: size, texts: &texts)
        }
    }
    if texts.overflowed {
        throw ABIFailure(.FW_ERR_BUFFER_TOO_SMALL,
                         "buf holds \(buf_size) bytes; \(snapshot.pointee.text_size) needed for the field's texts")
    }
}

private func update(
    _ form: OpaquePointer?, id: ValidUTF8?, index: Int, _ value: UnsafePointer<CChar>?,
    _ snapshot: UnsafeMutablePointer<fw_snapshot>?, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt
) throws(ABIFailure) {
    let text = try CStringInput.utf8(value, "value")
    let size = try SnapshotWriter.declaredSize(snapshot)
    guard let snapshot else { return }
    var texts = try SnapshotWriter.TextBuffer(buf, buf_size)
    try withField(form, id: id, index: index) { (form: UnsafeMutablePointer<Form>, position: Int) throws(ABIFailure) in
        try engine { () throws(FormError) in
            try form.pointee.setValue(text, at: position)
            try SnapshotWriter.write(form, index: position, to: snapshot, size: size, texts: &texts)
        }
    }
    if texts.overflowed {
        throw ABIFailure(.FW_ERR_BUFFER_TOO_SMALL,
                         "buf holds \(buf_size) bytes; \(snapshot.pointee.text_size) needed for the field's texts")
    }
}

/// The form and the field, named by id (through the slot's id cache) or else by index.
private func withField(
    _ form: OpaquePointer?, id: ValidUTF8?, index: Int,
    _ body: (UnsafeMutablePointer<Form>, Int) throws(ABIFailure) -> Void
) throws(ABIFailure) {
    if let id {
        try withNamedField(form, id, body)
    } else {
        try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in try body(form, index) }
    }
}
