/// Where one asynchronous rule of a field stands for the field's current value. Any change of the
/// value (or of its synchronous verdict) sends every rule back to `idle`.
enum AsyncStatus: Equatable, Sendable {
    /// Not needed (the value is empty or fails a synchronous rule), or not yet scheduled.
    case idle
    /// Waiting for its debounce to pass: not yet handed out, so it may be replaced silently.
    case scheduled(id: UInt64, due: UInt64)
    /// Handed out, its result awaited.
    case inFlight(id: UInt64, due: UInt64)
    case valid
    case invalid(String)
    case failed(String)
}
