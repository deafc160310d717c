import CFormwellTypes
import Formwell
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A custom validator supplied from C: a function, its context and the context's destructor.
/// The destructor runs when the form owning the rule is destroyed, and only once the rule was stored:
/// when adding the rule fails the caller keeps ownership of the context.
final class CValidator: @unchecked Sendable {
    private let validate: fw_validate_fn
    private let context: UnsafeMutableRawPointer?
    private let destroy: fw_destroy_fn?
    /// Set under the form's lock once the rule is stored in the form.
    var ownsContext = false

    init(validate: fw_validate_fn, context: UnsafeMutableRawPointer?, destroy: fw_destroy_fn?) {
        self.validate = validate
        self.context = context
        self.destroy = destroy
    }

    deinit {
        if ownsContext, let destroy { destroy(context) }
    }

    /// Calls the C function. Its message is copied at once (invalid UTF-8 repaired with U+FFFD);
    /// an unknown return value counts as an error, never as a verdict.
    func check(_ value: String) throws(CallbackError) -> CustomValidator.Verdict {
        var message: UnsafePointer<CChar>?
        let verdict = value.withCString { text in
            validate(context, text, value.utf8.count, &message)
        }
        let text = message.map { String(cString: $0) }
        switch verdict {
        case fw_verdict.FW_VERDICT_VALID.rawValue: return .valid
        case fw_verdict.FW_VERDICT_INVALID.rawValue: return .invalid(text)
        case fw_verdict.FW_VERDICT_ERROR.rawValue:
            throw CallbackError(detail: "custom validator reported an error" + (text.map { ": \($0)" } ?? ""))
        default:
            throw CallbackError(detail: "custom validator returned \(verdict), which is not an fw_verdict")
        }
    }
}

struct CallbackError: Error, CustomStringConvertible {
    let detail: String
    var description: String { detail }
}
