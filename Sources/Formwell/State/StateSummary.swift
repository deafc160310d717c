/// A field's state as plain values (no strings): what `Form.readState(at:_:)` hands out beside
/// the texts, so a reader that copies them elsewhere (the C snapshot) retains nothing.
public struct StateSummary: Equatable, Sendable {
    public enum ValidityKind: Sendable { case empty, valid, invalid }
    public enum DisplayKind: Sendable { case none, valid, error }

    public let phase: Phase
    public let validity: ValidityKind
    public let display: DisplayKind
    public let touched: Bool
    public let limitExceeded: Bool
    /// Index of the rule whose message the input validity carries; nil unless invalid.
    public let failingRule: Int?
}
