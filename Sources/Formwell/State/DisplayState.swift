/// Seed 03's surfacing view of a field: what a view shows under it.
/// Stays `.none` until the field is touched, so untouched fields are never flagged early.
public enum DisplayState: Equatable, Hashable, Sendable {
    case none
    case valid
    case error(String)

    /// The message of an error, else nil.
    public var message: String? {
        if case .error(let message) = self { return message }
        return nil
    }
}
