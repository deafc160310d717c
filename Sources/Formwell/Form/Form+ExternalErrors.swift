/// Errors set from outside (seed 03's "manual state update", HTML's setCustomValidity, a server's
/// "email already registered"): they override the field's rules until its value changes.
extension Form {
    /// The field reads invalid with `message` (shown once touched) until a set-value changes its
    /// value, `clearError`, `clearErrors` or a reset. Counts for `isValid` and `firstInvalidFieldID`.
    public mutating func setError(_ message: String, for id: String) throws(FormError) {
        guard !message.isEmpty else { throw .invalidArgument("an external error message must not be empty") }
        try setExternal(message, at: position(of: id))
    }

    /// Removes the field's external error, if any.
    public mutating func clearError(for id: String) throws(FormError) {
        try setExternal(nil, at: position(of: id))
    }

    /// Removes every field's external error.
    public mutating func clearErrors() {
        let positions = fields.indices.filter { fields[$0].externalError != nil }
        let before = tracking(positions)
        for position in positions { applyExternal(nil, at: position) }
        record(before)
    }

    private mutating func setExternal(_ message: String?, at position: Int) throws(FormError) {
        let before = tracking([position])
        applyExternal(message, at: position)
        record(before)
    }

    /// A judged field is re-judged in its stage (an optional empty field with an error is inactive,
    /// not idle); modes that keep a shown copy take a new one, so the error shows at once.
    private mutating func applyExternal(_ message: String?, at position: Int) {
        fields[position].externalError = message
        if fields[position].isJudged { fields[position].rejudge(focused: position == focusedPosition) }
        fields[position].refreshFrozen(in: mode)
    }
}
