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

extension Validity {
    /// `body` over the UTF-8 of an invalid validity's message, read where it is stored; nil when
    /// not invalid. The payload is moved out and put back (binding it with `case .invalid(let m)`
    /// retained and released the string on every snapshot of an invalid field). Nothing is
    /// changed; `body` must not read this validity.
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
