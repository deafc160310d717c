/// The `url` rule: seed 03's `URLValidator` (Foundation's `URL(string:)` parses the value and it has
/// a scheme and a host), written out as RFC 3986's generic syntax so that every platform gives the
/// same answer without Foundation:
///
///     scheme "://" [userinfo "@"] host [":" port] path-abempty ["?" query] ["#" fragment]
///
/// - scheme: a letter, then letters, digits, `+`, `-`, `.`; compared case-insensitively with the
///   allowed schemes (an empty list allows any scheme).
/// - host: not empty; an IPv6 address in brackets (RFC 3986's IPv6address; IPvFuture is refused),
///   or a registered name (unreserved, sub-delims, percent-escapes). A name whose last label is a
///   number must be a dotted-decimal IPv4 address (four parts, 0 to 255, no leading zeros), as a
///   browser would read it as one (WHATWG's "ends in a number"); percent-escapes in a name must
///   decode to UTF-8 without the code points a host cannot hold (controls, space, `#%/:<>?@[\]^|`).
/// - port: digits only (possibly none, as RFC 3986 allows), at most 65535.
/// - path, query, fragment, userinfo: RFC 3986's characters, percent-escapes with two hex digits.
/// - Non-ASCII characters are accepted wherever RFC 3987 (IRIs) accepts them, as Apple's
///   `URL(string:)` does since it encodes them: its `ucschar` ranges everywhere (U+00A0 to U+D7FF,
///   U+F900 to U+FDCF, U+FDF0 to U+FFEF, and each plane up to its last two code points but plane
///   14's first 4,096), and its `iprivate` ranges (private use) in the query only. Noncharacters,
///   U+FFF0 to U+FFFF (U+FFFD included), spaces, controls, `<>"{}|\^` and backquote are refused.
enum URLCheck {
    static func isValid(_ value: Subject, schemes: [String]) -> Bool {
        let bytes = value.utf8
        var index = 0
        // Scheme.
        guard index < bytes.count, isAlpha(bytes[index]) else { return false }
        while index < bytes.count, isAlpha(bytes[index]) || isDigit(bytes[index]) || bytes[index] == 0x2B || bytes[index] == 0x2D || bytes[index] == 0x2E {
            index += 1
        }
        let scheme = String(decoding: bytes[0..<index], as: UTF8.self).lowercased()
        guard schemes.isEmpty || schemes.contains(where: { $0.lowercased() == scheme }) else { return false }
        // "://": a URL without an authority (mailto:, a relative reference) has no host.
        guard index + 3 <= bytes.count, bytes[index] == 0x3A, bytes[index + 1] == 0x2F, bytes[index + 2] == 0x2F else {
            return false
        }
        index += 3
        // Authority: up to the first "/", "?" or "#".
        let authorityStart = index
        while index < bytes.count, bytes[index] != 0x2F, bytes[index] != 0x3F, bytes[index] != 0x23 { index += 1 }
        guard authority(bytes, authorityStart..<index) else { return false }
        // Path, query, fragment.
        var section = 0  // 0 path, 1 query, 2 fragment
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x3F && section == 0 { section = 1; index += 1; continue }
            if byte == 0x23 && section < 2 { section = 2; index += 1; continue }
            guard let next = character(bytes, index, extra: section == 0 ? "/:@" : "/?:@", privateUse: section == 1) else {
                return false
            }
            index = next
        }
        return true
    }

    /// `[userinfo "@"] host [":" port]` with a non-empty host.
    private static func authority(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var start = range.lowerBound
        if let at = bytes[range].lastIndex(of: 0x40) {
            var index = start
            while index < at {
                guard let next = character(bytes, index, extra: ":"), next <= at else { return false }
                index = next
            }
            start = at + 1
        }
        var index = start
        if index < range.upperBound, bytes[index] == 0x5B {
            // IP literal: "[" IPv6address "]".
            index += 1
            let literalStart = index
            while index < range.upperBound, bytes[index] != 0x5D { index += 1 }
            guard index < range.upperBound, HostCheck.isIPv6(bytes[literalStart..<index]) else { return false }
            index += 1
        } else {
            while index < range.upperBound, bytes[index] != 0x3A {
                guard let next = character(bytes, index, extra: ""), next <= range.upperBound else { return false }
                index = next
            }
            guard index > start, HostCheck.isRegisteredName(bytes[start..<index]) else { return false }
        }
        if index < range.upperBound {
            guard bytes[index] == 0x3A else { return false }
            index += 1
            var port = 0
            while index < range.upperBound {
                guard isDigit(bytes[index]) else { return false }
                port = port * 10 + Int(bytes[index] - 0x30)
                guard port <= 65_535 else { return false }  // a TCP port (WHATWG refuses more too)
                index += 1
            }
        }
        return true
    }

    /// The index after one allowed character at `index` (unreserved, sub-delims, a percent-escape, an
    /// RFC 3987 `ucschar`, with `privateUse` an `iprivate` too, or one of `extra`), or nil.
    private static func character(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, extra: String, privateUse: Bool = false) -> Int? {
        let byte = bytes[index]
        if byte >= 0x80 {
            // A whole UTF-8 sequence (the value is valid UTF-8), decoded to judge its code point.
            let length: Int
            let leadBits: UInt32
            if byte >= 0xF0 {
                (length, leadBits) = (4, 0x07)
            } else if byte >= 0xE0 {
                (length, leadBits) = (3, 0x0F)
            } else {
                (length, leadBits) = (2, 0x1F)
            }
            guard index + length <= bytes.count else { return nil }
            var scalar: UInt32 = UInt32(byte) & leadBits
            for offset in 1..<length {
                let continuation = bytes[index + offset]
                guard continuation & 0xC0 == 0x80 else { return nil }
                scalar = (scalar << 6) | UInt32(continuation & 0x3F)
            }
            guard isUCSChar(scalar) || (privateUse && isPrivateUse(scalar)) else { return nil }
            return index + length
        }
        if isAlpha(byte) || isDigit(byte) || "-._~!$&'()*+,;=".utf8.contains(byte) || extra.utf8.contains(byte) {
            return index + 1
        }
        if byte == 0x25, index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) { return index + 3 }
        return nil
    }

    /// RFC 3987's `ucschar`.
    private static func isUCSChar(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0xA0...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFEF: return true
        case 0x10000...0xDFFFF: return scalar & 0xFFFF <= 0xFFFD
        case 0xE1000...0xEFFFD: return true
        default: return false
        }
    }

    /// RFC 3987's `iprivate`.
    private static func isPrivateUse(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0xE000...0xF8FF, 0xF0000...0xFFFFD, 0x100000...0x10FFFD: return true
        default: return false
        }
    }

    private static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66) }
}
