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
        forgetPosition(removed)
        changeCount &+= 1
    }
}
