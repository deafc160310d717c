/// The field states one operation computed, kept apart from the form until every one of them was
/// computed (so a validator that throws halfway leaves the form as it was).
struct FieldChanges {
    private(set) var positions: [Int] = []
    private(set) var fields: [Field] = []

    mutating func add(_ field: Field, at position: Int) {
        positions.append(position)
        fields.append(field)
    }
}
