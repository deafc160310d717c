import Formwell
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads the library's string arguments: NUL-terminated UTF-8 (so an embedded NUL ends the string).
enum CStringInput {
    /// A required string argument; NULL is FW_ERR_NULL_ARGUMENT, malformed UTF-8 FW_ERR_INVALID_UTF8.
    static func required(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(ABIFailure) -> String {
        guard let pointer else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument '\(name)' is NULL") }
        return try decode(pointer, name)
    }

    /// A required string argument as checked UTF-8 bytes, borrowed from the caller for the call
    /// (no String is made: the value path copies the bytes straight into the field). Inlined, its
    /// refusals built out of line: every value passes here.
    @inline(__always)
    static func utf8(_ pointer: UnsafePointer<CChar>?, _ name: StaticString) throws(ABIFailure) -> ValidUTF8 {
        guard let pointer else { throw refused(nil, name) }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                        count: strlen(pointer))
        guard let valid = ValidUTF8(validating: bytes) else { throw refused(bytes, name) }
        return valid
    }

    /// Why `utf8` refused its argument: NULL (`bytes` nil), or ill-formed UTF-8.
    @inline(never)
    private static func refused(_ bytes: UnsafeBufferPointer<UInt8>?, _ name: StaticString) -> ABIFailure {
        guard let bytes else { return ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument '\(name)' is NULL") }
        let offset = ValidUTF8.firstInvalidOffset(bytes) ?? 0
        return ABIFailure(.FW_ERR_INVALID_UTF8,
                          "argument '\(name)' is not valid UTF-8 (first bad byte at offset \(offset))",
                          offset: Int64(offset))
    }

    /// An optional string argument: NULL means absent.
    static func optional(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(ABIFailure) -> String? {
        guard let pointer else { return nil }
        return try decode(pointer, name)
    }

    private static func decode(_ pointer: UnsafePointer<CChar>, _ name: String) throws(ABIFailure) -> String {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                        count: strlen(pointer))
        // Decoding repairs ill-formed input; the bytes came through unchanged exactly when they were
        // valid. (Much faster than the generic `String(validating:as:)` on every keystroke.)
        var text = String(decoding: bytes, as: UTF8.self)
        let unchanged = text.withUTF8 { decoded in
            guard decoded.count == bytes.count else { return false }
            guard let left = decoded.baseAddress, let right = bytes.baseAddress else { return true }
            return memcmp(left, right, decoded.count) == 0
        }
        if unchanged { return text }
        let offset = firstInvalidOffset(bytes)
        throw ABIFailure(.FW_ERR_INVALID_UTF8,
                         "argument '\(name)' is not valid UTF-8 (first bad byte at offset \(offset))",
                         offset: Int64(offset))
    }

    /// Byte offset of the first ill-formed sequence (overlong forms, surrogates and values above
    /// U+10FFFF are ill-formed, as in Swift's own decoder).
    static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return offset
            case .emptyInput: return offset
            }
        }
    }
}
