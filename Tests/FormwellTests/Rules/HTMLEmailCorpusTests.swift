import Foundation
import Testing
@testable import Formwell

/// `html_email` against the WHATWG / web-platform-tests cases (Tests/Corpora/whatwg_html_email_wpt.json).
@Suite struct HTMLEmailCorpusTests {
    static func accepts(_ values: [String], _ rule: Rule) throws -> [Bool] {
        var form = Form()
        try form.addField("e", rules: [rule])
        return try values.map { value in
            try form.setValue(value, for: "e")
            let validity = try form.state(of: "e").validity
            return validity == .valid || validity == .empty
        }
    }

    @Test func wptEmailCases() throws {
        guard case .array(let all)? = try URLCorpusTests.load("whatwg_html_email_wpt.json")["cases"] else {
            Issue.record("no cases")
            return
        }
        // Single addresses only: the rule checks one address (input type=email without `multiple`).
        let cases = all.filter { $0["input_type"] == .string("email") && $0["multiple"] == .bool(false) }
        let values = cases.map { if case .string(let v)? = $0["value"] { return v } else { return "" } }
        let got = try Self.accepts(values, Rule(.htmlEmail))
        #expect(cases.count == 20)
        // 1. The current standard's regex on the raw value: every case that gives it agrees.
        let regexCases = zip(cases, got).filter { $0.0["matches_current_spec_regex_raw_value"] != nil }
        #expect(regexCases.count == 19)
        #expect(regexCases.allSatisfy { $0.0["matches_current_spec_regex_raw_value"] == .bool($0.1) })
        // 2. What a browser answers: 11 of 20 agree; the 9 others are not the regex's business.
        let disagree = cases.indices.filter { cases[$0]["expected_valid"] != .bool(got[$0]) }.map { values[$0] }
        #expect(cases.count - disagree.count == 11)
        #expect(disagree == [
            "\n\r \t test@example.com \n\r \t",  // the browser strips whitespace first (value sanitization)
            "a@ñ", "ñ@ñ", "a@123.123.123.123.123", "a@0xFFFFFFFFF", "a@[::1]",  // whatwg/html PR #10522, proposed
            "test@exämle.com", "user@お.com",  // the browser converts an IDN domain to punycode first
            " foo@bar   ",  // whitespace stripped first
        ])
    }

    @Test func validatorJSEmails() throws {
        let corpus = try URLCorpusTests.load("validatorjs_email_url_phone.json")
        func strings(_ key: String) -> [String] {
            guard case .array(let items)? = corpus[key] else { return [] }
            return items.compactMap { if case .string(let s) = $0, !s.isEmpty { return s } else { return nil } }
        }
        // Figures only: validator.js's isEmail has its own policy (UTF-8 local parts, a TLD, length limits).
        let valid = try Self.accepts(strings("email_valid"), Rule(.htmlEmail)).filter { $0 }.count
        let invalid = try Self.accepts(strings("email_invalid"), Rule(.htmlEmail)).filter { !$0 }.count
        #expect((valid, strings("email_valid").count) == (12, 18))
        #expect((invalid, strings("email_invalid").count) == (35, 41))
    }
}
