/// The pattern sources behind the `email` and `phone` rules, matched against the whole value.
enum BuiltInPatterns {
    /// Seed 02's `isValidEmail` pattern, verbatim (NSPredicate MATCHES is a whole-value match).
    static let email = "[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,64}"
    /// Seed 02's `^\d{10}$`, with ASCII digits only: PCRE2's `\d` without UCP is ASCII, and a phone
    /// number typed with other scripts' digits is not what a dialler takes.
    static let phone = "[0-9]{10}"
}
