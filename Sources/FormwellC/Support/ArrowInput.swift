import CFormwellTypes
import Formwell

/// A struct array read through the Arrow C Data Interface, as the engine's batch columns: one per
/// field in registration order (nil for a field no child names). utf8 / large_utf8 children are
/// borrowed in place (the offsets, data and validity buffers as they are); string_view and
/// dictionary-encoded children, and the validity of a child whose parent has nulls, are written into
/// buffers owned here, freed when this goes away. Keep it alive while the columns are used.
final class ArrowBatch {
    var columns: [BatchColumn?]
    let recordCount: Int
    private var owned: [UnsafeMutableRawPointer] = []

    init(fieldCount: Int, recordCount: Int) {
        columns = Array(repeating: nil, count: fieldCount)
        self.recordCount = recordCount
    }

    /// Uninitialized memory of `bytes` bytes (at least 1), aligned to 8, freed with the batch.
    func allocate(_ bytes: Int) -> UnsafeMutableRawPointer {
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: max(bytes, 1), alignment: 8)
        owned.append(pointer)
        return pointer
    }

    deinit {
        for pointer in owned { pointer.deallocate() }
    }
}

/// Reads an ArrowSchema / ArrowArray pair (borrowed: their release callbacks are never called).
/// Everything the interface lets a consumer check is checked before a value is read; every failure
/// names the column (and the record where one is at fault).
enum ArrowInput {
    /// The largest offset accepted (an array or a slice starting further in is refused): keeps every
    /// byte-offset computation far from overflowing.
    static let maxOffset: Int64 = 1 << 40

    static func batch(
        _ schema: UnsafePointer<ArrowSchema>?, _ array: UnsafePointer<ArrowArray>?, form: UnsafeMutablePointer<Form>
    ) throws(ABIFailure) -> ArrowBatch {
        guard let schema else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'schema' is NULL") }
        guard let array else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'array' is NULL") }
        let s = schema.pointee, a = array.pointee
        guard s.release != nil else {
            throw invalid("schema has been released or moved (its release callback is NULL)")
        }
        guard a.release != nil else {
            throw invalid("array has been released or moved (its release callback is NULL)")
        }
        guard let formatPointer = s.format else { throw invalid("schema: format is NULL") }
        let format = text(formatPointer)
        guard format == "+s" else {
            throw invalid("schema: format \"\(format)\"\(describe(format)) is not a struct (\"+s\"): pass a record batch or a struct array")
        }
        try checkCounts(a, "array")
        guard a.length < Int64(Int32.max) else {
            throw invalid("array: length \(a.length) is too large (at most \(Int32.max - 1) records)")
        }
        guard s.n_children >= 0 else { throw invalid("schema: n_children is \(s.n_children)") }
        guard a.n_children == s.n_children else {
            throw invalid("array: n_children is \(a.n_children) but the schema's is \(s.n_children)")
        }
        guard a.n_buffers == 1 else {
            throw invalid("array: n_buffers is \(a.n_buffers); a struct array has 1 (its validity bitmap)")
        }
        guard let parentBuffers = a.buffers else { throw invalid("array: buffers is NULL (n_buffers is 1)") }
        let parentValidity = parentBuffers[0].map { $0.assumingMemoryBound(to: UInt8.self) }
        if a.null_count > 0 && parentValidity == nil {
            throw invalid("array: null_count is \(a.null_count) but the validity bitmap is NULL")
        }
        let childCount = Int(s.n_children)
        if childCount > 0 {
            guard s.children != nil else { throw invalid("schema: children is NULL (n_children is \(childCount))") }
            guard a.children != nil else { throw invalid("array: children is NULL (n_children is \(childCount))") }
        }
        let fieldCount = form.pointee.fieldCount
        let batch = ArrowBatch(fieldCount: fieldCount, recordCount: Int(a.length))
        // Which child names which field (children naming no field are ignored, whatever their type).
        var childOf: [Int?] = Array(repeating: nil, count: fieldCount)
        for index in 0..<childCount {
            guard let childSchema = s.children[index] else { throw invalid("schema: children[\(index)] is NULL") }
            guard a.children[index] != nil else { throw invalid("array: children[\(index)] is NULL") }
            guard let namePointer = childSchema.pointee.name else { continue }
            let name = try CStringInput.required(namePointer, "schema.children[\(index)]->name")
            guard let field = try? form.pointee.fieldIndex(of: name) else { continue }
            if let first = childOf[field] {
                throw invalid("column '\(name)': named twice (children \(first) and \(index))")
            }
            childOf[field] = index
        }
        let parent = Parent(offset: Int(a.offset), length: Int(a.length),
                            validity: a.null_count != 0 ? parentValidity : nil)
        for field in 0..<fieldCount {
            guard let index = childOf[field] else { continue }
            guard let childSchema = s.children?[index], let childArray = a.children?[index] else {
                throw invalid("column '\(form.pointee.fieldIDs[field])': child \(index) is NULL")
            }
            let column = Child(schema: childSchema, array: childArray, name: form.pointee.fieldIDs[field], parent: parent)
            batch.columns[field] = try column.read(into: batch)
        }
        return batch
    }

    /// The parent struct array: where the records start in each child, and its own nulls (a null
    /// record reads "" in every column it has).
    struct Parent {
        let offset: Int
        let length: Int
        let validity: UnsafePointer<UInt8>?

        func isNull(_ record: Int) -> Bool {
            guard let validity else { return false }
            return bitIsClear(validity, offset + record)
        }
    }

    /// One child column naming a field.
    struct Child {
        let schema: UnsafeMutablePointer<ArrowSchema>
        let array: UnsafeMutablePointer<ArrowArray>
        let name: String
        let parent: Parent

        var label: String { "column '\(name)'" }

        func read(into batch: ArrowBatch) throws(ABIFailure) -> BatchColumn {
            let s = schema.pointee, a = array.pointee
            guard s.release != nil else { throw invalid("\(label): its schema has been released (release callback is NULL)") }
            guard a.release != nil else { throw invalid("\(label): its array has been released (release callback is NULL)") }
            guard let formatPointer = s.format else { throw invalid("\(label): format is NULL") }
            let format = text(formatPointer)
            if let dictionary = s.dictionary {
                guard indexWidth(format) != nil else {
                    throw invalid("\(label): format \"\(format)\"\(describe(format)) with a dictionary: the indices are not an integer type")
                }
                return try readDictionary(format: format, dictionarySchema: dictionary, into: batch)
            }
            switch format {
            case "u", "U": break
            case "vu": return try readView(into: batch)
            default: throw invalid("\(label): format \"\(format)\"\(describe(format)) is not a string type")
            }
            let (validity, bitOffset) = try checkedLayout(a, buffers: 3, "\(label)", formatName: format == "u" ? "utf8" : "large_utf8")
            let start = Int(a.offset) + parent.offset
            let records = parent.length
            guard let buffers = a.buffers else { throw invalid("\(label): buffers is NULL") }  // checkedLayout refused it already
            let wide = format == "U"
            let width = wide ? 8 : 4
            guard records > 0 else {
                return BatchColumn(data: UnsafeBufferPointer(start: nil, count: 0), offsets: nil)
            }
            guard let given = buffers[1] else { throw invalid("\(label): the offsets buffer is NULL (length \(a.length))") }
            let offsetsBase = aligned(given, first: start, count: records + 1, width: width, into: batch)
            let offsets: BatchColumn.Offsets
            let last: Int64
            if wide {
                let shifted = offsetsBase.assumingMemoryBound(to: Int64.self)
                offsets = .int64(shifted)
                last = shifted[records]
            } else {
                let shifted = offsetsBase.assumingMemoryBound(to: Int32.self)
                offsets = .int32(shifted)
                last = Int64(shifted[records])
            }
            // The C Data Interface does not give the data buffer's size: it is taken as the last offset read.
            guard last >= 0 else {
                throw invalid("\(label), record \(records - 1): offset \(last) is negative")
            }
            let data: UnsafeBufferPointer<UInt8>
            if let bytes = buffers[2] {
                data = UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: UInt8.self), count: Int(last))
            } else {
                guard last == 0 else {
                    throw invalid("\(label): the data buffer is NULL but the offsets reach \(last)")
                }
                data = UnsafeBufferPointer(start: nil, count: 0)
            }
            let (bitmap, bits) = try combinedValidity(validity, bitOffset: bitOffset, into: batch)
            return BatchColumn(data: data, offsets: offsets, validity: bitmap, validityBitOffset: bits)
        }

        /// Checks the child's counts and buffer count; answers its validity bitmap (nil: no nulls)
        /// and the bit of the batch's record 0 in it.
        private func checkedLayout(
            _ a: ArrowArray, buffers count: Int64, exact: Bool = true, _ what: String, formatName: String
        ) throws(ABIFailure) -> (UnsafePointer<UInt8>?, Int) {
            try checkCounts(a, what)
            guard a.length >= Int64(parent.offset + parent.length) else {
                throw invalid("\(what): length \(a.length) is less than the struct's offset + length (\(parent.offset) + \(parent.length))")
            }
            if exact {
                guard a.n_buffers == count else {
                    throw invalid("\(what): n_buffers is \(a.n_buffers); \(formatName) has \(count)")
                }
            } else {
                guard a.n_buffers >= count else {
                    throw invalid("\(what): n_buffers is \(a.n_buffers); \(formatName) has at least \(count)")
                }
            }
            guard let buffers = a.buffers else { throw invalid("\(what): buffers is NULL (n_buffers is \(a.n_buffers))") }
            let validity = buffers[0].map { $0.assumingMemoryBound(to: UInt8.self) }
            if a.null_count > 0 && validity == nil {
                throw invalid("\(what): null_count is \(a.null_count) but the validity bitmap is NULL")
            }
            return (a.null_count == 0 ? nil : validity, Int(a.offset) + parent.offset)
        }

        /// The child's validity, ANDed with the parent's when the parent has nulls (then written
        /// into a bitmap of the batch's own, starting at bit 0).
        private func combinedValidity(
            _ validity: UnsafePointer<UInt8>?, bitOffset: Int, into batch: ArrowBatch
        ) throws(ABIFailure) -> (UnsafePointer<UInt8>?, Int) {
            guard parent.validity != nil else { return (validity, bitOffset) }
            let records = parent.length
            let bytes = batch.allocate((records + 7) / 8).bindMemory(to: UInt8.self, capacity: (records + 7) / 8)
            bytes.initialize(repeating: 0, count: (records + 7) / 8)
            for record in 0..<records where !parent.isNull(record) {
                if let validity, bitIsClear(validity, bitOffset + record) { continue }
                bytes[record >> 3] |= 1 << UInt8(record & 7)
            }
            return (UnsafePointer(bytes), 0)
        }

        private func isNull(_ validity: UnsafePointer<UInt8>?, _ bitOffset: Int, _ record: Int) -> Bool {
            if parent.isNull(record) { return true }
            guard let validity else { return false }
            return bitIsClear(validity, bitOffset + record)
        }

        /// string_view ("vu"): buffers are validity, the 16-byte views, the variadic data buffers,
        /// then an int64 array of those buffers' sizes. Copied into a column of the batch's own.
        private func readView(into batch: ArrowBatch) throws(ABIFailure) -> BatchColumn {
            let a = array.pointee
            let (validity, bitOffset) = try checkedLayout(a, buffers: 3, exact: false, label, formatName: "string_view")
            guard let buffers = a.buffers else { throw invalid("\(label): buffers is NULL") }  // checkedLayout refused it already
            let dataCount = Int(a.n_buffers) - 3
            let records = parent.length
            guard records > 0 else { return BatchColumn(data: UnsafeBufferPointer(start: nil, count: 0), offsets: nil) }
            guard let views = buffers[1].map(UnsafeRawPointer.init) else {
                throw invalid("\(label): the views buffer is NULL (length \(a.length))")
            }
            var sizes: [Int64] = []
            if dataCount > 0 {
                guard let sizeBuffer = buffers[Int(a.n_buffers) - 1].map(UnsafeRawPointer.init) else {
                    throw invalid("\(label): the variadic buffer sizes buffer is NULL (\(dataCount) data buffers)")
                }
                for index in 0..<dataCount {
                    let size = sizeBuffer.loadUnaligned(fromByteOffset: index * 8, as: Int64.self)
                    guard size >= 0 else { throw invalid("\(label): data buffer \(index) has size \(size)") }
                    guard size == 0 || buffers[2 + index] != nil else {
                        throw invalid("\(label): data buffer \(index) is NULL but its size is \(size)")
                    }
                    sizes.append(size)
                }
            }
            let start = Int(a.offset) + parent.offset
            return try materialize(into: batch) { (record) throws(ABIFailure) -> UnsafeRawBufferPointer in
                if isNull(validity, bitOffset, record) { return UnsafeRawBufferPointer(start: nil, count: 0) }
                let view = views + (start + record) * 16
                let length = view.loadUnaligned(as: Int32.self)
                guard length >= 0 else { throw invalid("\(label), record \(record): the view's length is \(length)") }
                if length <= 12 { return UnsafeRawBufferPointer(start: view + 4, count: Int(length)) }
                let index = view.loadUnaligned(fromByteOffset: 8, as: Int32.self)
                let offset = view.loadUnaligned(fromByteOffset: 12, as: Int32.self)
                guard index >= 0, Int(index) < dataCount else {
                    throw invalid("\(label), record \(record): the view names data buffer \(index) (there are \(dataCount))")
                }
                guard offset >= 0, Int64(offset) + Int64(length) <= sizes[Int(index)] else {
                    throw invalid("\(label), record \(record): the view's bytes \(offset)..<\(Int64(offset) + Int64(length)) are past the end of data buffer \(index) (\(sizes[Int(index)]) bytes)")
                }
                guard let data = buffers[2 + Int(index)] else {
                    throw invalid("\(label), record \(record): data buffer \(index) is NULL")
                }
                return UnsafeRawBufferPointer(start: data + Int(offset), count: Int(length))
            }
        }

        /// A dictionary-encoded string column: integer indices into a utf8 / large_utf8 dictionary,
        /// whose offsets and UTF-8 are checked whole first. Copied into a column of the batch's own.
        private func readDictionary(
            format: String, dictionarySchema: UnsafeMutablePointer<ArrowSchema>, into batch: ArrowBatch
        ) throws(ABIFailure) -> BatchColumn {
            let a = array.pointee
            let (validity, bitOffset) = try checkedLayout(a, buffers: 2, label, formatName: "a dictionary-encoded column")
            let d = dictionarySchema.pointee
            guard d.release != nil else { throw invalid("\(label): its dictionary's schema has been released (release callback is NULL)") }
            guard let dictionaryFormatPointer = d.format else { throw invalid("\(label): the dictionary's format is NULL") }
            let dictionaryFormat = text(dictionaryFormatPointer)
            guard dictionaryFormat == "u" || dictionaryFormat == "U" else {
                throw invalid("\(label): dictionary format \"\(dictionaryFormat)\"\(describe(dictionaryFormat)) is not a string type")
            }
            guard let values = a.dictionary else {
                throw invalid("\(label): the schema is dictionary-encoded but the array has no dictionary")
            }
            let v = values.pointee
            let what = "\(label) dictionary"
            guard v.release != nil else { throw invalid("\(what): released (release callback is NULL)") }
            try checkCounts(v, what)
            guard v.length < Int64(Int32.max) else { throw invalid("\(what): length \(v.length) is too large") }
            guard v.n_buffers == 3 else {
                throw invalid("\(what): n_buffers is \(v.n_buffers); \(dictionaryFormat == "u" ? "utf8" : "large_utf8") has 3")
            }
            guard let valueBuffers = v.buffers else { throw invalid("\(what): buffers is NULL (n_buffers is 3)") }
            let dictionaryValidity = v.null_count == 0 ? nil : valueBuffers[0].map { $0.assumingMemoryBound(to: UInt8.self) }
            if v.null_count > 0 && dictionaryValidity == nil {
                throw invalid("\(what): null_count is \(v.null_count) but the validity bitmap is NULL")
            }
            let entries = Int(v.length)
            var dictionary = BatchColumn(data: UnsafeBufferPointer(start: nil, count: 0), offsets: nil)
            if entries > 0 {
                let wide = dictionaryFormat == "U", width = wide ? 8 : 4
                guard let given = valueBuffers[1] else { throw invalid("\(what): the offsets buffer is NULL (length \(entries))") }
                let offsetsBase = aligned(given, first: Int(v.offset), count: entries + 1, width: width, into: batch)
                let offsets: BatchColumn.Offsets, last: Int64
                if wide {
                    let shifted = offsetsBase.assumingMemoryBound(to: Int64.self)
                    offsets = .int64(shifted)
                    last = shifted[entries]
                } else {
                    let shifted = offsetsBase.assumingMemoryBound(to: Int32.self)
                    offsets = .int32(shifted)
                    last = Int64(shifted[entries])
                }
                guard last >= 0 else { throw invalid("\(what), value \(entries - 1): offset \(last) is negative") }
                let data: UnsafeBufferPointer<UInt8>
                if let bytes = valueBuffers[2] {
                    data = UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: UInt8.self), count: Int(last))
                } else {
                    guard last == 0 else { throw invalid("\(what): the data buffer is NULL but the offsets reach \(last)") }
                    data = UnsafeBufferPointer(start: nil, count: 0)
                }
                dictionary = BatchColumn(data: data, offsets: offsets, validity: dictionaryValidity,
                                         validityBitOffset: Int(v.offset))
                var previous = dictionary.offset(0)
                guard previous >= 0 else { throw invalid("\(what), value 0: offset \(previous) is negative") }
                for entry in 0..<entries {
                    let next = dictionary.offset(entry + 1)
                    guard next >= previous else {
                        throw invalid("\(what), value \(entry): offsets decrease (\(previous) then \(next))")
                    }
                    guard next <= data.count else {
                        throw invalid("\(what), value \(entry): offset \(next) is past the end of the data (\(data.count) bytes)")
                    }
                    previous = next
                }
            }
            let width = indexWidth(format)!, signed = format == format.lowercased()
            let records = parent.length
            guard records > 0 else { return BatchColumn(data: UnsafeBufferPointer(start: nil, count: 0), offsets: nil) }
            guard let indexBase = a.buffers![1].map(UnsafeRawPointer.init) else {
                throw invalid("\(label): the indices buffer is NULL (length \(a.length))")
            }
            let start = Int(a.offset) + parent.offset
            // A dictionary value's UTF-8 is checked when a record first uses it (unused values are never read).
            var checked = [Bool](repeating: false, count: entries)
            return try materialize(into: batch) { (record) throws(ABIFailure) -> UnsafeRawBufferPointer in
                if isNull(validity, bitOffset, record) { return UnsafeRawBufferPointer(start: nil, count: 0) }
                let at = (start + record) * width
                let index: Int64
                switch (width, signed) {
                case (1, true): index = Int64(indexBase.loadUnaligned(fromByteOffset: at, as: Int8.self))
                case (1, false): index = Int64(indexBase.loadUnaligned(fromByteOffset: at, as: UInt8.self))
                case (2, true): index = Int64(indexBase.loadUnaligned(fromByteOffset: at, as: Int16.self))
                case (2, false): index = Int64(indexBase.loadUnaligned(fromByteOffset: at, as: UInt16.self))
                case (4, true): index = Int64(indexBase.loadUnaligned(fromByteOffset: at, as: Int32.self))
                case (4, false): index = Int64(indexBase.loadUnaligned(fromByteOffset: at, as: UInt32.self))
                case (_, true): index = indexBase.loadUnaligned(fromByteOffset: at, as: Int64.self)
                default:
                    let raw = indexBase.loadUnaligned(fromByteOffset: at, as: UInt64.self)
                    index = raw > UInt64(Int64.max) ? -1 : Int64(raw)
                }
                guard index >= 0, index < Int64(entries) else {
                    throw invalid("\(label), record \(record): dictionary index \(index) is out of range (the dictionary has \(entries) values)")
                }
                let bytes = dictionary.value(Int(index))
                if !checked[Int(index)] {
                    if let bad = ValidUTF8.firstInvalidOffset(bytes) {
                        throw invalid("\(label), record \(record): invalid UTF-8 at byte \(bad + 1) of dictionary value \(index)")
                    }
                    checked[Int(index)] = true
                }
                return UnsafeRawBufferPointer(start: bytes.baseAddress.map(UnsafeRawPointer.init), count: bytes.count)
            }
        }

        /// A column of the batch's own holding each record's bytes (int64 offsets, "" for a null).
        private func materialize(
            into batch: ArrowBatch, _ value: (Int) throws(ABIFailure) -> UnsafeRawBufferPointer
        ) throws(ABIFailure) -> BatchColumn {
            let records = parent.length
            var total = 0
            for record in 0..<records { total += try value(record).count }
            let offsets = batch.allocate((records + 1) * 8).bindMemory(to: Int64.self, capacity: records + 1)
            let data = batch.allocate(total).bindMemory(to: UInt8.self, capacity: max(total, 1))
            var end = 0
            offsets[0] = 0
            for record in 0..<records {
                let bytes = try value(record)
                if let base = bytes.baseAddress, bytes.count > 0 {
                    (data + end).initialize(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
                }
                end += bytes.count
                offsets[record + 1] = Int64(end)
            }
            return BatchColumn(data: UnsafeBufferPointer(start: data, count: total), offsets: .int64(offsets))
        }
    }

    /// The `count` offsets of `width` bytes from entry `first` of `buffer`: in place when aligned to
    /// their width, else copied into an aligned buffer of the batch (Arrow asks producers to align
    /// buffers, but a buffer sliced out of a larger one, e.g. unpickled, may not be).
    static func aligned(
        _ buffer: UnsafeRawPointer, first: Int, count: Int, width: Int, into batch: ArrowBatch
    ) -> UnsafeRawPointer {
        let start = buffer + first * width
        guard Int(bitPattern: start) % width != 0 else { return start }
        let copy = batch.allocate(count * width)
        copy.copyMemory(from: start, byteCount: count * width)
        return UnsafeRawPointer(copy)
    }

    /// length, offset and null_count in range.
    static func checkCounts(_ a: ArrowArray, _ what: String) throws(ABIFailure) {
        guard a.length >= 0 else { throw invalid("\(what): length is \(a.length)") }
        guard a.offset >= 0 else { throw invalid("\(what): offset is \(a.offset)") }
        guard a.null_count >= -1 else { throw invalid("\(what): null_count is \(a.null_count)") }
        guard a.offset <= maxOffset, a.length <= maxOffset else {
            throw invalid("\(what): offset \(a.offset) and length \(a.length) are too large")
        }
    }

    static func bitIsClear(_ bitmap: UnsafePointer<UInt8>, _ bit: Int) -> Bool {
        bitmap[bit >> 3] & (1 << UInt8(bit & 7)) == 0
    }

    static func indexWidth(_ format: String) -> Int? {
        switch format {
        case "c", "C": return 1
        case "s", "S": return 2
        case "i", "I": return 4
        case "l", "L": return 8
        default: return nil
        }
    }

    /// A format string for a message (its bytes as they are, ill-formed UTF-8 replaced).
    static func text(_ pointer: UnsafePointer<CChar>) -> String {
        String(cString: pointer)
    }

    /// " (int64)" after a format string the Arrow specification names, else "".
    static func describe(_ format: String) -> String {
        let names: [String: String] = [
            "n": "null", "b": "boolean", "c": "int8", "C": "uint8", "s": "int16", "S": "uint16",
            "i": "int32", "I": "uint32", "l": "int64", "L": "uint64", "e": "float16", "f": "float32",
            "g": "float64", "z": "binary", "Z": "large_binary", "vz": "binary_view", "u": "utf8",
            "U": "large_utf8", "vu": "string_view", "tdD": "date32", "tdm": "date64", "+l": "list",
            "+L": "large_list", "+s": "struct", "+m": "map", "+vl": "list_view", "+vL": "large_list_view",
            "+r": "run-end encoded",
        ]
        if let name = names[format] { return " (\(name))" }
        for (prefix, name) in [("d:", "decimal"), ("w:", "fixed_size_binary"), ("+w:", "fixed_size_list"),
                               ("ts", "timestamp"), ("tt", "time"), ("tD", "duration"), ("ti", "interval"),
                               ("+u", "union")] where format.hasPrefix(prefix) {
            return " (\(name))"
        }
        return ""
    }

    static func invalid(_ message: String) -> ABIFailure {
        ABIFailure(.FW_ERR_INVALID_ARGUMENT, message)
    }
}
