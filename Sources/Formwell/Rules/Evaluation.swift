/// What running a field's rules found.
struct Evaluation: Equatable, Sendable {
    /// The verdict, the failing rule's message named rather than held (`RuleVerdict`).
    let verdict: RuleVerdict
    /// A pattern hit its match limits: the value was not judged, only refused.
    let limitExceeded: Bool
    /// Index of the rule that failed, when `verdict` is a failure.
    let rule: Int?
    /// Error mode `all`: the failures after `rule`, nil when there are none. One reference, not
    /// two arrays: every keystroke destroys its verdict, and releasing two empty arrays was two
    /// calls into the runtime.
    var later: LaterFailures?
    /// On an empty value: the conditional rule (`required_if`, …) that makes the field required now.
    var requirement: Int?

    init(_ verdict: RuleVerdict, limitExceeded: Bool = false, rule: Int? = nil) {
        self.verdict = verdict
        self.limitExceeded = limitExceeded
        self.rule = rule
    }
}

/// The failures after the first (error mode `all`): their messages and codes, in rule order.
final class LaterFailures: Equatable, Sendable {
    let messages: [String]
    let codes: [String]

    init(messages: [String], codes: [String]) {
        (self.messages, self.codes) = (messages, codes)
    }

    static func == (a: LaterFailures, b: LaterFailures) -> Bool { a.messages == b.messages && a.codes == b.codes }
}
