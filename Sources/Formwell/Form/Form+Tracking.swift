/// Change tracking (seed 03's `@Observable`): every event that changes a field's observable state
/// stamps the field with the next revision, so a host re-renders only the fields that changed.
extension Form {
    /// What an event's fields looked like before it: compared by `record` afterwards.
    struct Tracking {
        let positions: [Int]
        let tracked: [Field.Tracked]
        let values: [FieldValue]
    }

    func tracking(_ positions: [Int]) -> Tracking {
        Tracking(positions: positions,
                 tracked: positions.map { fields[$0].tracked(in: mode) },
                 values: positions.map { fields[$0].shownValue })
    }

    /// Stamps the fields whose state differs from `before` (and `alsoChanged`) with the next
    /// revision, which becomes the form's when anything (or the form's own state) changed.
    mutating func record(_ before: Tracking, formChanged: Bool = false, alsoChanged: [Int] = []) {
        let next = changeCount &+ 1
        var changed = formChanged
        for (slot, position) in before.positions.enumerated() where fields.indices.contains(position) {
            if fields[position].tracked(in: mode) != before.tracked[slot]
                || !FieldValue.same(fields[position].shownValue, before.values[slot]) {
                fields[position].changedAt = next
                changed = true
            }
        }
        for position in alsoChanged where fields.indices.contains(position) {
            fields[position].changedAt = next
            changed = true
        }
        if changed { changeCount = next }
    }

    /// A counter that goes up with every event that changes a field's observable state (value,
    /// phase, validity, display, messages, flags, presentation) or the form's (submit count, modes).
    public var revision: UInt64 { changeCount }

    /// The fields, in registration order, whose observable state changed after `revision`.
    public func changedFieldIDs(since revision: UInt64) -> [String] {
        fields.filter { $0.changedAt > revision }.map(\.id)
    }

    /// Indices of `changedFieldIDs(since:)`.
    public func changedFieldIndices(since revision: UInt64) -> [Int] {
        fields.indices.filter { fields[$0].changedAt > revision }
    }
}
