import CFormwellTypes
import Formwell

/// The C caller's snapshot arguments, checked before the writer (SnapshotWriter.swift) touches
/// them: a refusal is an ABI status.
extension SnapshotWriter {
    /// The size the caller declared in `snapshot.size`, checked. Inlined, its refusals built out
    /// of line: every snapshot call passes here.
    @inline(__always)
    static func declaredSize(_ snapshot: UnsafeMutablePointer<fw_snapshot>?) throws(ABIFailure) -> Int {
        let alignment = MemoryLayout<fw_snapshot>.alignment
        guard let snapshot, Int(bitPattern: snapshot) % alignment == 0 else { throw badSnapshot(snapshot, size: nil) }
        let size = snapshot.pointee.size
        guard size >= minimumSize, size <= Int(Int32.max), size % alignment == 0 else {
            throw badSnapshot(snapshot, size: size)
        }
        return size
    }

    /// Why `declaredSize` refused the snapshot (`size`: its declared size, nil when the pointer
    /// itself was refused).
    @inline(never)
    private static func badSnapshot(_ snapshot: UnsafeMutablePointer<fw_snapshot>?, size: Int?) -> ABIFailure {
        guard snapshot != nil else { return ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'snapshot' is NULL") }
        guard let size else { return ABIFailure(.FW_ERR_INVALID_ARGUMENT, "snapshot is not aligned for an fw_snapshot") }
        return ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                          "snapshot size \(size) is not sizeof(fw_snapshot) (\(minimumSize) or more, a multiple of \(MemoryLayout<fw_snapshot>.alignment))")
    }
}

extension SnapshotWriter.TextBuffer {
    /// The caller's `buf` of `capacity` bytes; FW_ERR_NULL_ARGUMENT for a NULL `buf` of a size.
    @inline(__always)
    init(_ base: UnsafeMutablePointer<CChar>?, _ capacity: UInt) throws(ABIFailure) {
        guard let buffer = SnapshotWriter.TextBuffer(base: base, capacity: capacity) else {
            throw SnapshotWriter.TextBuffer.nullBuffer(capacity)
        }
        self = buffer
    }

    @inline(never)
    private static func nullBuffer(_ capacity: UInt) -> ABIFailure {
        ABIFailure(.FW_ERR_NULL_ARGUMENT, "buf is NULL but its size is \(capacity)")
    }
}
