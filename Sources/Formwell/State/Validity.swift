/// How a field's value fares against its rules, as seeds 01 and 02 describe it.
public enum Validity: Equatable, Hashable, Sendable {
    /// Nothing to judge: the value is empty (or the field is idle).
    case empty
    /// Every rule passes.
    case valid
    /// The first failing rule's message.
    case invalid(String)
    /// Every synchronous rule passes; an asynchronous check has not answered yet.
    case pending

    /// The message of an invalid validity, else nil.
    public var message: String? {
        if case .invalid(let message) = self { return message }
        return nil
    }
}
