/// What a field's synchronous rules found, as the field and its evaluation store it: plain values,
/// the failing rule's own message named, not held. Holding it would make a keystroke on an invalid
/// value copy that message (a string shared by every form that uses the same catalogue) into its
/// verdict, the field and back out: atomic reference counts that two threads on two forms take from
/// each other; and a verdict with a string in it is copied and destroyed through outlined functions
/// even when it holds none.
enum RuleVerdict: Sendable {
    /// Nothing to judge: the value is empty.
    case empty
    /// Every rule passes.
    case valid
    /// The failing rule's own message: its `failure`, or its `limitFailure` when the match limits
    /// stopped it (the field's or evaluation's `limitExceeded` says which).
    case ruleFailure
    /// A message of its own (a custom validator's words), kept beside the verdict (`words`).
    case worded
}

/// One rule's failure as it is found: its own message, or words of its own.
enum RuleFailure: Equatable, Sendable {
    case own
    case worded(String)
}

extension CompiledRule {
    /// The message this rule's failure says (`RuleVerdict.ruleFailure`).
    func failureMessage(limitExceeded: Bool) -> String { limitExceeded ? limitFailure : failure }
}
