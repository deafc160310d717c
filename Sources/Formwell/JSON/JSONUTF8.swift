/// UTF-8 checks shared by the parser and the record scanner (RFC 3629: no overlong forms, no encoded
/// surrogates, nothing above U+10FFFF), written against a buffer with every index checked first.
enum JSONUTF8 {
    /// The length (2...4) of the well-formed multi-byte sequence starting at `index`, or 0 when the
    /// bytes there are not one. `index` must be below `bytes.count`.
    @inline(__always)
    static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let count = bytes.count
        let lead = bytes[index]
        // The allowed range of the second byte depends on the lead byte; the rest are 80...BF.
        let length: Int
        let low: UInt8
        let high: UInt8
        switch lead {
        case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
        case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)          // no overlong 3-byte forms
        case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
        case 0xED: (length, low, high) = (3, 0x80, 0x9F)          // no UTF-16 surrogates
        case 0xF0: (length, low, high) = (4, 0x90, 0xBF)          // no overlong 4-byte forms
        case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
        case 0xF4: (length, low, high) = (4, 0x80, 0x8F)          // nothing above U+10FFFF
        default: return 0
        }
        guard count - index >= length else { return 0 }
        let second = bytes[index + 1]
        guard second >= low, second <= high else { return 0 }
        var next = index + 2
        while next < index + length {
            guard bytes[next] & 0xC0 == 0x80 else { return 0 }
            next += 1
        }
        return length
    }

    /// Appends the UTF-8 form of `scalar` (a valid scalar value: not a surrogate, at most 0x10FFFF).
    @inline(__always)
    static func append(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(truncatingIfNeeded: scalar))
        case 0x80..<0x800:
            out.append(UInt8(truncatingIfNeeded: 0xC0 | (scalar >> 6)))
            out.append(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(truncatingIfNeeded: 0xE0 | (scalar >> 12)))
            out.append(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(truncatingIfNeeded: 0xF0 | (scalar >> 18)))
            out.append(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        }
    }

    /// The value of one hex digit, or nil.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// Reads the four hex digits of a `\uXXXX` escape starting at `index`, or nil when fewer than four
    /// bytes remain or one is not a hex digit.
    @inline(__always)
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
        guard index >= 0, bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = hexValue(bytes[index + offset]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }
}
