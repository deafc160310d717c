import Formwell
import Glibc

/// Records read but not yet checked, kept as columns (one per field of the spec: offsets into one
/// byte buffer, the layout `Form.checkBatch` reads), with every input item in order: a record
/// (its line and row) or a malformed line (its line and reason).
///
/// A record's members are first staged (a key may repeat: the last value wins) and only appended
/// to the columns when the whole line has been read, so a line found malformed halfway leaves no
/// trace in them. A field the record does not name holds its initial value.
struct RecordBatch {
    enum Item {
        case record(line: Int, row: Int)
        case malformed(line: Int, reason: String)
    }

    private let fields: FieldTable
    private(set) var items: [Item] = []
    private(set) var recordCount = 0
    private var data: [[UInt8]]
    private var offsets: [[Int32]]
    /// The record being read: each field's value as a range of `staged` (nil: not named).
    private var staged: [UInt8] = []
    private var stagedRanges: [Range<Int>?]
    /// Keys of the record being read that are not fields (for the tool's notes).
    private(set) var unknownKeys: [String] = []
    /// Which fields some record has named since the batch was made (kept by `removeAll`): how the
    /// tool tells a JSONL file that never names a field.
    private(set) var namedFields: [Bool]

    init(fields: FieldTable) {
        self.fields = fields
        data = Array(repeating: [], count: fields.count)
        offsets = Array(repeating: [0], count: fields.count)
        stagedRanges = Array(repeating: nil, count: fields.count)
        namedFields = Array(repeating: false, count: fields.count)
    }

    var isEmpty: Bool { items.isEmpty }

    // MARK: Building a record

    /// Starts a record (dropping whatever a previous unfinished one staged).
    mutating func beginRecord() {
        staged.removeAll(keepingCapacity: true)
        for index in stagedRanges.indices { stagedRanges[index] = nil }
        unknownKeys.removeAll(keepingCapacity: true)
    }

    /// One member of the record being read: its key and value as UTF-8 bytes.
    mutating func stage(key: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        guard let field = fields.index(of: key) else {
            unknownKeys.append(String(decoding: key, as: UTF8.self))
            return
        }
        let start = staged.count
        staged.append(contentsOf: value)
        stagedRanges[field] = start..<staged.count
        namedFields[field] = true
    }

    /// `stage` with the key and value as text (the CSV reader's records).
    mutating func stage(key: String, value: String) {
        var key = key, value = value
        key.withUTF8 { keyBytes in value.withUTF8 { stage(key: keyBytes, value: $0) } }
    }

    /// Appends the staged record to the columns.
    mutating func endRecord(line: Int) {
        staged.withUnsafeBufferPointer { staged in
            for field in 0..<data.count {
                if let range = stagedRanges[field] {
                    data[field].append(contentsOf: UnsafeBufferPointer(rebasing: staged[range]))
                } else {
                    data[field].append(contentsOf: fields.initialValues[field])
                }
                offsets[field].append(Int32(truncatingIfNeeded: data[field].count))
            }
        }
        items.append(.record(line: line, row: recordCount))
        recordCount += 1
    }

    mutating func addMalformed(line: Int, reason: String) {
        unknownKeys.removeAll(keepingCapacity: true)  // a malformed line gets no notes
        items.append(.malformed(line: line, reason: reason))
    }

    /// Bytes held in the columns so far (a batch is checked before a column could outgrow Int32 offsets).
    var byteCount: Int { data.reduce(0) { $0 + $1.count } }

    /// Empties the batch, keeping its storage.
    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        recordCount = 0
        for index in data.indices {
            data[index].removeAll(keepingCapacity: true)
            offsets[index].removeAll(keepingCapacity: true)
            offsets[index].append(0)
        }
    }

    // MARK: Checking

    /// Runs `form.checkBatch` over the columns (both cores), borrowing them for the call.
    func check(_ form: Form) throws(FormError) -> BatchResult {
        try withColumns(0, []) { (columns) throws(FormError) in
            try form.checkBatch(columns, recordCount: recordCount, threads: 0)
        }
    }

    private func withColumns(
        _ index: Int, _ columns: [BatchColumn?], _ body: ([BatchColumn?]) throws(FormError) -> BatchResult
    ) throws(FormError) -> BatchResult {
        guard index < data.count else { return try body(columns) }
        return try data[index].withUnsafeBufferPointer { (bytes) throws(FormError) in
            try offsets[index].withUnsafeBufferPointer { (starts) throws(FormError) in
                let column = starts.baseAddress.map { BatchColumn(data: bytes, offsets: .int32($0)) }
                return try withColumns(index + 1, columns + [column], body)
            }
        }
    }
}

/// The spec's fields as the record readers look them up: ids as UTF-8 bytes (a key is first
/// compared byte for byte, then as Unicode text, as the engine compares ids) and initial values.
struct FieldTable {
    let ids: [String]
    let idBytes: [[UInt8]]
    let initialValues: [[UInt8]]
    /// Small forms are searched byte for byte in order; larger ones through a dictionary.
    private let lookup: [[UInt8]: Int]

    init(spec: FormSpec) {
        ids = spec.fields.map(\.id)
        idBytes = ids.map { Array($0.utf8) }
        initialValues = spec.fields.map { Array(($0.initial ?? "").utf8) }
        var lookup: [[UInt8]: Int] = [:]
        for (index, bytes) in idBytes.enumerated() where lookup[bytes] == nil { lookup[bytes] = index }
        self.lookup = lookup
    }

    var count: Int { ids.count }

    @inline(__always)
    func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        if idBytes.count <= 16 {
            for index in idBytes.indices where idBytes[index].count == key.count {
                let same = idBytes[index].withUnsafeBufferPointer { id in
                    guard let a = id.baseAddress, let b = key.baseAddress else { return key.isEmpty }
                    return memcmp(a, b, key.count) == 0
                }
                if same { return index }
            }
        } else if let index = lookup[Array(key)] {
            return index
        }
        // Ids compare as Unicode text: a key spelt in another normalization form still names its field.
        let text = String(decoding: key, as: UTF8.self)
        return ids.firstIndex(of: text)
    }
}
