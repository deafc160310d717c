import Formwell
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A refused call: the code returned to C and the detail kept for fw_last_error_message.
struct ABIFailure: Error {
    let status: fw_status
    let message: String
    /// A byte offset the detail refers to (in a pattern, or in an invalid UTF-8 argument), else -1.
    var offset: Int64 = -1

    /// The one mapping from engine errors to C result codes.
    init(_ error: FormError) {
        switch error {
        case .unknownField: status = .FW_ERR_UNKNOWN_FIELD
        case .duplicateField: status = .FW_ERR_DUPLICATE_FIELD
        case .invalidArgument: status = .FW_ERR_INVALID_ARGUMENT
        case .invalidPattern(let pattern):
            status = .FW_ERR_INVALID_PATTERN
            offset = Int64(pattern.offset)
        case .callbackFailed: status = .FW_ERR_CALLBACK
        case .internalError: status = .FW_ERR_INTERNAL
        case .unknownRequest: status = .FW_ERR_UNKNOWN_REQUEST
        case .requestClosed: status = .FW_ERR_REQUEST_CLOSED
        }
        message = ABIFailure.printable(error.description)
    }

    init(_ error: SpecError) {
        status = .FW_ERR_INVALID_SPEC
        message = ABIFailure.printable(error.description)
        offset = error.patternOffset.map(Int64.init) ?? -1
    }

    init(_ status: fw_status, _ message: String, offset: Int64 = -1) {
        self.status = status
        self.message = ABIFailure.printable(message)
        self.offset = offset
    }

    /// A detail quotes what the caller gave (a spec's key, an id): a U+0000 in it is written as
    /// `\u0000`, so the message C reads is never cut short by an embedded NUL.
    static func printable(_ text: String) -> String {
        guard containsNUL(text) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value == 0 { out += "\\u0000" } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// Whether `text` holds a NUL byte: one `memchr` over its UTF-8 (every refused call's message
    /// passes here, so a byte-by-byte loop would show in a fuzzing run).
    private static func containsNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(base, 0, bytes.count) != nil
        }
    }
}

/// Runs the body of an exported function: records the outcome as the calling thread's last error
/// and turns it into a status code. Every exported function that can fail goes through here.
func abiCall(_ body: () throws(ABIFailure) -> Void) -> fw_status {
    do {
        try body()
        ThreadState.current?.pointee.recordSuccess()
        return .FW_OK
    } catch {
        ThreadState.current?.pointee.record(status: error.status, message: error.message, offset: error.offset)
        return error.status
    }
}

/// Runs an engine operation, mapping its error.
func engine<T>(_ body: () throws(FormError) -> T) throws(ABIFailure) -> T {
    do {
        return try body()
    } catch {
        throw ABIFailure(error)
    }
}
