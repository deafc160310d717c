/// The pattern sources behind the catalogue's pattern kinds, matched against the whole value.
enum BuiltInPatterns {
    /// Seed 02's `isValidEmail` pattern, verbatim (NSPredicate MATCHES is a whole-value match).
    static let email = "[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,64}"
    /// Seed 02's `^\d{10}$`, with ASCII digits only: PCRE2's `\d` without UCP is ASCII, and a phone
    /// number typed with other scripts' digits is not what a dialler takes.
    static let phone = "[0-9]{10}"
    /// The HTML Living Standard's "valid e-mail address" regex (input type=email), verbatim but for
    /// the `^…$` anchors (every pattern here matches the whole value) and the `\/` escape.
    static let htmlEmail = "[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*"
    /// E.164: a plus, then a country code and number of at most 15 digits in all, the first not 0
    /// (seed 03's `^\+?[1-9]\d{1,14}$` with the plus required, so the country code is never guessed).
    static let e164 = "\\+[1-9][0-9]{1,14}"
}
