import CFormwellTypes
import Formwell

/// The caller's fw_column array → the engine's columns, one per field in registration order (nil
/// for a field no column names). Checks what the struct itself can get wrong (size, offset width,
/// NULL or misaligned pointers, unknown or repeated fields); the engine then checks the offsets
/// and bytes (BatchColumn.validate).
enum BatchInput {
    /// The first fw_column's size: the struct's size in this header version.
    static let firstVersionSize = MemoryLayout<fw_column>.size

    static func columns(
        _ columns: UnsafePointer<fw_column>?, count: UInt, recordCount: Int, form: UnsafeMutablePointer<Form>
    ) throws(ABIFailure) -> [BatchColumn?] {
        let fieldCount = form.pointee.fieldCount
        var result: [BatchColumn?] = Array(repeating: nil, count: fieldCount)
        guard count > 0 else { return result }
        guard let columns else {
            throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'columns' is NULL but column_count is \(count)")
        }
        guard count <= UInt(fieldCount) else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "\(count) columns for a form of \(fieldCount) fields")
        }
        let stride = columns.pointee.size
        guard stride >= firstVersionSize, stride % 8 == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                             "columns[0].size is \(stride); set it to sizeof(fw_column) (\(firstVersionSize))")
        }
        let base = UnsafeRawPointer(columns)
        for position in 0..<Int(count) {
            let column = (base + position * Int(stride)).assumingMemoryBound(to: fw_column.self).pointee
            guard column.size == stride else {
                throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                                 "columns[\(position)].size differs from columns[0].size (\(stride))")
            }
            let field = try fieldIndex(of: column, at: position, form: form, fieldCount: fieldCount)
            guard result[field] == nil else {
                throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                                 "columns[\(position)]: field '\(form.pointee.fieldIDs[field])' already has a column")
            }
            result[field] = try engineColumn(column, at: position, recordCount: recordCount)
        }
        return result
    }

    private static func fieldIndex(
        of column: fw_column, at position: Int, form: UnsafeMutablePointer<Form>, fieldCount: Int
    ) throws(ABIFailure) -> Int {
        guard let pointer = column.field_id else {
            guard position < fieldCount else {
                throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "columns[\(position)] has no field_id and the form has \(fieldCount) fields")
            }
            return position
        }
        let id = try CStringInput.required(pointer, "columns[\(position)].field_id")
        do {
            return try form.pointee.fieldIndex(of: id)
        } catch {
            throw ABIFailure(.FW_ERR_UNKNOWN_FIELD, "columns[\(position)]: no field with id '\(id)'")
        }
    }

    private static func engineColumn(_ column: fw_column, at position: Int, recordCount: Int) throws(ABIFailure) -> BatchColumn {
        let name = "columns[\(position)]"
        guard column.data_size <= UInt(Int.max) else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "\(name).data_size \(column.data_size) is too large")
        }
        let data: UnsafeBufferPointer<UInt8>
        if let bytes = column.data {
            data = UnsafeBufferPointer(start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self),
                                       count: Int(column.data_size))
        } else {
            guard column.data_size == 0 else {
                throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "\(name).data is NULL but data_size is \(column.data_size)")
            }
            data = UnsafeBufferPointer(start: nil, count: 0)
        }
        let offsets: BatchColumn.Offsets?
        switch (column.offset_size, column.offsets) {
        case (_, nil) where recordCount == 0:
            offsets = nil
        case (_, nil):
            throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "\(name).offsets is NULL")
        case (4, let pointer?):
            guard Int(bitPattern: pointer) % 4 == 0 else {
                throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "\(name).offsets is not aligned to 4 bytes")
            }
            offsets = .int32(pointer.assumingMemoryBound(to: Int32.self))
        case (8, let pointer?):
            guard Int(bitPattern: pointer) % 8 == 0 else {
                throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "\(name).offsets is not aligned to 8 bytes")
            }
            offsets = .int64(pointer.assumingMemoryBound(to: Int64.self))
        default:
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "\(name).offset_size is \(column.offset_size); it must be 4 or 8")
        }
        return BatchColumn(data: data, offsets: offsets, validity: column.validity)
    }
}
