import CFormwellTypes
import Formwell

// Batch checking: many records judged as submits in one call, without touching the form's own
// values, phases or touched flags. Records come as columns (fw_column, the Arrow layout), one per
// field; a field no column names holds its initial value in every record. The form's lock is held
// for the whole call (other calls on the same form wait; custom validators calling back get
// FW_ERR_BUSY as usual).

/// Checks record_count records. columns: column_count fw_column structs (at most one per field).
/// threads: 0 uses every processor, 1 only the calling thread, n at most n threads (a form with
/// custom rules always runs on the calling thread; small batches use fewer threads).
/// Outputs, each optional (NULL): out_valid, record_count bytes (1 valid, 0 invalid);
/// out_failing_rules, record_count * field count int32_t, record-major (record r, field f at
/// r * field_count + f): the index of the failing rule (order of addition, from 0), -1 when the
/// field passes; out_cell_flags, the same shape, fw_cell_flag bits; out_invalid_count.
/// A malformed column fails with FW_ERR_INVALID_ARGUMENT (or FW_ERR_NULL_ARGUMENT) naming the
/// column and the first record at fault, before anything is judged; the outputs are then unspecified.
/// Returns: FW_OK and the outputs written; FW_ERR_INVALID_ARGUMENT or FW_ERR_NULL_ARGUMENT for a malformed column (the detail names column and record); FW_ERR_UNKNOWN_FIELD for a column naming no field; FW_ERR_CALLBACK when a custom validator fails; or a general error (see Conventions).
@c public func fw_form_check_batch(
    _ form: OpaquePointer?, _ columns: UnsafePointer<fw_column>?, _ column_count: UInt, _ record_count: UInt,
    _ threads: Int32, _ out_valid: UnsafeMutablePointer<UInt8>?, _ out_failing_rules: UnsafeMutablePointer<Int32>?,
    _ out_cell_flags: UnsafeMutablePointer<UInt8>?, _ out_invalid_count: UnsafeMutablePointer<UInt>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard threads >= 0 else { throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "threads is \(threads); use 0 for every processor") }
        let records = try recordCount(record_count)
        if let out_failing_rules, Int(bitPattern: out_failing_rules) % 4 != 0 {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "out_failing_rules is not aligned to 4 bytes")
        }
        try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            let engineColumns = try BatchInput.columns(columns, count: column_count, recordCount: records, form: form)
            let result = try engine { () throws(FormError) in
                try form.pointee.checkBatch(engineColumns, recordCount: records, threads: Int(threads),
                                            valid: out_valid, failingRules: out_failing_rules)
            }
            writeBatchOutputs(result, cellFlags: out_cell_flags, invalidCount: out_invalid_count)
        }
    }
}

/// The message the field at field_index shows for the record at index `record` of a batch (the same columns as
/// given to fw_form_check_batch): "" when it passes. Judges that record alone, checking only its
/// offsets and values; this is how to read a custom validator's own words (FW_CELL_OWN_MESSAGE).
/// The text goes into buf as with fw_field_message; *out_length (if not NULL) gets its length.
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL; FW_ERR_INVALID_ARGUMENT for a record or field out of range or a malformed column; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_form_batch_message(
    _ form: OpaquePointer?, _ columns: UnsafePointer<fw_column>?, _ column_count: UInt, _ record_count: UInt,
    _ record: UInt, _ field_index: UInt, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt,
    _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    let status = abiCall { () throws(ABIFailure) in
        let records = try recordCount(record_count)
        let message = try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            let engineColumns = try BatchInput.columns(columns, count: column_count, recordCount: records, form: form)
            return try engine { () throws(FormError) in
                try form.pointee.batchMessage(engineColumns, recordCount: records, record: Int(clamping: record),
                                              field: Int(clamping: field_index))
            }
        }
        try CStringOutput.write(message ?? "", to: buf, capacity: buf_size, length: out_length)
    }
    return clearedOnFailure(status, buf, buf_size)
}

/// The message rule rule_index of the field at field_index shows when it fails: the message given
/// when the rule was added, else its default. (A custom rule without a message may word its own:
/// see FW_CELL_OWN_MESSAGE.) Written into buf as with fw_field_message.
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL; FW_ERR_INVALID_ARGUMENT for a field or rule index out of range; or a general error (see Conventions).
@c public func fw_form_rule_message(
    _ form: OpaquePointer?, _ field_index: UInt, _ rule_index: UInt, _ buf: UnsafeMutablePointer<CChar>?,
    _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    let status = abiCall { () throws(ABIFailure) in
        let message = try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            try engine { () throws(FormError) in
                try form.pointee.ruleMessage(field: Int(clamping: field_index), rule: Int(clamping: rule_index))
            }
        }
        try CStringOutput.write(message, to: buf, capacity: buf_size, length: out_length)
    }
    return clearedOnFailure(status, buf, buf_size)
}

/// The outputs a batch result gives beyond the arrays the engine wrote itself: the cell flags and
/// the invalid count (fw_form_check_batch, fw_form_check_arrow).
func writeBatchOutputs(
    _ result: BatchResult, cellFlags out_cell_flags: UnsafeMutablePointer<UInt8>?,
    invalidCount out_invalid_count: UnsafeMutablePointer<UInt>?
) {
    let cells = result.failingRules.count
    if let out_cell_flags {
        out_cell_flags.initialize(repeating: 0, count: cells)
        for cell in result.limitExceededCells where cell >= 0 && cell < cells {
            out_cell_flags[cell] |= UInt8(fw_cell_flag.FW_CELL_LIMIT_EXCEEDED.rawValue)
        }
        let limited = result.limitExceededCells
        for cell in result.ownMessages.keys where cell >= 0 && cell < cells && !limited.contains(cell) {
            out_cell_flags[cell] |= UInt8(fw_cell_flag.FW_CELL_OWN_MESSAGE.rawValue)
        }
    }
    out_invalid_count?.pointee = UInt(result.invalidCount)
}

private func recordCount(_ count: UInt) throws(ABIFailure) -> Int {
    guard count < UInt(Int32.max) else {
        throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "record_count \(count) is too large (at most \(Int32.max - 1))")
    }
    return Int(count)
}
