/// A rule the host checks asynchronously (seed 03's "async check, e.g. unique username"): the engine
/// never calls it. It runs only when every synchronous rule of the field passes on a non-empty
/// value: the engine then records a request, due `debounceMilliseconds` after the value was set on
/// the host's clock, which the host takes (`Form.nextRequest(now:)`), checks however it likes, and
/// resolves (`Form.resolve(_:_:)`).
public struct AsyncRule: Equatable, Sendable {
    /// Seed 03: "debounce by at least 500 ms".
    public static let defaultDebounceMilliseconds: UInt64 = 500

    /// What the host knows the check by (each request carries it).
    public let name: String
    public let debounceMilliseconds: UInt64
    /// Replaces the message the host gives with an invalid verdict.
    public let message: String?
    /// The accessibility hint while this rule's failure is shown; nil: "Correct this field".
    public let hint: String?

    public init(_ name: String, debounceMilliseconds: UInt64 = AsyncRule.defaultDebounceMilliseconds,
                message: String? = nil, hint: String? = nil) {
        self.name = name
        self.debounceMilliseconds = debounceMilliseconds
        self.message = message
        self.hint = hint
    }
}

/// One check the host is asked to perform: on this field's exact value, by the rule of this name.
public struct AsyncRequest: Equatable, Hashable, Sendable {
    /// Unique in the form, increasing; the only handle a result is matched by.
    public let id: UInt64
    public let fieldID: String
    public let fieldIndex: Int
    public let value: String
    public let rule: String
    /// The host time (milliseconds) from which it may be handed out.
    public let due: UInt64
}

/// What the host found.
public enum AsyncVerdict: Equatable, Sendable {
    case valid
    /// The value fails; the message (nil: the rule's own, else "Invalid value").
    case invalid(String?)
    /// The check could not be made (network down, ...): the field reads invalid with this message
    /// (nil: "Could not check this value") until its value changes.
    case error(String?)
}

/// What became of a result.
public enum ResolveOutcome: Equatable, Sendable {
    /// It was the field's current request: its verdict is now the field's.
    case applied
    /// The field's value changed (or the form was reset, or the field removed) since the request was
    /// handed out: the result was dropped.
    case stale
}

/// How a submit ends when asynchronous checks may still be running.
public enum SubmitOutcome: Equatable, Sendable {
    case valid
    case invalid
    /// No field is invalid, but these (ids, registration order) wait for asynchronous checks.
    case pending([String])
}
