/// Seed 01's enum-driven field state: a phase, and for focused / inactive fields a validity.
/// Illogical combinations (idle with a verdict) cannot be expressed.
public enum InputState: Equatable, Hashable, Sendable {
    case idle
    case focused(Validity)
    case inactive(Validity)

    public var phase: Phase {
        switch self {
        case .idle: return .idle
        case .focused: return .focused
        case .inactive: return .inactive
        }
    }

    /// Seed 02's accessor: an idle field reads as `.empty`.
    public var validity: Validity {
        switch self {
        case .idle: return .empty
        case .focused(let validity), .inactive(let validity): return validity
        }
    }
}
