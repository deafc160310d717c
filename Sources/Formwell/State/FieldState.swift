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
    /// Reads the field through the pointer (one copy of it, then its own rules of seeds 01–03).
    init(_ field: UnsafePointer<Field>) {
        let field = field.pointee
        id = field.id
        label = field.label
        value = field.value.string
        input = field.input
        display = field.display
        touched = field.touched
        limitExceeded = field.limitExceeded
        failingRule = field.inputFailingRule
    }
}
