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

    public var phase: Phase { input.phase }
    public var validity: Validity { input.validity }
    /// The message of the input validity (what seed 02's view prints), else nil.
    public var message: String? { input.validity.message }
}
