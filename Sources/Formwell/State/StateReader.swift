/// What a state read (`Form.readState(at:into:)`) hands a field's state to: the plain values
/// and the texts, borrowed for the duration of the call. A protocol rather than a closure so that
/// the read is specialized for each reader.
public protocol StateReader {
    mutating func read(_ summary: StateSummary, _ texts: StateTexts)
}

/// A closure as a `StateReader` (`Form.readState(at:_:)`).
struct ClosureStateReader: StateReader {
    let body: (StateSummary, StateTexts) -> Void

    func read(_ summary: StateSummary, _ texts: StateTexts) { body(summary, texts) }
}
