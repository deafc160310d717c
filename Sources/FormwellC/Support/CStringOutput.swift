/// Writes strings the library hands out into the caller's buffer, the one ownership style of the ABI:
/// the caller owns the buffer, nothing returned is borrowed from the library.
enum CStringOutput {
    /// Copies `text` and a terminating NUL into `buffer` (`capacity` bytes).
    /// `*outLength` (if not NULL) receives the full length in bytes, without the NUL.
    /// buffer == NULL with capacity == 0 is a size query and succeeds. When the text does not fit,
    /// the buffer receives the longest prefix of whole UTF-8 characters that fits, NUL-terminated,
    /// and the call fails with FW_ERR_BUFFER_TOO_SMALL.
    static func write(
        _ text: String, to buffer: UnsafeMutablePointer<CChar>?, capacity: UInt,
        length outLength: UnsafeMutablePointer<UInt>?
    ) throws(ABIFailure) {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(ABIFailure) in try write(bytes: bytes, to: buffer, capacity: capacity, length: outLength) }
        }
        try result.get()
    }

    /// `write(_:to:capacity:length:)` for UTF-8 bytes borrowed in place.
    static func write(
        bytes: UnsafeBufferPointer<UInt8>, to buffer: UnsafeMutablePointer<CChar>?, capacity: UInt,
        length outLength: UnsafeMutablePointer<UInt>?
    ) throws(ABIFailure) {
        let needed = bytes.count
        outLength?.pointee = UInt(needed)
        guard let buffer else {
            if capacity == 0 { return }
            throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "buffer is NULL but its capacity is \(capacity)")
        }
        guard capacity > 0 else {
            throw ABIFailure(.FW_ERR_BUFFER_TOO_SMALL, "buffer capacity is 0; \(needed + 1) bytes needed")
        }
        let room = Int(min(capacity - 1, UInt(Int.max)))
        var count = min(room, bytes.count)
        // Never cut a character in half: back up to the start of a UTF-8 sequence.
        while count < bytes.count && count > 0 && bytes[count] & 0xC0 == 0x80 { count -= 1 }
        if let source = bytes.baseAddress {
            UnsafeMutableRawPointer(buffer).copyMemory(from: source, byteCount: count)
        }
        buffer[count] = 0
        if needed > room {
            throw ABIFailure(.FW_ERR_BUFFER_TOO_SMALL,
                             "buffer holds \(capacity) bytes; \(needed + 1) needed (text plus NUL)")
        }
    }

    /// Empties the caller's buffer on failure, so it never holds stale text.
    static func clear(_ buffer: UnsafeMutablePointer<CChar>?, capacity: UInt) {
        if let buffer, capacity > 0 { buffer[0] = 0 }
    }
}
