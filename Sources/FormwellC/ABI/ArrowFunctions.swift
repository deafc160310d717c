import CFormwellTypes
import Formwell

// Arrow: a record batch or struct array given through the Apache Arrow C Data Interface (struct
// ArrowSchema + struct ArrowArray, declared above; no Arrow library is needed on either side) is
// checked as a batch, exactly as fw_form_check_batch checks fw_column columns.
//
// Columns. The schema's format must be "+s" (a struct: a record batch exported as an array is
// one). Each child is a column, matched to a field by its name (compared with field ids as every
// call naming a field compares them); children whose name is NULL or names no field are ignored,
// whatever their type. A field no child names holds its initial value in every record ("" unless
// the field was given one), as in fw_form_check_batch. A child naming a field must be utf8 ("u"),
// large_utf8 ("U"), string_view ("vu") or a dictionary-encoded string column (an integer index
// format c, s, i, l, C, S, I or L, and a "u" or "U" dictionary); another type is
// FW_ERR_INVALID_ARGUMENT naming the column and its format. A null (the child's validity bitmap,
// or the struct's own for the whole record) reads as "". Records are numbered from the array's
// offset (a slice's first record is record 0); every bitmap, offset and index is read at the struct's
// offset plus the child's.
//
// Copies. utf8 and large_utf8 columns are read in place: no value is copied. string_view and
// dictionary-encoded columns are copied into a temporary column for the call, and so is the
// validity of every column when the struct array itself has nulls, and an offsets buffer that is
// not aligned to its offsets' width (the values themselves are still read in place).
//
// Ownership. The library borrows schema and array for the call only: it never calls their release
// callbacks, or those of their children or dictionaries (the caller releases them, once, when done),
// and keeps no pointer into them. A struct whose release callback is NULL has been released or
// moved: it is refused with FW_ERR_INVALID_ARGUMENT.
//
// Checks. Before any value is read: the counts (length, offset, null_count of -1 or more, n_children
// alike in schema and array, n_buffers as the format has them), no NULL child, every child at
// least as long as the struct's offset + length, the buffers a read needs present (a validity
// bitmap wherever null_count is above 0), every offset of the records read not
// negative and never decreasing, every value well-formed UTF-8, every string view within its data
// buffer (whose sizes the interface gives), every dictionary index within the dictionary (and
// the dictionary's offsets; a dictionary value's UTF-8 when a record uses it). The interface gives
// no other buffer sizes: a buffer is taken to hold what the array's offset and length promise, and
// a utf8 data buffer as many bytes as the last offset read, so offsets that lie consistently past
// the end of the data, or an offset past the end of a child's buffers, cannot be detected. Faults
// are FW_ERR_INVALID_ARGUMENT (FW_ERR_NULL_ARGUMENT only for a NULL schema or array), with a detail
// naming the column, and the record where one is at fault; a name that is not UTF-8 is
// FW_ERR_INVALID_UTF8.

/// Checks every record of the struct array (schema, array) as fw_form_check_batch checks columns:
/// array->length records, outputs exactly as there (each optional): out_valid, one byte per record;
/// out_failing_rules, record-major, record r and field f at r * field_count + f, the failing rule's
/// index or -1; out_cell_flags, fw_cell_flag bits of the same shape; out_invalid_count. threads as in
/// fw_form_check_batch. schema and array are borrowed for the call and never released.
/// Returns: FW_OK and the outputs written; FW_ERR_INVALID_ARGUMENT for a malformed or released schema or array, or a column naming a field whose type is not a string (the detail names the column, and the record where one is at fault); FW_ERR_INVALID_UTF8 for a child name that is not UTF-8; FW_ERR_CALLBACK when a custom validator fails; or a general error (see Conventions).
@c public func fw_form_check_arrow(
    _ form: OpaquePointer?, _ schema: UnsafePointer<ArrowSchema>?, _ array: UnsafePointer<ArrowArray>?,
    _ threads: Int32, _ out_valid: UnsafeMutablePointer<UInt8>?, _ out_failing_rules: UnsafeMutablePointer<Int32>?,
    _ out_cell_flags: UnsafeMutablePointer<UInt8>?, _ out_invalid_count: UnsafeMutablePointer<UInt>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard threads >= 0 else { throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "threads is \(threads); use 0 for every processor") }
        if let out_failing_rules, Int(bitPattern: out_failing_rules) % 4 != 0 {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "out_failing_rules is not aligned to 4 bytes")
        }
        try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            let batch = try ArrowInput.batch(schema, array, form: form)
            let result = try withExtendedLifetime(batch) { () throws(ABIFailure) in
                try engine { () throws(FormError) in
                    try form.pointee.checkBatch(batch.columns, recordCount: batch.recordCount, threads: Int(threads),
                                                valid: out_valid, failingRules: out_failing_rules)
                }
            }
            writeBatchOutputs(result, cellFlags: out_cell_flags, invalidCount: out_invalid_count)
        }
    }
}

/// The message the field at field_index shows for the record at index `record` of the struct array
/// (schema, array), as fw_form_batch_message gives it for columns: "" when it passes. The whole
/// schema and array are checked as by fw_form_check_arrow, the values of that record only. The text
/// goes into buf as with fw_field_message; *out_length (if not NULL) gets its length.
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL; FW_ERR_INVALID_ARGUMENT for a record or field out of range or a malformed schema or array; FW_ERR_INVALID_UTF8 for a child name that is not UTF-8; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_form_arrow_message(
    _ form: OpaquePointer?, _ schema: UnsafePointer<ArrowSchema>?, _ array: UnsafePointer<ArrowArray>?,
    _ record: UInt, _ field_index: UInt, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt,
    _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    let status = abiCall { () throws(ABIFailure) in
        let message = try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            let batch = try ArrowInput.batch(schema, array, form: form)
            return try withExtendedLifetime(batch) { () throws(ABIFailure) in
                try engine { () throws(FormError) in
                    try form.pointee.batchMessage(batch.columns, recordCount: batch.recordCount,
                                                  record: Int(clamping: record), field: Int(clamping: field_index))
                }
            }
        }
        try CStringOutput.write(message ?? "", to: buf, capacity: buf_size, length: out_length)
    }
    return clearedOnFailure(status, buf, buf_size)
}
