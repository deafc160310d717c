/// One field as the form stores it: its definition, its current value and where it stands.
struct Field: Sendable {
    let id: String
    let label: String?
    let initialValue: String
    var rules: [CompiledRule] = []
    var value: String
    /// The verdict of every rule but `required` on `value` (`.empty` when the value is empty),
    /// refreshed by each event so that queries never run a validator.
    var outcome: Validity = .empty
    /// Whether `outcome` comes from a pattern that hit its match limits.
    var limitExceeded = false
    var input: InputState = .idle
    var touched = false

    init(id: String, label: String?, initialValue: String) {
        self.id = id
        self.label = label
        self.initialValue = initialValue
        self.value = initialValue
    }

    /// How other fields' messages name this one.
    var displayName: String { label ?? id }

    /// The message a required rule gives for an empty value, or nil when the field is optional.
    var requiredMessage: String? {
        for rule in rules {
            if case .required = rule.check { return rule.message ?? DefaultMessages.required }
        }
        return nil
    }
}
