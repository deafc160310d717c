/// One field's values for every record of a batch, in the Arrow layout: `recordCount + 1` offsets
/// (32- or 64-bit) into one UTF-8 data buffer, and an optional validity bitmap (bit `i` of byte
/// `i / 8`, least significant first; a clear bit is a null, read as ""), whose bit for record 0 may
/// sit `validityBitOffset` bits in (an Arrow slice's offset). Columnar, so that no caller
/// builds an object per record: C passes its arrays, Python one joined buffer per field.
///
/// The memory is the caller's and is only borrowed; `validate` checks every offset and every value's
/// UTF-8 before anything reads a value, so a lying column is an error, never an out-of-bounds read.
public struct BatchColumn {
    public enum Offsets {
        case int32(UnsafePointer<Int32>)
        case int64(UnsafePointer<Int64>)
    }

    public let data: UnsafeBufferPointer<UInt8>
    /// nil only when the batch has no records.
    public let offsets: Offsets?
    /// The validity bitmap from the byte holding record 0's bit.
    public let validity: UnsafePointer<UInt8>?
    /// Record 0's bit within `validity[0]` (0...7).
    public let validityBitOffset: Int

    /// `validityBitOffset`: the bit index of record 0 in `validity` (any value >= 0; a negative one is
    /// taken as 0).
    public init(data: UnsafeBufferPointer<UInt8>, offsets: Offsets?, validity: UnsafePointer<UInt8>? = nil,
                validityBitOffset: Int = 0) {
        self.data = data
        self.offsets = offsets
        let bits = max(0, validityBitOffset)
        self.validity = validity.map { $0 + (bits >> 3) }
        self.validityBitOffset = bits & 7
    }

    /// The offset at `index` (no bounds check: `validate` established that `0...recordCount` is readable).
    @inline(__always)
    public func offset(_ index: Int) -> Int {
        switch offsets {
        case .int32(let base)?: return Int(base[index])
        case .int64(let base)?: return Int(base[index])
        case nil: return 0
        }
    }

    @inline(__always)
    public func isNull(_ record: Int) -> Bool {
        guard let validity else { return false }
        let bit = record &+ validityBitOffset
        return validity[bit >> 3] & (1 << UInt8(bit & 7)) == 0
    }

    /// The value of `record`, borrowed; "" for a null. Only after `validate`.
    @inline(__always)
    public func value(_ record: Int) -> UnsafeBufferPointer<UInt8> {
        if isNull(record) { return UnsafeBufferPointer(start: nil, count: 0) }
        let start = offset(record), end = offset(record + 1)
        return UnsafeBufferPointer(rebasing: data[start..<end])
    }

    /// Checks that `recordCount` records can be read: offsets present, not negative, never
    /// decreasing, within `data`; every non-null value well-formed UTF-8. `name` says which column
    /// in the error, which also names the first record at fault.
    func validate(recordCount: Int, name: String) throws(FormError) {
        guard recordCount > 0 else { return }
        guard offsets != nil else {
            throw .invalidArgument("column '\(name)': no offsets for \(recordCount) records")
        }
        var previous = offset(0)
        guard previous >= 0, previous <= data.count else {
            throw .invalidArgument("column '\(name)', record 0: offset \(previous) is outside the data (\(data.count) bytes)")
        }
        for record in 0..<recordCount {
            let next = offset(record + 1)
            guard next >= previous else {
                throw .invalidArgument("column '\(name)', record \(record): offsets decrease (\(previous) then \(next))")
            }
            guard next <= data.count else {
                throw .invalidArgument("column '\(name)', record \(record): offset \(next) is past the end of the data (\(data.count) bytes)")
            }
            previous = next
        }
        // UTF-8: the whole range at once (ASCII eight bytes at a time), then no value may start
        // inside a character. Only on failure are the values checked one by one, to name the record
        // (and to forgive bytes that only a null slot covers).
        let whole = UnsafeBufferPointer(rebasing: data[offset(0)..<offset(recordCount)])
        var clean = ValidUTF8.firstInvalidOffset(whole) == nil
        if clean {
            for record in 1..<recordCount {
                let start = offset(record)
                if start < offset(recordCount), data[start] & 0xC0 == 0x80 { clean = false; break }
            }
        }
        guard !clean else { return }
        for record in 0..<recordCount where !isNull(record) {
            if let bad = ValidUTF8.firstInvalidOffset(value(record)) {
                throw .invalidArgument("column '\(name)', record \(record): invalid UTF-8 at byte \(bad + 1) of the value")
            }
        }
    }

    /// `validate` for one record only (its two offsets and its value).
    func validate(record: Int, name: String) throws(FormError) {
        guard offsets != nil else { throw .invalidArgument("column '\(name)': no offsets") }
        let start = offset(record), end = offset(record + 1)
        guard start >= 0, start <= end, end <= data.count else {
            throw .invalidArgument("column '\(name)', record \(record): offsets \(start)..\(end) are not within the data (\(data.count) bytes)")
        }
        if !isNull(record), let bad = ValidUTF8.firstInvalidOffset(value(record)) {
            throw .invalidArgument("column '\(name)', record \(record): invalid UTF-8 at byte \(bad + 1) of the value")
        }
    }
}
