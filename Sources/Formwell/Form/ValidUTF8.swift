/// Bytes checked to be well-formed UTF-8, borrowed for the duration of a call: what the byte-level
/// entry points (`Form.setValue(_:at:)` with bytes, the C ABI) take, so a value is checked once.
public struct ValidUTF8 {
    public let bytes: UnsafeBufferPointer<UInt8>

    /// nil when `bytes` holds an ill-formed sequence (see `firstInvalidOffset`). Inlined with an
    /// ASCII fast path (every value a C caller passes comes here; most are short and ASCII).
    @inlinable @inline(__always)
    public init?(validating bytes: UnsafeBufferPointer<UInt8>) {
        guard ValidUTF8.isShortASCII(bytes) || ValidUTF8.firstInvalidOffset(bytes) == nil else { return nil }
        self.bytes = bytes
    }

    /// Whether `bytes` is ASCII and at most 32 bytes long, checked a word at a time (the last word
    /// overlapping the one before; under 8 bytes, byte by byte); false leaves the question to
    /// `firstInvalidOffset`.
    @inlinable @inline(__always)
    static func isShortASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        guard count <= 32, let base = bytes.baseAddress else { return count == 0 }
        let raw = UnsafeRawPointer(base)
        if count < 8 {
            var seen: UInt8 = 0
            for index in 0..<count { seen |= base[index] }
            return seen < 0x80
        }
        let ascii: UInt64 = 0x8080_8080_8080_8080
        var seen = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        var offset = 0
        while offset &+ 8 < count {
            seen |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset &+= 8
        }
        return seen & ascii == 0
    }

    /// Byte offset of the first ill-formed sequence, nil when the whole buffer is well-formed UTF-8.
    /// Overlong forms, surrogates and values above U+10FFFF are ill-formed (as in Swift's decoder).
    /// ASCII runs are checked eight bytes at a time.
    public static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        // All ASCII (most values typed into a form): whole words, the last one overlapping the one
        // before, so no byte is checked on its own. Else the loop below starts at the first word
        // that is not ASCII (every byte before it is a whole character).
        if count >= 8 {
            let ascii: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= count, UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & ascii == 0 {
                index += 8
            }
            if index == count { return nil }
            if index + 8 > count, UnsafeRawPointer(base + (count - 8)).loadUnaligned(as: UInt64.self) & ascii == 0 {
                return nil
            }
        }
        while index < count {
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
            }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The length of the sequence, and the range its second byte must fall in.
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            let second = base[index + 1]
            guard second >= low, second <= high else { return index }
            for offset in 2..<max(length, 2) where base[index + offset] & 0xC0 != 0x80 {
                return index
            }
            index += length
        }
        return nil
    }
}
