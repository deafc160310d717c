/// What running a field's rules found.
struct Evaluation: Equatable, Sendable {
    let validity: Validity
    /// A pattern hit its match limits: the value was not judged, only refused.
    let limitExceeded: Bool

    init(_ validity: Validity, limitExceeded: Bool = false) {
        self.validity = validity
        self.limitExceeded = limitExceeded
    }
}
