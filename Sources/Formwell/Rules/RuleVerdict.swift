/// What a field's synchronous rules found, as the field stores it: the failing rule's own message
/// is named, not held. A keystroke on an invalid value used to copy that message (a string shared
/// by every form that uses the same catalogue) into its verdict, the field and back out: atomic
/// reference counts that two threads on two forms kept taking from each other.
enum RuleVerdict: Equatable, Sendable {
    /// Nothing to judge: the value is empty.
    case empty
    /// Every rule passes.
    case valid
    /// The failing rule's own message: its `failure`, or its `limitFailure` when the match limits
    /// stopped it (the field's or evaluation's `limitExceeded` says which).
    case ruleFailure
    /// A message of its own: a custom validator's words.
    case invalid(String)
}

extension CompiledRule {
    /// The message this rule's failure says (`RuleVerdict.ruleFailure`).
    func failureMessage(limitExceeded: Bool) -> String { limitExceeded ? limitFailure : failure }
}

extension RuleVerdict {
    /// `body` over the UTF-8 of an invalid verdict's message, read where it is stored; nil when
    /// not `.invalid` (a message of its own). The payload is moved out and put back (binding it with `case .invalid(let m)`
    /// retained and released the string on every snapshot of an invalid field). Nothing is
    /// changed; `body` must not read this verdict.
    @inline(__always)
    mutating func withInvalidMessage<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        switch consume self {
        case .invalid(var message):
            let result = message.withUTF8(body)
            self = .invalid(message)
            return result
        case let other:
            self = other
            return nil
        }
    }
}
