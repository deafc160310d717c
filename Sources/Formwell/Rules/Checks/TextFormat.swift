/// The text forms the `uuid`, `ip`, `ipv4`, `ipv6`, `hostname` and `luhn` rules accept, judged on
/// the value's UTF-8 (after the field's normalisers). Every form is ASCII: a value with any other
/// byte fails.
enum TextFormat: Sendable, Equatable {
    /// RFC 9562's text form: 32 hex digits as 8-4-4-4-12, either case. With a version (1 to 8), the
    /// version digit must be it and the variant must be RFC 9562's (8, 9, a or b); without, any
    /// digits (the nil and max UUIDs included).
    case uuid(version: Int?)
    /// An IP address in RFC 4291 / dotted-decimal text form (`family`), with a prefix length
    /// (`/24`, `/64`) as `prefix` says.
    case ip(IPFamily, prefix: PrefixPolicy)
    /// An RFC 1123 host name: labels of 1 to 63 ASCII letters, digits and hyphens, not starting or
    /// ending with a hyphen, separated by dots, at most 253 characters in all; no trailing dot.
    case hostname
    /// Digits whose Luhn checksum is 0 (payment card numbers, IMEIs, many national ids): at least 2
    /// ASCII digits and nothing else (a `digits_only` normaliser drops spaces and dashes first).
    case luhn

    enum IPFamily: Sendable, Equatable { case any, v4, v6 }

    /// Whether an address may or must carry a prefix length: the `prefix` parameter's choices.
    enum PrefixPolicy: String, CaseIterable, Sendable, Equatable {
        case forbidden, allowed, required
    }

    func accepts(_ value: String) -> Bool {
        var text = value
        return text.withUTF8 { accepts(bytes: $0) }
    }

    func accepts(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .uuid(let version): return TextFormat.isUUID(bytes, version: version)
        case .ip(let family, let prefix): return TextFormat.isIP(bytes, family: family, prefix: prefix)
        case .hostname: return TextFormat.isHostname(bytes)
        case .luhn: return TextFormat.passesLuhn(bytes)
        }
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isUUID(_ bytes: UnsafeBufferPointer<UInt8>, version: Int?) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == 0x2D else { return false }
            } else if !isHex(byte) {
                return false
            }
        }
        guard let version else { return true }
        // The version is the first digit of the third group, the variant the first of the fourth.
        let versionDigit = bytes[14], variant = bytes[19] | 0x20
        guard isDigit(versionDigit), Int(versionDigit &- 0x30) == version else { return false }
        return variant == 0x38 || variant == 0x39 || variant == 0x61 || variant == 0x62
    }

    static func isIP(_ bytes: UnsafeBufferPointer<UInt8>, family: IPFamily, prefix: PrefixPolicy) -> Bool {
        var address = bytes[...]
        var prefixLength: Int?
        if let slash = bytes.firstIndex(of: 0x2F) {
            guard prefix != .forbidden else { return false }
            let digits = bytes[(slash + 1)...]
            // 1 to 3 digits, no leading zero (but "0" itself).
            guard (1...3).contains(digits.count), digits.allSatisfy(isDigit),
                  digits.count == 1 || digits.first != 0x30 else { return false }
            prefixLength = digits.reduce(0) { $0 * 10 + Int($1 &- 0x30) }
            address = bytes[..<slash]
        } else if prefix == .required {
            return false
        }
        let isV4 = family != .v6 && HostCheck.isIPv4(Array(address))
        // An IPv6 address holds a colon; the check is RFC 3986's IPv6address (RFC 4291's text forms,
        // the dotted IPv4 tail included), with no zone.
        let isV6 = !isV4 && family != .v4 && address.contains(0x3A) && HostCheck.isIPv6(address)
        guard isV4 || isV6 else { return false }
        guard let prefixLength else { return true }
        return prefixLength <= (isV4 ? 32 : 128)
    }

    static func isHostname(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard (1...253).contains(bytes.count) else { return false }
        var labelLength = 0
        var previous: UInt8 = 0x2E
        for byte in bytes {
            if byte == 0x2E {
                guard labelLength > 0, previous != 0x2D else { return false }
                labelLength = 0
            } else {
                let isLetter = byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A
                guard isLetter || isDigit(byte) || byte == 0x2D else { return false }
                if byte == 0x2D && labelLength == 0 { return false }
                labelLength += 1
                guard labelLength <= 63 else { return false }
            }
            previous = byte
        }
        return labelLength > 0 && previous != 0x2D
    }

    static func passesLuhn(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 2 else { return false }
        var sum = 0
        var double = false
        for byte in bytes.reversed() {
            guard isDigit(byte) else { return false }
            var digit = Int(byte &- 0x30)
            if double {
                digit &*= 2
                if digit > 9 { digit &-= 9 }
            }
            sum &+= digit
            double.toggle()
        }
        return sum % 10 == 0
    }
}
