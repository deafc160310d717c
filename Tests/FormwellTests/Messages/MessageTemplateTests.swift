import Testing
@testable import Formwell

/// The template language (an ICU MessageFormat subset) and the plural rules.
@Suite struct MessageTemplateTests {
    private func fill(_ template: String, _ values: [String: String], _ plurals: PluralRule = .oneIs1) -> (String, Bool) {
        MessageTemplate.fill(template, values, plurals: plurals)
    }

    @Test func plainPlaceholders() {
        #expect(fill("Must match {field}", ["field": "Password"]) == ("Must match Password", true))
        #expect(fill("{a}{b}", ["a": "1", "b": "2"]) == ("12", true))
        // A placeholder without a value stays as written, and the template is marked incomplete.
        #expect(fill("Use {foo} here", [:]) == ("Use {foo} here", false))
        // Braces that are not a placeholder are text.
        #expect(fill("Use {3,20} chars, {, or }", [:]) == ("Use {3,20} chars, {, or }", true))
        #expect(fill("{ name }", ["name": "x"]) == ("x", true))  // ICU allows spaces inside
        #expect(fill("{", [:]) == ("{", true))
        #expect(fill("", [:]) == ("", true))
    }

    @Test func pluralPicksByTheLanguagesRule() {
        let template = "{n, plural, =0 {none} one {# item} other {# items}}"
        #expect(fill(template, ["n": "0"]).0 == "none")
        #expect(fill(template, ["n": "1"]).0 == "1 item")
        #expect(fill(template, ["n": "2"]).0 == "2 items")
        #expect(fill(template, ["n": "1.0"]).0 == "1.0 items")  // CLDR: visible fraction digits are not `one` in English
        let french = "{n, plural, one {# caractère} other {# caractères}}"
        #expect(fill(french, ["n": "0"], .oneIs0Or1).0 == "0 caractère")
        #expect(fill(french, ["n": "1"], .oneIs0Or1).0 == "1 caractère")
        #expect(fill(french, ["n": "1.5"], .oneIs0Or1).0 == "1.5 caractère")
        #expect(fill(french, ["n": "2"], .oneIs0Or1).0 == "2 caractères")
        #expect(fill(french, ["n": "1"], .otherOnly).0 == "1 caractères")
        // Nested placeholders inside a branch, and a missing plural value.
        #expect(fill("{n, plural, one {{what}} other {# {what}s}}", ["n": "3", "what": "cat"]).0 == "3 cats")
        #expect(fill("{n, plural, one {x} other {y}}", [:]) == ("{n, plural, one {x} other {y}}", false))
        // Not a number: `other`.
        #expect(fill("{n, plural, one {a} other {b}}", ["n": "many"]).0 == "b")
    }

    @Test func selectPicksByText() {
        let template = "{unit, select, bytes {octets} other {caractères}}"
        #expect(fill(template, ["unit": "bytes"]).0 == "octets")
        #expect(fill(template, ["unit": "graphemes"]).0 == "caractères")
    }

    @Test func theFirstCompleteTemplateWins() {
        let templates = ["from {min} to {max}", "at least {min}", "any"]
        #expect(MessageTemplate.render(templates, ["min": "1"], plurals: .oneIs1) == "at least 1")
        #expect(MessageTemplate.render(templates, [:], plurals: .oneIs1) == "any")
        #expect(MessageTemplate.placeholders("{a} {n, plural, one {{b}} other {x y}}") == ["a", "n", "b"])
    }

    @Test func malformedTemplatesNeverTrap() {
        for text in ["{n, plural", "{n, plural,", "{n, plural, one", "{n, plural, one {", "{n, plural, one {x}",
                     "{n, select, {x}}", "{n,,}", "{ n }", "}{", "{n, plural, one {#} other {##}}", "#{#}#"] {
            _ = fill(text, ["n": "1"])
            _ = fill(text, [:])
        }
        #expect(fill("#{n}#", ["n": "1"]).0 == "#1#")  // `#` is the number only inside a plural branch
        // Nesting is bounded: 100,000 levels (a rule's own message comes from outside) are text, not a
        // stack overflow; 8 levels still work.
        let deep = String(repeating: "{n, plural, other {", count: 100_000) + "x" + String(repeating: "}}", count: 100_000)
        #expect(fill(deep, ["n": "1"]).0.count > 100_000)
        let eight = String(repeating: "{n, plural, other {", count: 8) + "x" + String(repeating: "}}", count: 8)
        #expect(fill(eight, ["n": "1"]) == ("x", true))
    }
}
