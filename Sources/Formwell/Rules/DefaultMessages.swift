/// The one place where rule messages are worded. Seed 02 gives the required / e-mail / phone texts,
/// seed 03's examples the length texts.
enum DefaultMessages {
    static let required = "This field is required"
    static let email = "Invalid email format"
    static let phone = "Invalid phone number"
    static let regex = "Invalid format"
    static let custom = "Invalid value"
    /// An asynchronous check the host could not make.
    static let asyncError = "Could not check this value"

    static func minLength(_ count: Int) -> String { "Must be at least \(count) \(characters(count))" }
    static func maxLength(_ count: Int) -> String { "Must be \(count) \(characters(count)) or fewer" }
    static func matches(_ otherName: String) -> String { "Must match \(otherName)" }

    private static func characters(_ count: Int) -> String { count == 1 ? "character" : "characters" }
}

extension DefaultMessages {
    /// Not a rule's verdict: PCRE2 gave up under `MatchLimits`, so the value cannot be called valid.
    static let patternLimit = "This value is too complex to check"
}
