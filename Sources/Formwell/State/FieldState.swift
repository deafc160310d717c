/// Everything a view needs to draw one field, as a value.
public struct FieldState: Equatable, Hashable, Sendable {
    public let id: String
    public let label: String?
    public let value: String
    /// Seeds 01/02: phase and validity (lenient while focused, strict otherwise).
    public let input: InputState
    /// Seed 03: what to surface, `.none` until touched.
    public let display: DisplayState
    /// Blurred once, or touched by touch / touchAll / validate; cleared by reset.
    public let touched: Bool
    /// The current verdict is "This value is too complex to check": a pattern hit its match limits.
    public let limitExceeded: Bool
    /// Index (order of addition) of the rule whose message `message` is; nil unless invalid.
    public let failingRule: Int?

    public var phase: Phase { input.phase }
    public var validity: Validity { input.validity }
    /// The message of the input validity (what seed 02's view prints), else nil.
    public var message: String? { input.validity.message }

    /// Reads the field member by member through the pointer (a borrow: only the strings kept here
    /// are retained, the field is not copied).
    init(_ field: UnsafePointer<Field>) {
        id = field.pointee.id
        label = field.pointee.label
        value = field.pointee.value.string
        touched = field.pointee.touched
        limitExceeded = field.pointee.limitExceeded
        let empty = field.pointee.value.isEmpty
        let outcome = field.pointee.outcome
        let required = field.pointee.requiredMessage
        input = Field.input(phase: field.pointee.phase, isEmpty: empty, outcome: outcome, requiredMessage: required)
        display = Field.display(touched: touched, strictVerdict: Field.strictVerdict(
            isEmpty: empty, outcome: outcome, requiredMessage: required))
        failingRule = Field.failingRule(of: input, isEmpty: empty, requiredRule: field.pointee.requiredRule,
                                        failingRule: field.pointee.failingRule)
    }
}
