import Testing
@testable import Formwell

/// Message catalogues, locales and failure codes (issue 13 part 2).
@Suite struct LocaleTests {
    @Test func everyShippedCatalogueIsCompleteAndParses() throws {
        #expect(MessageCatalogs.locales.contains("en") && MessageCatalogs.locales.contains("fr"))
        for tag in ["en", "fr"] {
            let catalog = try #require(MessageCatalogs.catalog(for: tag))
            #expect(catalog.locale == tag)
            for code in FailureCode.all {
                #expect(!(catalog.messages[code] ?? []).isEmpty, "\(tag): no message for \(code)")
                #expect(!(catalog.hints[code] ?? []).isEmpty, "\(tag): no hint for \(code)")
            }
            for unit in LengthUnit.allCases { #expect(catalog.units[unit.rawValue] != nil, "\(tag): no noun for \(unit)") }
        }
        // French is a translation, not a copy: no rule message is left in English.
        let english = MessageCatalogs.english, french = try #require(MessageCatalogs.catalog(for: "fr"))
        for code in FailureCode.all { #expect(english.messages[code] != french.messages[code], "\(code) untranslated") }
    }

    @Test func englishIsTodaysMessages() {
        let english = MessageCatalogs.english
        #expect(english.requiredMessage == "This field is required")
        #expect(english.patternLimitMessage == "This value is too complex to check")
        #expect(english.patternLimitHint == "Enter a shorter or simpler value")
        #expect(english.asyncErrorMessage == "Could not check this value")
        #expect(english.externalHint == "Correct this field")
        #expect(english.announcement(naming: ["Email"]) == "1 field needs attention: Email")
        #expect(english.announcement(naming: ["Email", "Password"]) == "2 fields need attention: Email, Password")
    }

    @Test func tagsMatchCaseInsensitivelyAndFallBackBySubtag() {
        #expect(MessageCatalogs.catalog(for: "FR")?.locale == "fr")
        #expect(MessageCatalogs.catalog(for: "fr-CA")?.locale == "fr")
        #expect(MessageCatalogs.catalog(for: "fr_BE")?.locale == "fr")
        #expect(MessageCatalogs.catalog(for: "en-GB-oxendict")?.locale == "en")
        #expect(MessageCatalogs.catalog(for: "xx") == nil)
        #expect(MessageCatalogs.catalog(for: "") == nil)
        #expect(MessageCatalogs.catalog(for: "fr--CA") == nil)
        #expect(MessageCatalogs.catalog(for: "1fr") == nil)
        #expect(MessageCatalogs.catalog(for: "françai") == nil)
    }

    @Test func aFormSpeaksItsLocaleAndKeepsItsCodes() throws {
        var form = Form()
        try form.addField("password", label: "Mot de passe", rules: [.required(), .minLength(8)])
        try form.addField("confirm", rules: [.matches("password")])
        try form.setValue("abc", for: "password")
        try form.blur("password")
        try form.setValue("abd", for: "confirm")
        let english = try form.state(of: "password")
        #expect(english.message == "Must be at least 8 characters")
        #expect(english.code == "min_length" && english.params == #"{"length":8,"unit":"graphemes"}"#)
        try form.setLocale("fr-CA")
        #expect(form.locale == "fr")
        let french = try form.state(of: "password")
        #expect(french.message == "Au moins 8 caractères")
        #expect(french.accessibilityHint == "Saisissez au moins 8 caractères")
        #expect(french.code == english.code && french.params == english.params)
        #expect(try form.state(of: "confirm").message == "Doit correspondre à Mot de passe")
        #expect(try form.state(of: "confirm").params == #"{"field":"password"}"#)
        #expect(form.announcement == "")
        _ = try form.validate()
        #expect(form.announcement == "2 champs à corriger : Mot de passe, confirm")
        // An unknown tag is refused and changes nothing.
        let before = form.states
        #expect(throws: FormError.self) { try form.setLocale("xx") }
        #expect(form.states == before && form.locale == "fr")
        try form.setLocale("en")
        #expect(try form.state(of: "password").message == "Must be at least 8 characters")
    }

    @Test func whatAModeKeepsIsReworded() throws {
        var form = Form()
        form.setValidationMode(.onBlur)
        try form.addField("name", rules: [.required(), .maxLength(2)])
        try form.addField("email", rules: [.email()])
        try form.addField("code")
        try form.setValue("abc", for: "name")
        try form.blur("name")
        try form.setValue("x", for: "email")
        try form.blur("email")
        try form.setValue("ab", for: "code")
        try form.setError("Taken", for: "code")
        try form.blur("code")
        try form.focus("name")
        try form.setValue("abcd", for: "name")  // on_blur: still shows what the blur showed
        try form.setLocale("fr")
        #expect(try form.state(of: "name").message == "Au plus 2 caractères")
        #expect(try form.state(of: "name").accessibilityHint == "Saisissez au plus 2 caractères")
        #expect(try form.state(of: "email").display == .error("Adresse e-mail non valide"))
        #expect(try form.state(of: "code").display == .error("Taken"))  // the host's words stay
        #expect(try form.state(of: "code").accessibilityHint == "Corrigez ce champ")
    }

    @Test func theSpecCarriesTheLocale() throws {
        let spec = try FormSpec(json: #"{"formwell": 1, "locale": "fr", "fields": [{"id": "n", "rules": [{"rule": "max_length", "length": 1}]}]}"#)
        #expect(spec.locale == "fr")
        var form = try Form(spec: spec)
        try form.setValue("ab", for: "n")
        #expect(try form.state(of: "n").message == "Au plus 1 caractère")
        #expect(try form.spec().locale == "fr")
        #expect(try FormSpec(json: form.spec().json) == form.spec())
        #expect(try Form().spec().locale == nil)  // English is not written out
        #expect(throws: SpecError.self) { try FormSpec(json: #"{"formwell": 1, "locale": "xx", "fields": []}"#) }
        #expect(throws: SpecError.self) { try FormSpec(json: #"{"formwell": 1, "locale": 3, "fields": []}"#) }
    }

    @Test func ownMessagesAreTemplatesInEveryLocale() throws {
        var form = try Form(locale: "fr")
        try form.addField("code", label: "Code", rules: [
            Rule(.minLength(2), message: "{label}: {length, plural, one {# signe} other {# signes}} au moins, {foo}"),
        ])
        try form.setValue("a", for: "code")
        #expect(try form.state(of: "code").message == "Code: 2 signes au moins, {foo}")
        #expect(try form.state(of: "code").code == "min_length")
    }

    @Test func codesOfFailuresThatAreNotRules() throws {
        var form = Form()
        try form.addField("email", rules: [.required(), .email()])
        try form.setValue("a@b.co", for: "email")
        try form.setError("Already registered", for: "email")
        var state = try form.state(of: "email")
        #expect(state.code == "external" && state.params == "{}" && state.errorCodes == ["external"])
        try form.clearError(for: "email")
        try form.setValue("", for: "email")
        try form.focus("email")
        try form.blur("email")
        try form.focus("email")
        state = try form.state(of: "email")
        // Focused and empty: lenient validity (no code), but the touched display shows `required`.
        #expect(state.code == "" && state.displayCode == "required" && state.displayParams == "{}")
        var limited = Form()
        try limited.setMatchLimits(MatchLimits(matchLimit: 1000, depthLimit: 1000, heapLimitKiB: 1000, timeLimitMicroseconds: 1_000_000))
        try limited.addField("x", rules: [.regex("^(a+)+$")])
        try limited.setValue(String(repeating: "a", count: 40) + "b", for: "x")
        state = try limited.state(of: "x")
        #expect(state.limitExceeded && state.code == "pattern_limit" && state.message == "This value is too complex to check")
        let batch = try limited.checkMany([["x": String(repeating: "a", count: 40) + "b"], ["x": "ab"]], threads: 1)
        #expect(batch.code(record: 0, field: 0) == "pattern_limit")
        #expect(batch.code(record: 1, field: 0) == "regex" && batch.params(record: 1, field: 0) == #"{"pattern":"^(a+)+$"}"#)
    }

    @Test func addedCataloguesFallBackToEnglish() throws {
        let catalog = try MessageCatalogs.add(json: #"""
            {"locale": "de-ch", "plurals": "one_is_1", "failures": {"required": {"message": "Pflichtfeld"}}}
            """#)
        #expect(catalog.locale == "de-CH")  // BCP 47's conventional case
        var form = try Form(locale: "DE_ch")
        try form.addField("a", rules: [.required(), .email()])
        _ = try form.validate()
        #expect(try form.state(of: "a").message == "Pflichtfeld")
        #expect(try form.state(of: "a").accessibilityHint == "Enter a value")  // English fills the gaps
        try form.setValue("x", for: "a")
        #expect(try form.state(of: "a").message == "Invalid email format")
        #expect(throws: SpecError.self) { try MessageCatalogs.add(json: #"{"locale": "de", "failures": {"nope": {}}}"#) }
        #expect(throws: SpecError.self) { try MessageCatalogs.add(json: #"{"locale": "de", "plurals": "dual"}"#) }
        #expect(throws: SpecError.self) { try MessageCatalogs.add(json: "[1, 2") }
        // C reads texts up to a NUL; a placeholder the failure has no value for would leave a
        // message empty; the shipped catalogues mean one thing everywhere.
        #expect(throws: SpecError(path: "failures.required.message", problem: "must not contain U+0000 (NUL)")) {
            try MessageCatalogs.add(json: #"{"locale": "zz", "failures": {"required": {"message": "a\u0000b"}}}"#)
        }
        #expect(throws: SpecError.self) { try MessageCatalogs.add(json: #"{"locale": "zz", "list_separator": "\u0000"}"#) }
        #expect(throws: SpecError(path: "failures.min_length.message", problem: "{value} is not a value of this failure (it has: label, length, unit, units)")) {
            try MessageCatalogs.add(json: #"{"locale": "zz", "failures": {"min_length": {"message": "{value} {length}"}}}"#)
        }
        #expect(throws: SpecError.self) {  // the last template would need an optional bound
            try MessageCatalogs.add(json: #"{"locale": "zz", "failures": {"integer": {"message": ["{min}"]}}}"#)
        }
        #expect(throws: SpecError.self) { try MessageCatalogs.add(json: #"{"locale": "zz", "units": {"bytes": "{length}"}}"#) }
        #expect(throws: SpecError.self) { try MessageCatalogs.add(json: #"{"locale": "EN", "failures": {}}"#) }
        #expect(MessageCatalogs.catalog(for: "en") === MessageCatalogs.english)
        // A regional catalogue falls back on its language's, plural rule included. (A private-use
        // tag: the registry is the process's, and other tests use "fr-CA" for French.)
        let canadian = try MessageCatalogs.add(json: #"{"locale": "FR_x_quebec", "failures": {"required": {"message": "Champ requis"}}}"#)
        #expect(canadian.locale == "fr-x-quebec" && canadian.plurals == .oneIs0Or1)
        var quebec = try Form(locale: "fr-x-quebec")
        try quebec.addField("a", rules: [.required(), .maxLength(1)])
        _ = try quebec.validate()
        #expect(try quebec.state(of: "a").message == "Champ requis")
        try quebec.setValue("ab", for: "a")
        #expect(try quebec.state(of: "a").message == "Au plus 1 caractère")
    }

    @Test func singleValueChecks() throws {
        let rules = try ValueCheck.rules(json: #"[{"rule": "required"}, {"rule": "integer", "min": 1, "max": 10}]"#)
        var verdict = try ValueCheck.check("42", against: rules, locale: "fr")
        #expect(verdict.message == "Saisissez un nombre entier entre 1 et 10" && verdict.code == "integer")
        #expect(verdict.params == #"{"max":"10","min":"1"}"# && verdict.failingRule == 1 && !verdict.isValid)
        verdict = try ValueCheck.check("7", against: rules)
        #expect(verdict.validity == .valid && verdict.code == "" && verdict.params == "{}" && verdict.isValid)
        verdict = try ValueCheck.check("", against: rules)
        #expect(verdict.message == "This field is required" && verdict.code == "required")
        verdict = try ValueCheck.check("", against: [.email()])
        #expect(verdict.validity == .empty && verdict.isValid)
        #expect(try ValueCheck.rules(json: #"{"rule": "email"}"#).count == 1)
        #expect(throws: FormError.self) { try ValueCheck.check("a", against: [.matches("other")]) }
        #expect(throws: FormError.self) { try ValueCheck.check("a", against: [.email()], locale: "xx") }
        for needsAForm in [#"[{"rule": "set", "name": "x"}]"#, #"{"rule": "custom", "name": "v"}"#, #"{"rule": "async", "name": "a"}"#,
                           #"{"rule": "required_if", "field": "f", "value": "x"}"#] {
            let rules = try ValueCheck.rules(json: needsAForm)
            #expect(throws: FormError.self) { try ValueCheck.check("a", against: rules) }
        }
        #expect(try ValueCheck.check("a", against: [.custom { _ in .invalid("no") }]).message == "no")
        #expect(throws: SpecError.self) { try ValueCheck.rules(json: "{") }
    }
}
