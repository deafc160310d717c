/// Messages that are not a rule kind's (those are the catalogue's templates, RuleCatalog.swift).
enum DefaultMessages {
    /// What `required` says (also the conditional kinds): read by the form for its required rule.
    static let required = "This field is required"
    /// A custom or asynchronous check that gives no message of its own.
    static let custom = "Invalid value"
    /// An asynchronous check the host could not make.
    static let asyncError = "Could not check this value"
}

extension DefaultMessages {
    /// Not a rule's verdict: PCRE2 gave up under `MatchLimits`, so the value cannot be called valid.
    static let patternLimit = "This value is too complex to check"
}
