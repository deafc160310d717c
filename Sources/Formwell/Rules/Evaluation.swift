/// What running a field's rules found.
struct Evaluation: Equatable, Sendable {
    /// The verdict, the failing rule's message named rather than held (`RuleVerdict`).
    let verdict: RuleVerdict
    /// A pattern hit its match limits: the value was not judged, only refused.
    let limitExceeded: Bool
    /// Index of the rule that failed, when `verdict` is a failure.
    let rule: Int?
    /// What few verdicts carry (a custom validator's words, error mode `all`'s later failures),
    /// nil for the rest. One reference, not a string and two arrays: every keystroke destroys its
    /// evaluation, and destroying those costs calls into the runtime even when they are empty.
    private(set) var details: Details?
    /// On an empty value: the conditional rule (`required_if`, …) that makes the field required now.
    var requirement: Int?

    /// A verdict without a failure (empty, valid).
    init(_ verdict: RuleVerdict) {
        self.verdict = verdict
        limitExceeded = false
        rule = nil
    }

    /// Rule `rule`'s failure.
    init(_ failure: RuleFailure, limitExceeded: Bool, rule: Int) {
        switch failure {
        case .own: verdict = .ruleFailure
        case .worded(let text):
            verdict = .worded
            details = Details(words: text)
        }
        self.limitExceeded = limitExceeded
        self.rule = rule
    }

    /// The message of a `.worded` verdict (a custom validator's words), else nil.
    var words: String? { details?.words }

    /// Error mode `all`: the messages of the rules failing after `rule`, and their codes.
    var later: (messages: [String], codes: [String])? {
        guard let details, !details.laterMessages.isEmpty else { return nil }
        return (details.laterMessages, details.laterCodes)
    }

    /// Adds error mode `all`'s later failures (messages and codes, in rule order).
    mutating func setLater(messages: [String], codes: [String]) {
        details = Details(words: details?.words, laterMessages: messages, laterCodes: codes)
    }

    final class Details: Equatable, Sendable {
        let words: String?
        let laterMessages: [String]
        let laterCodes: [String]

        init(words: String?, laterMessages: [String] = [], laterCodes: [String] = []) {
            (self.words, self.laterMessages, self.laterCodes) = (words, laterMessages, laterCodes)
        }

        static func == (a: Details, b: Details) -> Bool {
            a.words == b.words && a.laterMessages == b.laterMessages && a.laterCodes == b.laterCodes
        }
    }
}
