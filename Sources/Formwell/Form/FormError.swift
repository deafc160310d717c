/// Why a form operation was refused. A throwing operation leaves the form exactly as it was.
public enum FormError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownField(String)
    case duplicateField(String)
    /// An argument out of range or malformed (empty id, negative length, min above max, …).
    case invalidArgument(String)
    /// A regex rule whose pattern PCRE2 refused.
    case invalidPattern(PatternError)
    /// A custom validator threw or reported an error instead of a verdict.
    case callbackFailed(String)
    /// An asynchronous request id the form never issued.
    case unknownRequest(UInt64)
    /// An asynchronous request already resolved, or cancelled long ago (its stale record dropped).
    case requestClosed(UInt64)
    /// Something the engine could not do that no input should cause (e.g. PCRE2 out of memory).
    case internalError(String)

    public var description: String {
        switch self {
        case .unknownField(let id): return "no field with id '\(id)'"
        case .duplicateField(let id): return "a field with id '\(id)' already exists"
        case .invalidArgument(let detail): return detail
        case .invalidPattern(let error): return error.description
        case .callbackFailed(let detail): return detail
        case .unknownRequest(let id): return "no asynchronous request with id \(id)"
        case .requestClosed(let id): return "asynchronous request \(id) was already resolved or cancelled"
        case .internalError(let detail): return "internal error: \(detail)"
        }
    }
}
