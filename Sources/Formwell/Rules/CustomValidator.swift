/// A host-supplied check: a Swift closure, or (through the C ABI) a C function and its context.
public struct CustomValidator: Sendable {
    /// What a custom check answers.
    public enum Verdict: Equatable, Sendable {
        case valid
        /// Invalid. The field's message is the rule's `message` if it has one, else this message,
        /// else "Invalid value".
        case invalid(String?)
    }

    /// A custom check that throws makes the operation that ran it fail with `FormError.callbackFailed`
    /// and leaves the form unchanged.
    let check: @Sendable (String) throws -> Verdict
    /// The name a spec refers to it by (`{"rule": "custom", "name": …}`); nil for an anonymous check,
    /// which a form holding it cannot export as a spec.
    public let name: String?

    public init(name: String? = nil, _ check: @escaping @Sendable (String) throws -> Verdict) {
        self.name = name
        self.check = check
    }

    /// The same check under another name.
    func named(_ name: String) -> CustomValidator {
        CustomValidator(name: name, check)
    }
}
