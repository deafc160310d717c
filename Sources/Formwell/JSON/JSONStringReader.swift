/// Reads one JSON string body (RFC 8259 section 7), shared by `JSONParser` and `JSONRecordScanner`:
/// checks UTF-8, refuses raw control characters and unpaired surrogate escapes, and only copies when
/// the string has escapes (a string without them is a slice of the input).
enum JSONStringReader {
    /// Reads the string whose opening quote is at `quote` (the caller checked that byte). Returns the
    /// index of the closing quote and whether the string had escapes; when it had, its unescaped bytes
    /// were appended to `scratch` (the raw bytes are `bytes[quote + 1 ..< close]` otherwise).
    @inline(__always)
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, quote: Int,
                     into scratch: inout [UInt8]) throws(JSONReadFailure) -> (close: Int, escaped: Bool) {
        let end = bytes.count
        var index = quote + 1
        // Fast path, eight bytes at a time while none of them is a quote, a backslash, a control
        // character or non-ASCII (the usual word tricks: a byte below 0x20, or equal to 0x22 / 0x5C
        // after an XOR, sets its high bit in the mask).
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while end - index >= 8 {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let quotes = word ^ 0x2222_2222_2222_2222
                let backslashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
                let special = ((word &- 0x2020_2020_2020_2020) | (quotes &- 0x0101_0101_0101_0101)
                               | (backslashes &- 0x0101_0101_0101_0101) | word) & 0x8080_8080_8080_8080
                if special != 0 { break }
                index += 8
            }
        }
        // Then byte by byte: plain ASCII and well-formed UTF-8 up to the closing quote.
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return (index, false) }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw controlCharacter(byte, at: index) }
            if byte < 0x80 {
                index += 1
            } else {
                let length = JSONUTF8.sequenceLength(bytes, at: index)
                guard length > 0 else { throw JSONReadFailure(message: "invalid UTF-8 in a string", offset: index) }
                index += length
            }
        }
        guard index < end else { throw JSONReadFailure(message: "unexpected end of input in a string", offset: end) }
        // Slow path from the first backslash: copy what came before, then unescape into `scratch`.
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(quote + 1)..<index]))
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return (index, true) }
            if byte == UInt8(ascii: "\\") {
                index = try unescape(bytes, backslash: index, into: &scratch)
            } else if byte < 0x20 {
                throw controlCharacter(byte, at: index)
            } else if byte < 0x80 {
                scratch.append(byte)
                index += 1
            } else {
                let length = JSONUTF8.sequenceLength(bytes, at: index)
                guard length > 0 else { throw JSONReadFailure(message: "invalid UTF-8 in a string", offset: index) }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
                index += length
            }
        }
        throw JSONReadFailure(message: "unexpected end of input in a string", offset: end)
    }

    /// Appends the character an escape stands for; returns the index after the escape.
    private static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, backslash: Int,
                                 into scratch: inout [UInt8]) throws(JSONReadFailure) -> Int {
        let next = backslash + 1
        guard next < bytes.count else {
            throw JSONReadFailure(message: "unexpected end of input in a string", offset: bytes.count)
        }
        let simple: UInt8
        switch bytes[next] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            return try unicodeEscape(bytes, backslash: backslash, into: &scratch)
        case let other:
            let shown = other >= 0x21 && other < 0x7F ? "'\\\(Character(Unicode.Scalar(other)))'" : "(a backslash before byte 0x\(hex(other)))"
            throw JSONReadFailure(message: "invalid escape \(shown) in a string", offset: backslash)
        }
        scratch.append(simple)
        return next + 1
    }

    /// `\uXXXX`, or a `\uD8xx\uDCxx` surrogate pair; an unpaired surrogate is an error (a Swift
    /// `String`, and the engine's values, can only hold Unicode scalars).
    private static func unicodeEscape(_ bytes: UnsafeBufferPointer<UInt8>, backslash: Int,
                                      into scratch: inout [UInt8]) throws(JSONReadFailure) -> Int {
        guard let unit = JSONUTF8.hex4(bytes, at: backslash + 2) else {
            throw JSONReadFailure(message: "expected four hex digits after '\\u'", offset: backslash)
        }
        switch unit {
        case 0xD800...0xDBFF:
            let low = backslash + 6
            guard bytes.count - low >= 6, bytes[low] == UInt8(ascii: "\\"), bytes[low + 1] == UInt8(ascii: "u"),
                  let second = JSONUTF8.hex4(bytes, at: low + 2), (0xDC00...0xDFFF).contains(second) else {
                throw JSONReadFailure(message: "unpaired surrogate escape \\u\(hex(unit)): a high surrogate must be followed by a \\uDC00-\\uDFFF escape",
                              offset: backslash)
            }
            JSONUTF8.append(0x10000 + ((unit - 0xD800) << 10) + (second - 0xDC00), to: &scratch)
            return low + 6
        case 0xDC00...0xDFFF:
            throw JSONReadFailure(message: "unpaired surrogate escape \\u\(hex(unit)): a low surrogate must follow a high one",
                          offset: backslash)
        default:
            JSONUTF8.append(unit, to: &scratch)
            return backslash + 6
        }
    }

    private static func controlCharacter(_ byte: UInt8, at offset: Int) -> JSONReadFailure {
        JSONReadFailure(message: "control character U+\(hex(UInt32(byte), width: 4)) must be escaped in a string", offset: offset)
    }

    static func hex(_ value: UInt8) -> String { hex(UInt32(value), width: 2) }

    static func hex(_ value: UInt32, width: Int = 4) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// A string or number that cannot be read: why, and the byte offset of the offending byte (the caller
/// turns it into a `JSONError` with a line, a column and a path).
struct JSONReadFailure: Error {
    let message: String
    let offset: Int
}
