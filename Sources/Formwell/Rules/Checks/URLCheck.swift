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
/// - Non-ASCII characters (U+00A0 and above) are accepted wherever RFC 3987 (IRIs) accepts them, as
///   Apple's `URL(string:)` does since it encodes them; spaces, controls, `<>"{}|\^` and backquote are not.
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
            guard let next = character(bytes, index, extra: section == 0 ? "/:@" : "/?:@") else { return false }
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

    /// The index after one allowed character at `index` (unreserved, sub-delims, a percent-escape, a
    /// non-ASCII character, or one of `extra`), or nil.
    private static func character(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, extra: String) -> Int? {
        let byte = bytes[index]
        if byte >= 0x80 {
            // A whole UTF-8 sequence (the value is valid UTF-8); C1 controls (U+0080-U+009F, C2 80-9F) are refused.
            if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] < 0xA0 { return nil }
            var next = index + 1
            while next < bytes.count, bytes[next] & 0xC0 == 0x80 { next += 1 }
            return next
        }
        if isAlpha(byte) || isDigit(byte) || "-._~!$&'()*+,;=".utf8.contains(byte) || extra.utf8.contains(byte) {
            return index + 1
        }
        if byte == 0x25, index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) { return index + 3 }
        return nil
    }

    private static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66) }
}
