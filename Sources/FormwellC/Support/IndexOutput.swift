/// The caller's array of field indices (fw_form_changed_since, fw_form_pending_fields): *out_count
/// always receives how many there are; when that exceeds capacity nothing is stored and the call is
/// FW_ERR_BUFFER_TOO_SMALL (so NULL with capacity 0 asks for the count).
enum IndexOutput {
    static func checkArguments(_ out: UnsafeMutablePointer<UInt>?, _ capacity: UInt,
                               _ count: UnsafeMutablePointer<UInt>?) throws(ABIFailure) -> UnsafeMutablePointer<UInt> {
        guard let count else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'out_count' is NULL") }
        if out == nil && capacity != 0 {
            throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "out_indices is NULL but capacity is \(capacity)")
        }
        return count
    }

    /// Stores `indices`; `what` names them in the too-small message ("fields changed").
    static func store(_ indices: [Int], to out: UnsafeMutablePointer<UInt>?, capacity: UInt,
                      count: UnsafeMutablePointer<UInt>, what: String) throws(ABIFailure) {
        count.pointee = UInt(indices.count)
        guard UInt(indices.count) <= capacity else {
            throw ABIFailure(.FW_ERR_BUFFER_TOO_SMALL, "\(indices.count) \(what); capacity is \(capacity)")
        }
        guard let out else { return }
        for (slot, index) in indices.enumerated() { out[slot] = UInt(index) }
    }
}
