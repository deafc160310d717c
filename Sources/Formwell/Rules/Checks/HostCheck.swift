/// The `url` rule's checks of a host beyond its characters (URLCheck.swift says which and why).
enum HostCheck {
    /// RFC 3986's IPv6address: up to eight groups of 1 to 4 hex digits, at most one `::`, optionally
    /// ending in a dotted-decimal IPv4 address that stands for two groups.
    static func isIPv6(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let bytes = Array(text)
        guard !bytes.isEmpty else { return false }
        var groups = 0
        var compressed = false
        var index = 0
        if bytes.starts(with: [0x3A, 0x3A]) {
            compressed = true
            index = 2
            if index == bytes.count { return true }  // "::"
        } else if bytes[0] == 0x3A {
            return false
        }
        while index < bytes.count {
            var end = index
            while end < bytes.count, bytes[end] != 0x3A { end += 1 }
            let part = bytes[index..<end]
            if part.contains(0x2E) {
                // An IPv4 tail: the last part, worth two groups.
                guard end == bytes.count, isIPv4(Array(part)) else { return false }
                groups += 2
                index = end
                break
            }
            guard (1...4).contains(part.count), part.allSatisfy(isHex) else { return false }
            groups += 1
            index = end
            if index < bytes.count {
                index += 1  // the ":"
                if index < bytes.count, bytes[index] == 0x3A {
                    guard !compressed else { return false }
                    compressed = true
                    index += 1
                    if index == bytes.count { break }
                } else if index == bytes.count {
                    return false  // a trailing single ":"
                }
            }
        }
        return compressed ? groups <= 7 : groups == 8
    }

    /// A registered name: when its last label is a number it must be an IPv4 address; its
    /// percent-escapes must decode to valid UTF-8 with no forbidden host code point.
    static func isRegisteredName(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var decoded: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == 0x25, index + 2 < text.endIndex, let high = hexValue(text[index + 1]), let low = hexValue(text[index + 2]) {
                let value = high << 4 | low
                if value < 0x80 && (value <= 0x20 || value == 0x7F || forbidden.utf8.contains(value)) { return false }
                decoded.append(value)
                index += 3
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        guard String(validating: decoded, as: UTF8.self) != nil else { return false }
        var labels = decoded.split(separator: 0x2E, omittingEmptySubsequences: false).map(Array.init)
        if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }  // a trailing dot
        guard let last = labels.last, endsInNumber(last) else { return true }
        return labels.count == 4 && labels.allSatisfy(isOctet)
    }

    /// Dotted-decimal IPv4: four parts, each 0 to 255 without leading zeros.
    static func isIPv4(_ bytes: [UInt8]) -> Bool {
        let parts = bytes.split(separator: 0x2E, omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { isOctet(Array($0)) }
    }

    /// WHATWG's "ends in a number": a label of ASCII digits, or `0x` and hex digits.
    private static func endsInNumber(_ label: [UInt8]) -> Bool {
        if !label.isEmpty, label.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        return label.count >= 2 && label[0] == 0x30 && (label[1] | 0x20) == 0x78 && label.dropFirst(2).allSatisfy(isHex)
    }

    private static func isOctet(_ part: [UInt8]) -> Bool {
        guard (1...3).contains(part.count), part.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        if part.count > 1 && part[0] == 0x30 { return false }
        return part.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
    }

    private static let forbidden = "#%/:<>?@[\\]^|"

    private static func isHex(_ byte: UInt8) -> Bool { hexValue(byte) != nil }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x37
        case 0x61...0x66: return byte - 0x57
        default: return nil
        }
    }
}
