/// Seed 01's `tintColor` as a role: `neutral` (the seed's `.secondary`), `accent` (`.blue`),
/// `error` (`.red`). A host maps roles to its own palette.
public enum Tint: Equatable, Hashable, Sendable, CaseIterable {
    case neutral
    case accent
    case error

    public var name: String {
        switch self {
        case .neutral: return "neutral"
        case .accent: return "accent"
        case .error: return "error"
        }
    }

    /// Seed 01's table: idle is neutral; focused is accent unless invalid; inactive is neutral when
    /// empty, accent when valid; invalid is error in both. Pending (not in the seed) reads as valid does.
    init(phase: Phase, validity: StateSummary.ValidityKind) {
        switch (phase, validity) {
        case (.idle, _): self = .neutral
        case (_, .invalid): self = .error
        case (.focused, _), (.inactive, .valid), (.inactive, .pending): self = .accent
        case (.inactive, .empty): self = .neutral
        }
    }
}
