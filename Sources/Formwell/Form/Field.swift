/// One field as the form stores it: its definition, its current value and where it stands.
struct Field: Sendable {
    let id: String
    let label: String?
    let initialValue: String
    /// Appended to only through `append` (which keeps `requiredRule`); settable here for `withRules`.
    var rules: [CompiledRule] = []
    var value: FieldValue
    /// The verdict of every rule but `required` on `value` (`.empty` when the value is empty),
    /// refreshed by each event so that queries never run a validator.
    var outcome: Validity = .empty
    /// Index of the rule `outcome` comes from when it is invalid.
    var failingRule: Int?
    /// Whether `outcome` comes from a pattern that hit its match limits.
    var limitExceeded = false
    /// The phase the last judgement put the field in; `input` derives the rest from the stored
    /// verdict (kept apart so an event stores no second copy of the message).
    var phase: Phase = .idle
    var touched = false
    /// Index of the first `required` rule and its message, kept when rules are added (every event
    /// and query reads them); nil when the field is optional.
    private(set) var requiredRule: Int?
    private(set) var requiredMessage: String?
    /// Positions of the fields whose `matches` rule names this one: exactly the fields a change of
    /// this value must re-judge (kept by the form when rules are added).
    var dependents: [Int] = []

    init(id: String, label: String?, initialValue: String) {
        self.id = id
        self.label = label
        self.initialValue = initialValue
        self.value = FieldValue(initialValue)
    }

    /// How other fields' messages name this one.
    var displayName: String { label ?? id }

    mutating func append(_ rule: CompiledRule) {
        if requiredRule == nil, case .required = rule.check {
            requiredRule = rules.count
            requiredMessage = rule.message ?? DefaultMessages.required
        }
        rules.append(rule)
    }

    /// Stores a verdict computed for this field (on `value`, its new value when one was set).
    mutating func store(_ evaluation: Evaluation) {
        outcome = evaluation.validity
        failingRule = evaluation.rule
        limitExceeded = evaluation.limitExceeded
    }
}
