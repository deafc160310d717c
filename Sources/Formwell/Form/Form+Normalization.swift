/// Normalisers and secret fields, changed after a field was added (seed 02's format preservation,
/// seed 03's secure field).
extension Form {
    /// Replaces the field's normalisers (each at most once, run in the order given; [] for none).
    /// The value set last is normalised again and the field and the fields whose rules compare with
    /// it are re-judged; what was set (`value(of:)`) stays as it is.
    public mutating func setNormalizers(_ normalizers: [Normalizer], for id: String) throws(FormError) {
        try Normalizer.check(normalizers)
        let position = try position(of: id)
        let (newValue, newRaw) = Field.values(of: fields[position].shownValue, normalizers: normalizers)
        let own = try evaluation(at: position, value: newValue)
        let valueAt: (Int) -> FieldValue? = { $0 == position ? newValue : self.currentValue($0) }
        var updates: [(Int, Evaluation)] = []
        for dependent in fields[position].dependents where dependent != position {
            updates.append((dependent, try evaluation(at: dependent, valueAt: valueAt)))
        }
        let before = tracking([position] + updates.map(\.0))
        let normalizedChanged = !FieldValue.same(fields[position].value, newValue)
        let wasEligible = asyncEligible(position)
        fields[position].normalizers = normalizers
        fields[position].value = newValue
        fields[position].raw = newRaw
        fields[position].store(own)
        reconcileAsync(position, valueChanged: normalizedChanged, wasEligible: wasEligible)
        if fields[position].isJudged && fields[position].followsChanges(in: mode) {
            fields[position].rejudge(focused: position == focusedPosition)
        }
        for (dependent, evaluation) in updates {
            let dependentWasEligible = asyncEligible(dependent)
            fields[dependent].store(evaluation)
            reconcileAsync(dependent, valueChanged: false, wasEligible: dependentWasEligible)
            if fields[dependent].isJudged && fields[dependent].followsChanges(in: mode) {
                fields[dependent].rejudge(focused: dependent == focusedPosition)
            }
        }
        // The normalised value is observable (a snapshot's `normalized`) even when nothing else moved.
        record(before, alsoChanged: normalizedChanged ? [position] : [])
    }

    /// The field's normalisers, in order.
    public func normalizers(of id: String) throws(FormError) -> [Normalizer] {
        fields[try position(of: id)].normalizers
    }

    /// Marks the field secret (a password, a token) or not: a secret field's value is never echoed
    /// outside its value (`FieldState.value` / `normalizedValue`, `value(of:)`, `values`): spec
    /// exports leave out its initial value and the bindings print it masked.
    public mutating func setSecret(_ secret: Bool, for id: String) throws(FormError) {
        let position = try position(of: id)
        guard fields[position].secret != secret else { return }
        fields[position].secret = secret
        record(tracking([]), alsoChanged: [position])
    }

    /// Whether the field is secret.
    public func isSecret(_ id: String) throws(FormError) -> Bool {
        fields[try position(of: id)].secret
    }
}
