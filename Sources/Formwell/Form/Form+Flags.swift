/// Form-level flags (Final Form's set) and seed 03's screen-reader announcement.
extension Form {
    /// Some field's value differs from its initial value.
    public var isDirty: Bool { fields.contains(where: \.dirty) }

    /// The dirty fields' ids, in registration order.
    public var dirtyFieldIDs: [String] { fields.filter(\.dirty).map(\.id) }

    /// Whole-form submits (`validate()` without a group, `submit(_:)`) since creation or the last reset.
    public var submitCount: Int { submits }

    /// The last whole-form submit found an invalid field (false before any submit).
    public var submitFailed: Bool { lastSubmitFailed }

    /// After a failed submit, what a screen reader should announce about the fields that still fail:
    /// "2 fields need attention: Email, Password" (labels, else ids); "" otherwise.
    public var announcement: String {
        guard lastSubmitFailed else { return "" }
        return catalog.announcement(naming: fields.filter(\.failsStrictly).map(\.displayName))
    }

    /// The field's initial value.
    public func initialValue(of id: String) throws(FormError) -> String { fields[try position(of: id)].initialValue }
}
