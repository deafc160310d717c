/// Where a field is in its interaction cycle (seed 01).
public enum Phase: Equatable, Hashable, Sendable, CaseIterable {
    /// Waiting for interaction, or left empty and optional.
    case idle
    /// Being edited: the lenient stage applies.
    case focused
    /// Not being edited and judged: the strict stage applies.
    case inactive
}
