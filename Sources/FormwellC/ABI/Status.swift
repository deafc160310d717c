/// Result code of every Formwell function that can fail. `FW_OK` is 0; every failure also leaves a
/// detailed message for the calling thread (see `fw_last_error_message`).
@c public enum fw_status: Int32, Sendable {
    /// Success.
    case FW_OK = 0
    /// A required pointer argument was NULL.
    case FW_ERR_NULL_ARGUMENT = 1
    /// The form handle is NULL, was freed, or was never issued by fw_form_create.
    case FW_ERR_INVALID_HANDLE = 2
    /// No field with that id exists in the form.
    case FW_ERR_UNKNOWN_FIELD = 3
    /// A field with that id already exists in the form.
    case FW_ERR_DUPLICATE_FIELD = 4
    /// A string argument is not valid UTF-8; the detail gives the byte offset (also fw_last_error_offset).
    case FW_ERR_INVALID_UTF8 = 5
    /// PCRE2 refused a pattern; the detail has PCRE2's message, fw_last_error_offset the pattern offset.
    case FW_ERR_INVALID_PATTERN = 6
    /// An argument is out of range or malformed (empty field id, negative length, min above max, ...).
    case FW_ERR_INVALID_ARGUMENT = 7
    /// A custom validator reported an error instead of a verdict; the form is unchanged.
    case FW_ERR_CALLBACK = 8
    /// A failure no input should cause (e.g. out of memory inside PCRE2); the form is unchanged.
    case FW_ERR_INTERNAL = 9
    /// The caller's buffer was too small: it holds a NUL-terminated prefix, and the length out-parameter
    /// the full length needed.
    case FW_ERR_BUFFER_TOO_SMALL = 10
    /// A custom validator called a form that is in use: the form it is validating, or a form another
    /// thread holds (waiting could deadlock). Nothing was done.
    case FW_ERR_BUSY = 11
    /// A form spec was refused: the detail names the JSON path and the problem
    /// (e.g. "fields[2].rules[0].pattern: missing closing parenthesis at offset 3"); nothing was loaded.
    case FW_ERR_INVALID_SPEC = 12
    /// fw_form_resolve was given a request id the form never issued.
    case FW_ERR_UNKNOWN_REQUEST = 13
    /// fw_form_resolve was given a request already resolved, or cancelled long ago; nothing changed.
    case FW_ERR_REQUEST_CLOSED = 14
}

extension fw_status {
    /// Static, NUL-terminated descriptions (the storage of a StaticString lives as long as the library).
    var staticDescription: StaticString {
        switch self {
        case .FW_OK: return "ok"
        case .FW_ERR_NULL_ARGUMENT: return "a required argument is NULL"
        case .FW_ERR_INVALID_HANDLE: return "invalid form handle"
        case .FW_ERR_UNKNOWN_FIELD: return "unknown field"
        case .FW_ERR_DUPLICATE_FIELD: return "duplicate field"
        case .FW_ERR_INVALID_UTF8: return "invalid UTF-8"
        case .FW_ERR_INVALID_PATTERN: return "invalid pattern"
        case .FW_ERR_INVALID_ARGUMENT: return "invalid argument"
        case .FW_ERR_CALLBACK: return "custom validator failed"
        case .FW_ERR_INTERNAL: return "internal error"
        case .FW_ERR_BUFFER_TOO_SMALL: return "buffer too small"
        case .FW_ERR_BUSY: return "form is busy (called from a custom validator)"
        case .FW_ERR_INVALID_SPEC: return "invalid form spec"
        case .FW_ERR_UNKNOWN_REQUEST: return "unknown asynchronous request"
        case .FW_ERR_REQUEST_CLOSED: return "asynchronous request already resolved or cancelled"
        }
    }
}
