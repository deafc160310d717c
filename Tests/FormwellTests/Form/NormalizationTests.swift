import Testing
@testable import Formwell

/// Issue 13's normalisers (seed 02's format preservation) and secret fields (seed 03's secure field).
@Suite struct NormalizationTests {
    @Test("each normaliser on its own", arguments: [
        (Normalizer.trim, " \t a b \u{A0}\n", "a b"),
        (.trim, "   ", ""),
        (.collapseWhitespace, "a  \t b\n\nc ", "a b c "),
        (.lowercase, "ÄBC İ Straße", "äbc i̇ straße"),
        // Final_Sigma: a capital sigma ending a word (case-ignorable marks and apostrophes skipped).
        (.lowercase, "ΟΔΟΣ", "οδος"),
        (.lowercase, "ΟΔΟΣ ΣΑ.", "οδος σα."),
        (.lowercase, "Σ", "σ"),
        (.lowercase, "ΑΣ\u{301}", "ας\u{301}"),
        (.lowercase, "ΑΣ'Β", "ασ'β"),
        (.lowercase, "A.Σ", "a.ς"),  // a full stop is case-ignorable
        // Code points, not grapheme clusters: a combining mark after a space is not white space.
        (.trim, "a \u{301}", "a \u{301}"),
        (.trim, " \u{301}a ", "\u{301}a"),
        (.collapseWhitespace, "a  \u{301}b", "a \u{301}b"),
        (.nfc, "e\u{301}", "é"),
        (.digitsOnly, "(555) 123-4567", "5551234567"),
        (.digitsOnly, "٣ 3", "3"),
    ])
    func single(normalizer: Normalizer, input: String, expected: String) {
        #expect(Array(normalizer.apply(input).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test("normalisers run in the order given")
    func order() {
        #expect(Normalizer.apply([.collapseWhitespace, .trim], to: "  a   b  ") == "a b")
        #expect(Normalizer.apply([.trim, .collapseWhitespace], to: "  a   b  ") == "a b")
        #expect(Normalizer.apply([.digitsOnly, .trim], to: " 1 2 ") == "12")
    }

    @Test("names round-trip; a list with a normaliser twice is refused")
    func names() throws {
        for normalizer in Normalizer.allCases { #expect(Normalizer(name: normalizer.name) == normalizer) }
        #expect(Normalizer(name: "upper") == nil)
        var form = Form()
        #expect(throws: FormError.self) { try form.addField("a", normalizers: [.trim, .trim]) }
        #expect(form.fieldCount == 0)
    }

    @Test("with trim a whitespace-only value fails required; the value typed is kept for display")
    func trimAndRequired() throws {
        var form = Form()
        try form.addField("name", rules: [.required()], normalizers: [.trim])
        try form.setValue("   ", for: "name")
        let state = try form.state(of: "name")
        #expect(state.validity == .invalid("This field is required"))
        #expect(state.value == "   ")
        #expect(state.normalizedValue == "")
        #expect(state.labelRaised)  // the user sees text
        #expect(!form.isValid)
        #expect(form.values["name"] == "")
        // Without trim the same value passes required (the issue's complaint).
        var plain = Form()
        try plain.addField("name", rules: [.required()])
        try plain.setValue("   ", for: "name")
        #expect(plain.isValid)
    }

    @Test("rules judge the normalised value; values and submissions use it")
    func rulesSeeNormalized() throws {
        var form = Form()
        try form.addField("email", rules: [.email()], normalizers: [.trim, .lowercase])
        try form.addField("phone", rules: [.regex("^[0-9]{10}$")], normalizers: [.digitsOnly])
        try form.setValue("  Someone@Example.COM ", for: "email")
        try form.setValue("(555) 123-4567", for: "phone")
        #expect(try form.state(of: "email").validity == .valid)
        #expect(try form.value(of: "email") == "  Someone@Example.COM ")
        #expect(try form.normalizedValue(of: "email") == "someone@example.com")
        #expect(form.values == ["email": "someone@example.com", "phone": "5551234567"])
        #expect(try form.state(of: "phone").validity == .valid)
        #expect(try form.validate())
    }

    @Test("matches compares normalised values; a change of normalisers re-judges dependents")
    func matchesAndSetNormalizers() throws {
        var form = Form()
        try form.addField("email", rules: [.email()])
        try form.addField("confirm", rules: [.matches("email")])
        try form.setValue("a@b.co", for: "email")
        try form.setValue("  A@B.CO", for: "confirm")
        try form.touch("confirm")
        #expect(try form.state(of: "confirm").validity == .invalid("Must match email"))
        try form.setNormalizers([.trim, .lowercase], for: "confirm")
        #expect(try form.state(of: "confirm").validity == .valid)
        #expect(try form.value(of: "confirm") == "  A@B.CO")
        #expect(try form.normalizers(of: "confirm") == [.trim, .lowercase])
        // The other side: normalising the field a matches rule names re-judges the dependent.
        try form.setValue("A@B.CO ", for: "email")
        #expect(try form.state(of: "confirm").validity == .invalid("Must match email"))
        let revision = form.revision
        try form.setNormalizers([.trim, .lowercase], for: "email")
        #expect(try form.state(of: "confirm").validity == .valid)
        #expect(form.changedFieldIDs(since: revision) == ["email", "confirm"])
        try form.setNormalizers([], for: "confirm")
        #expect(try form.normalizedValue(of: "confirm") == "  A@B.CO")
    }

    @Test("dirty and change tracking follow what was typed")
    func trackingFollowsTyping() throws {
        var form = Form()
        try form.addField("name", initialValue: "Ann", normalizers: [.trim])
        #expect(try !form.state(of: "name").dirty)
        let revision = form.revision
        try form.setValue("Ann ", for: "name")  // the normalised value stays "Ann"
        let state = try form.state(of: "name")
        #expect(state.dirty)
        #expect(state.normalizedValue == "Ann")
        #expect(form.changedFieldIDs(since: revision) == ["name"])
        let again = form.revision
        try form.setValue("Ann ", for: "name")
        #expect(form.changedFieldIDs(since: again).isEmpty)
    }

    @Test("initial values, reset and submit are normalised too")
    func initialResetSubmit() throws {
        var form = Form()
        try form.addField("code", initialValue: " ab ", rules: [.required(), .maxLength(2)], normalizers: [.trim])
        #expect(try form.normalizedValue(of: "code") == "ab")
        #expect(try form.value(of: "code") == " ab ")
        #expect(try form.validate())
        #expect(try form.submit(["code": "  xyz  "]) == false)
        #expect(form.values["code"] == "xyz")
        try form.reset(values: ["code": "  q "])
        #expect(try form.value(of: "code") == "  q ")
        #expect(try form.normalizedValue(of: "code") == "q")
        #expect(try !form.state(of: "code").dirty)
    }

    @Test("batches normalise each record's values, matches included")
    func batch() throws {
        var form = Form()
        try form.addField("email", rules: [.required(), .email()], normalizers: [.trim, .lowercase])
        try form.addField("confirm", rules: [.matches("email")], normalizers: [.trim, .lowercase])
        let result = try form.checkMany([
            ["email": " A@B.CO ", "confirm": "a@b.co"],
            ["email": "   ", "confirm": ""],
            ["email": "a@b.co", "confirm": "x@b.co"],
        ])
        #expect(result.isValid(record: 0))
        #expect(!result.isValid(record: 1))
        #expect(result.failingRule(record: 1, field: 0) == 0)  // required, on the trimmed value
        #expect(result.failingRule(record: 2, field: 1) == 0)
    }

    @Test("a secret field's initial value stays out of the exported spec; the flag round-trips")
    func secretExport() throws {
        var form = Form()
        try form.addField("password", initialValue: "hunter22", rules: [.minLength(8)], secret: true)
        try form.addField("name", initialValue: "Ann", normalizers: [.trim, .nfc])
        let json = try form.spec().json
        #expect(!json.contains("hunter22"))
        #expect(json.contains("\"secret\" : true"))
        #expect(json.contains("\"normalize\" : [\n        \"trim\",\n        \"nfc\"\n      ]"))
        let reloaded = try Form(spec: FormSpec(json: json))
        #expect(try reloaded.isSecret("password"))
        #expect(try reloaded.normalizers(of: "name") == [.trim, .nfc])
        #expect(try form.state(of: "password").secret)
        #expect(try form.value(of: "password") == "hunter22")  // the value itself is still the value
    }

    @Test("spec errors name the normaliser or flag at fault")
    func specErrors() {
        #expect(throws: SpecError(path: "fields[0].normalize[1]", problem: "normaliser 'trim' is given twice")) {
            try FormSpec(json: #"{"formwell": 1, "fields": [{"id": "a", "normalize": ["trim", "trim"]}]}"#)
        }
        #expect(throws: SpecError.self) {
            try FormSpec(json: #"{"formwell": 1, "fields": [{"id": "a", "normalize": ["upper"]}]}"#)
        }
        #expect(throws: SpecError(path: "fields[0].secret", problem: "expected true or false, found a string")) {
            try FormSpec(json: #"{"formwell": 1, "fields": [{"id": "a", "secret": "yes"}]}"#)
        }
    }
}
