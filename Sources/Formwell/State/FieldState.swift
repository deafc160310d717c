/// Everything a view needs to draw one field, as a value.
public struct FieldState: Equatable, Hashable, Sendable {
    public let id: String
    public let label: String?
    /// The value as it was set (typed): what a view shows back.
    public let value: String
    /// The value the rules judged: `value` after the field's normalisers (the same text when it has
    /// none); what `Form.values`, batches and submissions use.
    public let normalizedValue: String
    /// The field is secret (`Form.addField(secret:)`): its value is never echoed outside `value`.
    public let secret: Bool
    /// Seeds 01/02: phase and validity (lenient while focused in two-stage mode, strict otherwise),
    /// as the field's validation mode shows them.
    public let input: InputState
    /// Seed 03: what to surface, `.none` until touched.
    public let display: DisplayState
    /// Blurred once, or touched by touch / touchAll / validate; cleared by reset.
    public let touched: Bool
    /// The current verdict is "This value is too complex to check": a pattern hit its match limits.
    public let limitExceeded: Bool
    /// Index (order of addition) of the rule whose message `message` is; nil unless invalid (and
    /// for an error set from outside).
    public let failingRule: Int?

    // Flags (Final Form's set).
    /// Has had focus since it was added or the form was reset.
    public let visited: Bool
    /// The value differs from the initial value (byte for byte).
    public let dirty: Bool
    public var pristine: Bool { !dirty }
    /// The initial value (what `reset()` restores).
    public let initial: String
    /// A set-value changed the value since the field last took part in a validate.
    public let modifiedSinceSubmit: Bool
    /// An error set from outside (`Form.setError`) is in force.
    public let externalError: Bool
    /// The validity's messages in rule order: one in error mode `first`, every failing rule's in `all`.
    public let errors: [String]
    /// The stable code of the failure `message` reports (`min_length`; "" unless invalid) and its
    /// parameters as a JSON object (`{"length":8,"unit":"graphemes"}`; "{}" for none).
    public let code: String
    public let params: String
    /// The same for the display's message (they differ when, say, a focused empty required field
    /// shows its error while its lenient validity is empty).
    public let displayCode: String
    public let displayParams: String
    /// The code of each of `errors`.
    public let errorCodes: [String]
    /// The mode the field is judged in (its own, else the form's).
    public let mode: ValidationMode

    // Presentation (seed 01) and accessibility (seed 03).
    /// Seed 01's tint of the input state.
    public let tint: Tint
    /// Seed 01's floating label: resting inside the field only when idle and empty.
    public let labelRaised: Bool
    /// Seed 01's thicker stroke: the field has focus.
    public let emphasized: Bool
    /// A prompt to correct the field while the display is an error, else "".
    public let accessibilityHint: String
    /// The form revision at which this state last changed (`Form.changedFieldIDs(since:)`).
    public let revision: UInt64

    public var phase: Phase { input.phase }
    public var validity: Validity { input.validity }
    /// The message of the input validity (what seed 02's view prints), else nil.
    public var message: String? { input.validity.message }
    /// How the field is named to people: its label, else its id.
    public var name: String { label ?? id }
    /// Seed 03's accessibility value: the error text while the display is an error, else "".
    public var accessibilityValue: String { display.message ?? "" }

    /// Reads the field through the pointer (one copy of it) in a form whose mode is `formMode`.
    init(_ field: UnsafePointer<Field>, formMode: ValidationMode) {
        let field = field.pointee
        let shown = field.shown(in: formMode)
        id = field.id
        label = field.label
        value = field.shownValue.string
        normalizedValue = field.value.string
        secret = field.secret
        let validity: Validity
        switch shown.validity {
        case .empty: validity = .empty
        case .valid: validity = .valid
        case .invalid: validity = .invalid(shown.message)
        case .pending: validity = .pending
        }
        switch field.phase {
        case .idle: input = .idle
        case .focused: input = .focused(validity)
        case .inactive: input = .inactive(validity)
        }
        switch shown.display {
        case .none: display = .none
        case .valid: display = .valid
        case .error: display = .error(shown.displayMessage)
        }
        touched = field.touched
        limitExceeded = field.limitExceeded
        failingRule = shown.failingRule
        visited = field.visited
        dirty = field.dirty
        initial = field.initialValue
        modifiedSinceSubmit = field.modifiedSinceSubmit
        externalError = field.externalError != nil
        errors = shown.errors
        code = shown.code
        params = shown.params
        displayCode = shown.display == .error ? shown.displayCode : ""
        displayParams = shown.display == .error ? shown.displayParams : "{}"
        errorCodes = shown.errorCodes
        mode = field.mode(in: formMode)
        tint = Tint(phase: field.phase, validity: shown.validity)
        labelRaised = !(field.phase == .idle && field.shownValue.isEmpty)
        emphasized = field.phase == .focused
        accessibilityHint = shown.hint
        revision = field.changedAt
    }
}
