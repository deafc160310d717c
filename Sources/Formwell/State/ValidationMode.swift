/// When a field's shown state (validity, display, messages) follows its value: seed 02's two stages,
/// or one of the modes form libraries offer (React Hook Form's `mode`, Vee-Validate's interaction modes).
/// Whatever the mode, the field's live verdict is kept current: `isValid` and `firstInvalidFieldID`
/// always judge the current values.
public enum ValidationMode: Equatable, Hashable, Sendable, CaseIterable {
    /// Seeds 01–02: lenient while focused, strict otherwise, shown on every change.
    case twoStage
    /// Strict on every change, focused or not (errors still surface once touched).
    case onChange
    /// Shown state refreshed only on blur, touch, touch-all, validate and external errors.
    case onBlur
    /// As `onBlur` until the field is touched, then as `onChange`.
    case onTouched
    /// Nothing shown until the field takes part in a validate, then as `onChange`.
    case onSubmit

    /// The spec's and the bindings' name of the mode.
    public var name: String {
        switch self {
        case .twoStage: return "two_stage"
        case .onChange: return "on_change"
        case .onBlur: return "on_blur"
        case .onTouched: return "on_touched"
        case .onSubmit: return "on_submit"
        }
    }

    public init?(name: String) {
        guard let mode = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = mode
    }
}

/// Which failures a field reports: the first failing rule's (seed 02), or every failing rule's.
public enum ErrorMode: Equatable, Hashable, Sendable, CaseIterable {
    case first
    case all

    public var name: String { self == .first ? "first" : "all" }

    public init?(name: String) {
        guard let mode = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = mode
    }
}
