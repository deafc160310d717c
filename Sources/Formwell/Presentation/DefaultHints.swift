/// The accessibility hints (seed 03: "set .accessibilityHint to prompt the user to correct the
/// field") a failing rule gives when it has no hint of its own.
enum DefaultHints {
    static let required = "Enter a value"
    static let email = "Enter a valid email address"
    static let phone = "Enter a 10-digit phone number"
    static let regex = "Enter a value in the expected format"
    static let custom = "Correct this field"
    static let external = "Correct this field"
    static let patternLimit = "Enter a shorter or simpler value"
    static func minLength(_ count: Int) -> String { "Enter at least \(count) characters" }
    static func maxLength(_ count: Int) -> String { "Enter at most \(count) characters" }
    static func matches(_ name: String) -> String { "Enter the same value as \(name)" }
}
