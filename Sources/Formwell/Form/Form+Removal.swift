/// Removing a field from a live form.
extension Form {
    /// Removes the field. Refused (nothing changes) while another field's rule names it (`matches`,
    /// `not_equal`, the conditional kinds): remove that field first. Later fields' indices move down
    /// by one; if it had focus, no field has.
    public mutating func removeField(_ id: String) throws(FormError) {
        let removed = try position(of: id)
        for (position, field) in fields.enumerated() where position != removed {
            for rule in field.rules where rule.peerPosition == removed {
                throw .invalidArgument("field '\(field.id)' has a \(rule.descriptor.name) rule naming '\(id)'; remove '\(field.id)' first")
            }
        }
        cancelAsync(removed)
        fields.remove(at: removed)
        for position in fields.indices {
            fields[position].rules = fields[position].rules.map { $0.afterRemoving(position: removed) }
            fields[position].dependents = fields[position].dependents.compactMap { dependent in
                dependent == removed ? nil : (dependent > removed ? dependent - 1 : dependent)
            }
        }
        positions = [:]
        for (position, field) in fields.enumerated() { positions[field.id] = position }
        if let focused = focusedPosition {
            focusedPosition = focused == removed ? nil : (focused > removed ? focused - 1 : focused)
        }
        changeCount &+= 1
    }
}
