/// Where a field is in its interaction cycle (seed 01).
public enum Phase: Int32, Equatable, Hashable, Sendable, CaseIterable {
    /// Waiting for interaction, or left empty and optional.
    case idle = 0
    /// Being edited: the lenient stage applies.
    case focused = 1
    /// Not being edited and judged: the strict stage applies.
    case inactive = 2
}
