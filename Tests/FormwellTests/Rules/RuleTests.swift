import Testing
@testable import Formwell

/// The strict verdict of `rules` on `value`: the validity of an unfocused field set to it.
func strictVerdict(_ rules: [Rule], _ value: String) throws -> Validity {
    var form = Form()
    try form.addField("f", rules: rules)
    try form.setValue(value, for: "f")
    return try form.state(of: "f").validity
}

/// The lenient verdict of `rules` on `value`: the validity of a focused field typed into.
func lenientVerdict(_ rules: [Rule], _ value: String) throws -> Validity {
    var form = Form()
    try form.addField("f", rules: rules)
    try form.focus("f")
    try form.setValue(value, for: "f")
    return try form.state(of: "f").validity
}

@Suite struct RequiredRuleTests {
    @Test(arguments: ["x", " ", "\n", "0", "👍"])
    func nonEmptyPasses(value: String) throws {
        #expect(try strictVerdict([.required()], value) == .valid)
    }

    @Test func emptyFailsWithDefaultMessage() throws {
        var form = Form()
        try form.addField("f", initialValue: "x", rules: [.required()])
        try form.setValue("", for: "f")
        #expect(try form.state(of: "f").input == .inactive(.invalid("This field is required")))
    }

    @Test func customMessageOverridesDefault() throws {
        var form = Form()
        try form.addField("f", initialValue: "x", rules: [.required(message: "Email is required")])
        try form.setValue("", for: "f")
        #expect(try form.state(of: "f").input == .inactive(.invalid("Email is required")))
    }

    @Test("with two required rules the first one's message is used")
    func twoRequired() throws {
        #expect(try strictVerdict([.required(message: "First"), .required(message: "Second")], "") == .invalid("First"))
    }

    @Test("required wins over every other rule on an empty value, wherever it was added")
    func requiredCheckedFirst() throws {
        #expect(try strictVerdict([.minLength(3), .email(), .required(message: "Req")], "") == .invalid("Req"))
    }
}

@Suite struct EmailRuleTests {
    @Test(arguments: [
        "a@b.co", "first.last+tag@sub.example.org", "A_B%c-d@EXAMPLE.COM", "x@y-z.io",
        "user@host.abcdefghij",
    ])
    func valid(value: String) throws {
        #expect(try strictVerdict([.email()], value) == .valid)
    }

    @Test(arguments: [
        "a@b",            // no top-level domain
        "a@b.c",          // one-letter top-level domain
        " a@b.co",        // leading space: the whole value must match
        "a@b.co ",        // trailing space
        "a@b.co\n",       // trailing newline (NSPredicate MATCHES is whole-value)
        "@b.co",          // empty local part
        "a b@c.co",
        "ab.co",
        "a@@b.co",
        "ü@b.co",         // non-ASCII local part
        "a@b.c0",         // digit in the top-level domain
        "mail me at a@b.co",
    ])
    func invalid(value: String) throws {
        #expect(try strictVerdict([.email()], value) == .invalid("Invalid email format"))
    }

    @Test func customMessage() throws {
        #expect(try strictVerdict([.email(message: "Enter a valid email address")], "a@b")
                == .invalid("Enter a valid email address"))
    }

    @Test("the e-mail rule also runs while typing (seed 02 stage 1 runs format checks)")
    func runsWhileTyping() throws {
        #expect(try lenientVerdict([.required(), .email()], "jane@") == .invalid("Invalid email format"))
        #expect(try lenientVerdict([.required(), .email()], "jane@ex.co") == .valid)
    }
}

@Suite struct PhoneRuleTests {
    @Test(arguments: ["0123456789", "9999999999", "5551234567"])
    func valid(value: String) throws {
        #expect(try strictVerdict([.phone()], value) == .valid)
    }

    @Test(arguments: [
        "012345678",          // 9 digits
        "01234567890",        // 11 digits
        "+123456789",         // a plus sign is not a digit
        "+1234567890",
        "012-345-6789",
        "012345678 ",
        "0123456789\n",
        "٠١٢٣٤٥٦٧٨٩",         // Arabic-Indic digits
        "۰۱۲۳۴۵۶۷۸۹",         // Extended Arabic-Indic digits
        "０１２３４５６７８９", // full-width digits
        "abcdefghij",
    ])
    func invalid(value: String) throws {
        #expect(try strictVerdict([.phone()], value) == .invalid("Invalid phone number"))
    }

    @Test func customMessage() throws {
        #expect(try strictVerdict([.phone(message: "Enter a valid phone number")], "123")
                == .invalid("Enter a valid phone number"))
    }
}

@Suite struct LengthRuleTests {
    @Test("length counts grapheme clusters", arguments: [
        ("👨‍👩‍👧", 1),          // family emoji with joiners
        ("e\u{301}", 1),        // e + combining acute accent
        ("é", 1),
        ("日本語", 3),
        ("🇫🇷🇩🇪", 2),         // two flags
        ("abc", 3),
        ("a\r\nb", 3),         // CRLF is one cluster
    ])
    func graphemeCount(value: String, count: Int) throws {
        #expect(try strictVerdict([.minLength(count), .maxLength(count)], value) == .valid)
        #expect(try strictVerdict([.minLength(count + 1)], value)
                == .invalid("Must be at least \(count + 1) characters"))
        if count > 1 {
            #expect(try strictVerdict([.maxLength(count - 1)], value)
                    == .invalid("Must be \(count - 1) \(count - 1 == 1 ? "character" : "characters") or fewer"))
        }
    }

    @Test func minLengthBoundary() throws {
        #expect(try strictVerdict([.minLength(8)], "1234567") == .invalid("Must be at least 8 characters"))
        #expect(try strictVerdict([.minLength(8)], "12345678") == .valid)
        #expect(try strictVerdict([.minLength(8)], "123456789") == .valid)
    }

    @Test func maxLengthBoundary() throws {
        #expect(try strictVerdict([.maxLength(3)], "abc") == .valid)
        #expect(try strictVerdict([.maxLength(3)], "abcd") == .invalid("Must be 3 characters or fewer"))
    }

    @Test("default messages use the singular for one character")
    func singular() throws {
        #expect(try strictVerdict([.maxLength(1)], "ab") == .invalid("Must be 1 character or fewer"))
        #expect(try strictVerdict([.minLength(2)], "a") == .invalid("Must be at least 2 characters"))
        #expect(try strictVerdict([.maxLength(0)], "a") == .invalid("Must be 0 characters or fewer"))
    }

    @Test("minLength 1 is never violated by a non-empty value, and an empty value is not judged")
    func minLengthOne() throws {
        #expect(try strictVerdict([.minLength(1)], "a") == .valid)
        #expect(try strictVerdict([.minLength(1)], "") == .empty)
    }

    @Test func customMessages() throws {
        #expect(try strictVerdict([.minLength(3, message: "At least 3 characters")], "ab")
                == .invalid("At least 3 characters"))
        #expect(try strictVerdict([.maxLength(20, message: "20 characters maximum")], String(repeating: "a", count: 21))
                == .invalid("20 characters maximum"))
    }

    @Test("length rules also run while typing")
    func runWhileTyping() throws {
        #expect(try lenientVerdict([.minLength(8)], "abc") == .invalid("Must be at least 8 characters"))
        #expect(try lenientVerdict([.maxLength(2)], "abc") == .invalid("Must be 2 characters or fewer"))
    }
}

@Suite struct RuleOrderTests {
    @Test("the first failing rule in the order added wins")
    func firstFailureWins() throws {
        // "ab" fails both minLength 3 and the regex; whichever was added first speaks.
        #expect(try strictVerdict([.minLength(3, message: "short"), .regex("[0-9]+", message: "digits")], "ab")
                == .invalid("short"))
        #expect(try strictVerdict([.regex("[0-9]+", message: "digits"), .minLength(3, message: "short")], "ab")
                == .invalid("digits"))
    }

    @Test("a later rule speaks once the earlier ones pass")
    func laterRuleSpeaks() throws {
        let rules: [Rule] = [.minLength(3, message: "short"), .maxLength(5, message: "long"), .regex("[a-z]+", message: "lower")]
        #expect(try strictVerdict(rules, "a") == .invalid("short"))
        #expect(try strictVerdict(rules, "abcdefg") == .invalid("long"))
        #expect(try strictVerdict(rules, "ABC") == .invalid("lower"))
        #expect(try strictVerdict(rules, "abc") == .valid)
    }

    @Test("addRule appends after the existing rules and re-judges the current value")
    func addRuleAppends() throws {
        var form = Form()
        try form.addField("f", rules: [.minLength(3, message: "short")])
        try form.setValue("AB", for: "f")
        #expect(try form.state(of: "f").input == .inactive(.invalid("short")))
        try form.addRule(.regex("[a-z]+", message: "lower"), to: "f")
        #expect(try form.state(of: "f").input == .inactive(.invalid("short")))
        try form.setValue("ABC", for: "f")
        #expect(try form.state(of: "f").input == .inactive(.invalid("lower")))
        try form.addRule(.maxLength(4, message: "long"), to: "f")
        #expect(try form.state(of: "f").input == .inactive(.invalid("lower")))
        try form.setValue("abcde", for: "f")
        #expect(try form.state(of: "f").input == .inactive(.invalid("long")))
    }

    @Test("making a blurred, empty, optional field required judges it like any unfocused empty required field")
    func addRequiredToTouchedIdleField() throws {
        var form = Form()
        try form.addField("f")
        try form.focus("f")
        try form.blur("f")
        #expect(Look(try form.state(of: "f")) == .touchedIdle)
        try form.addRule(.required(), to: "f")
        // Stage 2: not focused + empty + required => .inactive(.invalid("This field is required")),
        // consistent with the display (seed 01: no idle field with a verdict).
        let state = try form.state(of: "f")
        #expect(state.input == .inactive(.invalid("This field is required")))
        #expect(state.display == .error("This field is required"))
        #expect(state.touched)
        #expect(form.isValid == false)
    }

    @Test("addRule on a judged field updates its state at once")
    func addRuleUpdatesState() throws {
        var form = Form()
        try form.addField("f")
        try form.setValue("abc", for: "f")
        #expect(try form.state(of: "f").input == .inactive(.valid))
        try form.addRule(.minLength(5), to: "f")
        #expect(try form.state(of: "f").input == .inactive(.invalid("Must be at least 5 characters")))
        #expect(form.isValid == false)
    }
}
