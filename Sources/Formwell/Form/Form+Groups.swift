/// Validation groups (seed 02's wizard steps): a field may belong to named groups, and `validate`,
/// `touchAll`, `isValid(in:)` and `firstInvalidFieldID(in:)` can concern one group only.
extension Form {
    static func checkGroupName(_ group: String) throws(FormError) {
        guard !group.isEmpty else { throw .invalidArgument("a group name must not be empty") }
        guard !group.utf8.contains(0) else { throw .invalidArgument("a group name must not contain U+0000 (NUL)") }
    }

    /// The positions of the group's fields in registration order (every field for nil). A group no
    /// field belongs to is an error: a misspelt step name must not validate nothing and pass.
    func positions(in group: String?) throws(FormError) -> [Int] {
        guard let group else { return Array(fields.indices) }
        let members = fields.indices.filter { fields[$0].groups.contains(group) }
        guard !members.isEmpty else { throw .invalidArgument("no field belongs to group '\(group)'") }
        return members
    }

    /// Adds the field to a group (no change if it is already in it).
    public mutating func addGroup(_ group: String, to id: String) throws(FormError) {
        try Form.checkGroupName(group)
        let position = try position(of: id)
        if !fields[position].groups.contains(group) { fields[position].groups.append(group) }
    }

    /// Whether the field belongs to the group.
    public func isMember(_ id: String, of group: String) throws(FormError) -> Bool {
        fields[try position(of: id)].groups.contains(group)
    }

    /// The groups of the field, in the order they were given.
    public func groups(of id: String) throws(FormError) -> [String] { fields[try position(of: id)].groups }

    /// Every group name, in order of first appearance.
    public var groupNames: [String] {
        var names: [String] = []
        for field in fields { for group in field.groups where !names.contains(group) { names.append(group) } }
        return names
    }

    /// `isValid` for the group's fields only.
    public func isValid(in group: String) throws(FormError) -> Bool {
        try positions(in: group).allSatisfy { fields[$0].passesStrictly }
    }

    /// `firstInvalidFieldID` among the group's fields.
    public func firstInvalidFieldID(in group: String) throws(FormError) -> String? {
        try positions(in: group).first { fields[$0].failsStrictly }.map { fields[$0].id }
    }
}
