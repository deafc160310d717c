import Testing
@testable import Formwell

@Suite struct URLRuleTests {
    @Test(arguments: [
        ("https://example.com", true), ("http://example.com/path?q=1#top", true), ("HTTPS://EXAMPLE.COM", true),
        ("https://user:pw@example.com:8080/", true), ("http://[::1]/", true), ("http://127.0.0.1", true),
        ("https://münchen.de/straße", true), ("http://a", true), ("https://example.com/%20x", true),
        ("example.com", false), ("www.example.com/path", false), ("https://", false), ("https:///path", false),
        ("ftp://example.com", false), ("mailto:ada@example.com", false), ("http:example.com", false),
        ("https://exa mple.com", false), ("https://example.com/a b", false), ("https://example.com/%zz", false),
        ("https://example.com:80a/", false), ("https://[::1/", false), ("javascript:alert(1)", false),
        ("https://example.com/<script>", false), ("https://example.com\\path", false), (" https://example.com", false),
    ])
    func defaultSchemes(value: String, valid: Bool) throws {
        let expected: Validity = valid ? .valid : .invalid("Enter a valid URL including https://")
        #expect(try strictVerdict([Rule(.url())], value) == expected, "\(value)")
    }

    @Test func internationalCharactersFollowRFC3987() throws {
        // RFC 3987: ucschar everywhere, iprivate in the query only; noncharacters and specials refused.
        // (Built from code points: Swift's literals refuse noncharacters such as U+FDD0.)
        let cases: [(String, UInt32, Bool)] = [
            ("http://a/", 0xE9, true), ("http://a/", 0xFFFD, false), ("http://a/", 0xFDD0, false),
            ("http://a/", 0xFFFE, false), ("http://a/", 0x1FFFE, false), ("http://a/", 0x1F600, true),
            ("http://a/", 0xE000, false), ("http://a/?", 0xE000, true), ("http://a/#", 0xE000, false),
            ("http://a/?q=", 0x10FFFD, true), ("http://a", 0xE000, false), ("http://a/", 0xE0100, false),
            ("http://a/", 0xE1000, true), ("http://a/", 0x85, false),
        ]
        for (prefix, code, valid) in cases {
            let scalar = try #require(Unicode.Scalar(code))
            let value = prefix + String(Character(scalar))
            let expected: Validity = valid ? .valid : .invalid("Enter a valid URL including https://")
            #expect(try strictVerdict([Rule(.url())], value) == expected, "\(prefix) U+\(String(code, radix: 16))")
        }
    }

    @Test func schemesAreAnOptionCaseInsensitive() throws {
        #expect(try strictVerdict([Rule(.url(schemes: ["ftp"]))], "FTP://files.example.com/a") == .valid)
        #expect(try strictVerdict([Rule(.url(schemes: ["ftp"]))], "https://example.com") != .valid)
        #expect(try strictVerdict([Rule(.url(schemes: []))], "ws://example.com/socket") == .valid)
        #expect(try strictVerdict([Rule(.url(schemes: []))], "1ws://example.com") != .valid)
    }
}

@Suite struct PasswordStrengthRuleTests {
    /// Seed 03's scale: length >= 8, [A-Z], [0-9], [^A-Za-z0-9]; each one point.
    @Test(arguments: [
        ("abcdef1!", 3), ("abcdefgh", 1), ("Abcdefgh", 2), ("Abcdefg1", 3), ("Abcdef1!", 4), ("ab1!", 2),
        ("A1!", 3), ("ABCDEFGH", 2), ("aaaaaaa é", 2), ("passwörd", 2), ("pass word", 2), ("👍👍👍👍👍👍👍👍", 2),
        ("👍👍👍👍", 1), ("12345678", 2),
    ])
    func scores(password: String, score: Int) throws {
        var text = password
        let got = text.withUTF8 { PasswordStrength.score(Subject(utf8: $0)) }
        #expect(got == score, "\(password)")
        let message = "Password too weak — add uppercase, numbers, or symbols"
        #expect(try strictVerdict([Rule(.passwordStrength())], password) == (score >= 3 ? .valid : .invalid(message)))
        #expect(try strictVerdict([Rule(.passwordStrength(minScore: 4))], password) == (score >= 4 ? .valid : .invalid(message)))
    }

    @Test func minScoreIsZeroToFour() {
        var form = Form()
        #expect(throws: FormError.invalidArgument("password_strength min_score 5 is out of range (0 to 4)")) {
            try form.addField("p", rules: [Rule(.passwordStrength(minScore: 5))])
        }
    }
}

@Suite struct FormatRuleTests {
    @Test(arguments: [
        ("test@example.com", true), ("a.b+c@sub.example.co", true), ("x@localhost", true), ("!#$%&'*+/=?^_`{|}~-@a", true),
        ("a@b-c.d", true), ("test@-example.com", false), ("test@example-.com", false), ("test@.com", false),
        ("test@example..com", false), ("\"quoted\"@example.com", false), ("té@example.com", false), ("a@ñ", false),
        ("a@[::1]", false), ("test", false), ("@example.com", false), ("a@b@c", false),
    ])
    func htmlEmail(value: String, valid: Bool) throws {
        #expect(try strictVerdict([Rule(.htmlEmail)], value) == (valid ? .valid : .invalid("Invalid email format")), "\(value)")
    }

    @Test(arguments: [
        ("+14155552671", true), ("+442071838750", true), ("+12", true), ("+123456789012345", true),
        ("+1234567890123456", false), ("14155552671", false), ("+04155552671", false), ("+1 415 555 2671", false),
        ("+1-415-555-2671", false), ("+", false), ("+1", false), ("+١٢٣", false),
    ])
    func e164(value: String, valid: Bool) throws {
        #expect(try strictVerdict([Rule(.e164)], value) == (valid ? .valid : .invalid("Invalid phone number")), "\(value)")
    }
}

@Suite struct NumberRuleTests {
    @Test(arguments: [
        ("0", true), ("42", true), ("-7", true), ("+7", true), ("007", true), ("-0", true),
        ("99999999999999999999999999", true), ("1.0", false), ("1e3", false), (" 1", false), ("1 ", false),
        ("1,000", false), ("", true), ("--1", false), ("+", false), ("١٢", false), ("0x10", false),
    ])
    func integerSyntax(value: String, valid: Bool) throws {
        let expected: Validity = value.isEmpty ? .empty : (valid ? .valid : .invalid("Enter a whole number"))
        #expect(try strictVerdict([Rule(.integer())], value) == expected, "\(value)")
    }

    @Test(arguments: [
        ("0.5", true), ("-0.5", true), ("+3.25", true), ("10", true), ("00.10", true), (".5", false), ("5.", false),
        ("1,5", false), ("1e-3", false), ("1.2.3", false), ("NaN", false), ("Infinity", false),
    ])
    func decimalSyntax(value: String, valid: Bool) throws {
        #expect(try strictVerdict([Rule(.decimal())], value) == (valid ? .valid : .invalid("Enter a number")), "\(value)")
    }

    /// Bounds compare exact decimal values: 0.1 + 0.2 style rounding cannot happen.
    @Test func boundsAreExactAndInclusive() throws {
        let price = [Rule(.decimal(min: "0.1", max: "0.3"))]
        let message = "Enter a number from 0.1 to 0.3"
        for (value, valid) in [("0.1", true), ("0.3", true), ("0.30000000000000000001", false), ("0.09999999999999999999", false),
                               ("0.2", true), ("0.100", true), ("-0.2", false), ("1", false)] {
            #expect(try strictVerdict(price, value) == (valid ? .valid : .invalid(message)), "\(value)")
        }
        let age = [Rule(.integer(min: "-5", max: "12345678901234567890"))]
        for (value, valid) in [("-5", true), ("-6", false), ("12345678901234567890", true), ("12345678901234567891", false),
                               ("-0", true), ("0012", true), ("-00005", true), ("-000006", false)] {
            #expect(try strictVerdict(age, value) == (valid ? .valid : .invalid("Enter a whole number from -5 to 12345678901234567890")), "\(value)")
        }
    }

    @Test func badBoundsAreRefused() {
        var form = Form()
        #expect(throws: FormError.invalidArgument("integer min '1.5' is not an integer")) {
            try form.addField("n", rules: [Rule(.integer(min: "1.5"))])
        }
        #expect(throws: FormError.invalidArgument("integer min 10 is greater than max 9")) {
            try form.addField("n", rules: [Rule(.integer(min: "10", max: "9"))])
        }
        #expect(throws: FormError.invalidArgument("decimal max '1e3' is not a decimal number (digits, an optional sign and fraction, no exponent)")) {
            try form.addField("n", rules: [Rule(.decimal(max: "1e3"))])
        }
    }
}

@Suite struct ListAndPeerRuleTests {
    @Test func oneOfAndNoneOfCompareAsUnicodeText() throws {
        let sizes = [Rule(.oneOf(["S", "M", "L", "café"]))]
        #expect(try strictVerdict(sizes, "M") == .valid)
        #expect(try strictVerdict(sizes, "m") == .invalid("Must be one of: S, M, L, café"))
        #expect(try strictVerdict(sizes, "cafe\u{301}") == .valid)  // canonically equivalent to "café"
        let reserved = [Rule(.noneOf(["admin", "root"]))]
        #expect(try strictVerdict(reserved, "admin") == .invalid("This value is not allowed"))
        #expect(try strictVerdict(reserved, "Admin") == .valid)
        #expect(try strictVerdict([Rule(.oneOf([]))], "x") == .invalid("Must be one of: "))
    }

    @Test func notEqualIsRejudgedWhenTheOtherFieldChanges() throws {
        var form = Form()
        try form.addField("old", label: "Current password")
        try form.addField("new", rules: [.required(), Rule(.notEqual("old"))])
        try form.setValue("secret", for: "old")
        try form.setValue("secret", for: "new")
        #expect(try form.state(of: "new").input == .inactive(.invalid("Must differ from Current password")))
        #expect(try form.state(of: "new").failingRule == 1)
        try form.setValue("other", for: "old")
        #expect(try form.state(of: "new").input == .inactive(.valid))
        // An empty other field differs from any value.
        try form.setValue("", for: "old")
        #expect(try form.state(of: "new").input == .inactive(.valid))
        #expect(throws: FormError.invalidArgument("a not_equal rule of field 'new' cannot name the field itself")) {
            try form.addRule(Rule(.notEqual("new")), to: "new")
        }
        #expect(throws: FormError.invalidArgument("field 'new' has a not_equal rule naming 'old'; remove 'new' first")) {
            try form.removeField("old")
        }
    }
}

@Suite struct LengthUnitTests {
    /// "e\u{301}👨‍👩‍👧" : 2 graphemes, 2 + 5 = 7 scalars, 2 + 8 = 10 UTF-16 units, 3 + 18 = 21 bytes.
    static let text = "e\u{301}👨‍👩‍👧"

    @Test(arguments: [(LengthUnit.graphemes, 2), (.scalars, 7), (.utf16, 10), (.bytes, 21)])
    func counts(unit: LengthUnit, count: Int) throws {
        var value = LengthUnitTests.text
        #expect(value.withUTF8 { unit.count(Subject(utf8: $0)) } == count)
        #expect(try strictVerdict([Rule(.maxLength(count, unit: unit))], LengthUnitTests.text) == .valid)
        #expect(try strictVerdict([Rule(.maxLength(count - 1, unit: unit))], LengthUnitTests.text) != .valid)
        #expect(try strictVerdict([Rule(.minLength(count, unit: unit))], LengthUnitTests.text) == .valid)
        #expect(try strictVerdict([Rule(.minLength(count + 1, unit: unit))], LengthUnitTests.text) != .valid)
    }

    @Test func boundsAreCheckedPerUnit() throws {
        var form = Form()
        // 10 bytes at least and 5 graphemes at most do not contradict each other.
        try form.addField("a", rules: [Rule(.minLength(10, unit: .bytes)), Rule(.maxLength(5))])
        #expect(throws: FormError.invalidArgument("min_length 10 is greater than max_length 9 for field 'b'")) {
            try form.addField("b", rules: [Rule(.minLength(10, unit: .utf16)), Rule(.maxLength(9, unit: .utf16))])
        }
    }
}
