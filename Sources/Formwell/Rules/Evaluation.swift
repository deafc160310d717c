/// What running a field's rules found.
struct Evaluation: Equatable, Sendable {
    let validity: Validity
    /// A pattern hit its match limits: the value was not judged, only refused.
    let limitExceeded: Bool
    /// Index of the rule that failed, when `validity` is invalid.
    let rule: Int?
    /// Error mode `all`: the messages of the rules that fail after `rule`, in rule order.
    var moreFailures: [String] = []
    /// Their failure codes, in the same order.
    var moreCodes: [String] = []
    /// On an empty value: the conditional rule (`required_if`, …) that makes the field required now.
    var requirement: Int?

    init(_ validity: Validity, limitExceeded: Bool = false, rule: Int? = nil) {
        self.validity = validity
        self.limitExceeded = limitExceeded
        self.rule = rule
    }
}
