import CFormwellTypes
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Formwell

/// Fills caller-owned fw_snapshot structs and copies their texts into the caller's buffer.
/// Runs under the form's lock, so the struct and the texts always describe the same moment.
enum SnapshotWriter {
    /// The first version's struct: the smallest `size` a caller may declare.
    static let minimumSize = MemoryLayout<fw_snapshot>.size

    /// The size the caller declared in `snapshot.size`, checked.
    static func declaredSize(_ snapshot: UnsafeMutablePointer<fw_snapshot>?) throws(ABIFailure) -> Int {
        guard let snapshot else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'snapshot' is NULL") }
        guard Int(bitPattern: snapshot) % MemoryLayout<fw_snapshot>.alignment == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "snapshot is not aligned for an fw_snapshot")
        }
        let size = snapshot.pointee.size
        guard size >= minimumSize, size <= Int(Int32.max), size % MemoryLayout<fw_snapshot>.alignment == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                             "snapshot size \(size) is not sizeof(fw_snapshot) (\(minimumSize) or more, a multiple of \(MemoryLayout<fw_snapshot>.alignment))")
        }
        return size
    }

    /// The caller's text buffer, consumed front to back.
    struct TextBuffer {
        let base: UnsafeMutablePointer<CChar>?
        let capacity: Int
        var used = 0
        /// Bytes every text written so far needed, copied or not.
        var needed = 0
        /// A text did not fit, so it and every later text were not copied.
        var overflowed = false

        init(_ base: UnsafeMutablePointer<CChar>?, _ capacity: UInt) throws(ABIFailure) {
            if base == nil && capacity != 0 {
                throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "buf is NULL but its size is \(capacity)")
            }
            self.base = base
            self.capacity = Int(clamping: capacity)
        }

        /// Copies `bytes` and a NUL if they fit (and nothing before them overflowed); answers where
        /// they went, or nil.
        @inline(__always)
        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<CChar>? {
            let count = bytes.count
            needed &+= count &+ 1
            guard let base, !overflowed, count < capacity &- used else {
                if base != nil { overflowed = true }
                return nil
            }
            let start = base + used
            if count > 0, let source = bytes.baseAddress {
                memcpy(start, source, count)
            }
            start[count] = 0
            used &+= count &+ 1
            return UnsafePointer(start)
        }
    }

    /// Writes the state of the field at `index` into `out` (keeping the caller's `size`) and its
    /// texts into `texts`.
    static func write(_ form: UnsafeMutablePointer<Form>, index: Int, to out: UnsafeMutablePointer<fw_snapshot>,
                      texts: inout TextBuffer) throws(FormError) {
        try Form.readState(of: form, at: index) { state, strings in
            let (message, shown, value) = (strings.message, strings.displayMessage, strings.value)
            // Member by member into the caller's struct (keeping its `size`): no temporary to
            // zero and copy.
            let before = texts.needed
            out.pointee.index = index
            out.pointee.phase = fw_phase(state.phase).rawValue
            out.pointee.validity = fw_validity(state.validity).rawValue
            out.pointee.display = fw_display(state.display).rawValue
            out.pointee.failing_rule = Int32(clamping: state.failingRule ?? -1)
            out.pointee.touched = state.touched
            out.pointee.limit_exceeded = state.limitExceeded
            out.pointee.message_length = message.count
            out.pointee.display_message_length = shown.count
            out.pointee.value_length = value.count
            out.pointee.message = texts.append(message)
            out.pointee.display_message = texts.append(shown)
            out.pointee.value = texts.append(value)
            out.pointee.text_size = texts.needed &- before
        }
    }
}
