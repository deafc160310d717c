import Testing
@testable import Formwell

/// The fast paths added for the C ABI: index-named events, byte values, in-place state reads,
/// the dependents index, and the byte-level helpers they rely on. Each must agree exactly with the
/// id-named, String-based API.
@Suite struct FieldIndexAndSnapshotTests {
    static func registration() throws -> Form {
        var form = Form()
        try form.addField("email", label: "Email", rules: [.required(), .email()])
        try form.addField("username", rules: [.required(), .minLength(3), .regex("^[a-z0-9_]{3,20}$")])
        try form.addField("password", label: "Password", rules: [.required(), .minLength(8)])
        try form.addField("confirm", rules: [.required(), .matches("password")])
        return form
    }

    /// Everything `readState` hands out, gathered for comparison.
    struct Read: Equatable {
        var summary: StateSummary
        var message: String
        var shown: String
        var value: String
    }

    static func read(_ form: inout Form, at index: Int) throws -> Read {
        var read: Read?
        try form.readState(at: index) { summary, texts in
            read = Read(summary: summary, message: String(decoding: texts.message, as: UTF8.self),
                        shown: String(decoding: texts.displayMessage, as: UTF8.self),
                        value: String(decoding: texts.value, as: UTF8.self))
        }
        return try #require(read)
    }

    /// `readState` must say what `state(at:)` says, field by field.
    static func expectReadAgrees(_ form: inout Form, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for index in 0..<form.fieldCount {
            let state = try form.state(at: index)
            let read = try read(&form, at: index)
            #expect(read.summary.phase == state.phase, "\(step): phase of #\(index)", sourceLocation: sourceLocation)
            #expect(read.message == (state.message ?? ""), "\(step): message of #\(index)", sourceLocation: sourceLocation)
            #expect(read.shown == (state.display.message ?? ""), "\(step): display message of #\(index)", sourceLocation: sourceLocation)
            #expect(read.value == state.value, "\(step): value of #\(index)", sourceLocation: sourceLocation)
            #expect(read.summary.touched == state.touched && read.summary.limitExceeded == state.limitExceeded,
                    "\(step): flags of #\(index)", sourceLocation: sourceLocation)
            #expect(read.summary.failingRule == state.failingRule, "\(step): failing rule of #\(index)", sourceLocation: sourceLocation)
            switch (read.summary.validity, state.validity) {
            case (.empty, .empty), (.valid, .valid), (.invalid, .invalid): break
            default: Issue.record("\(step): validity of #\(index): \(read.summary.validity) vs \(state.validity)", sourceLocation: sourceLocation)
            }
            switch (read.summary.display, state.display) {
            case (.none, .none), (.valid, .valid), (.error, .error): break
            default: Issue.record("\(step): display of #\(index): \(read.summary.display) vs \(state.display)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The texts `readState` borrows from a failing rule's bytes (message, hint, code, parameters)
    /// must be the rule's strings as `state(at:)` words them, in every locale the form moves to.
    @Test("in-place failure texts follow the rule's strings across locale changes")
    func inPlaceFailureTextsFollowLocale() throws {
        var form = try FieldIndexAndSnapshotTests.registration()
        try form.setValue("not-an-email", for: "email")
        try form.touch("email")
        try form.setValue("ab", for: "username")
        try form.touch("username")
        try form.setValue("short", for: "password")
        try form.focus("password")  // lenient stage: invalid, nothing displayed yet
        for locale in ["fr", "en", "fr"] {
            try form.setLocale(locale)
            for index in 0..<form.fieldCount {
                let state = try form.state(at: index)
                var texts: (message: String, hint: String, code: String, params: String)?
                try form.readState(at: index) { _, read in
                    var failure = ("", "")
                    read.failures.withFailure(.validity) { code, params in
                        failure = (String(decoding: code, as: UTF8.self), String(decoding: params, as: UTF8.self))
                    }
                    texts = (String(decoding: read.message, as: UTF8.self), String(decoding: read.hint, as: UTF8.self),
                             failure.0, failure.1)
                }
                let read = try #require(texts)
                #expect(read.message == (state.message ?? ""), "\(locale): message of #\(index)")
                #expect(read.hint == state.accessibilityHint, "\(locale): hint of #\(index)")
                #expect(read.code == state.code && read.params == state.params, "\(locale): code and params of #\(index)")
            }
        }
        // The texts really changed with the locale (the comparison above is not between empties).
        let french = try form.state(of: "username").message
        try form.setLocale("en")
        let english = try form.state(of: "username").message
        #expect(french != nil && french != english)
        let hint = try form.state(of: "email").accessibilityHint
        #expect(!hint.isEmpty)
    }

    @Test("index-named events move the form exactly as id-named ones")
    func indexEventsMatchIdEvents() throws {
        var byID = try Self.registration()
        var byIndex = try Self.registration()
        let steps: [(String, String?)] = [
            ("email", nil), ("email", "ada@"), ("email", "ada@example.com"), ("username", nil), ("username", "A"),
            ("password", "short"), ("confirm", nil), ("confirm", "short"), ("password", "longenough1"),
            ("confirm", "longenough1"), ("email", ""),
        ]
        for (id, value) in steps {
            let index = try byIndex.fieldIndex(of: id)
            if let value {
                try byID.setValue(value, for: id)
                try byIndex.setValue(value, at: index)
            } else {
                try byID.focus(id)
                try byIndex.focus(at: index)
            }
            #expect(byID.states == byIndex.states, "after \(id) \(value ?? "focus")")
            try Self.expectReadAgrees(&byIndex, "\(id) \(value ?? "focus")")
        }
        try byID.blur("confirm")
        try byIndex.blur(at: 3)
        try byID.touch("username")
        try byIndex.touch(at: 1)
        #expect(byID.states == byIndex.states)
        try Self.expectReadAgrees(&byIndex, "blur + touch")
    }

    @Test("an index past the last field is refused and changes nothing")
    func indexOutOfRange() throws {
        var form = try Self.registration()
        let before = form.states
        #expect(throws: FormError.invalidArgument("field index 4 is out of range (4 fields)")) {
            try form.setValue("x", at: 4)
        }
        #expect(throws: FormError.self) { try form.focus(at: -1) }
        #expect(throws: FormError.self) { try form.state(at: Int.max) }
        #expect(form.states == before)
        #expect(throws: FormError.unknownField("nope")) { try form.fieldIndex(of: "nope") }
    }

    @Test("failingRule names the rule whose message the field shows")
    func failingRule() throws {
        var form = try Self.registration()
        try form.setValue("ab", for: "username")              // strict stage: min_length (#1) fails
        #expect(try form.state(of: "username").failingRule == 1)
        try form.setValue("ABC", for: "username")             // regex (#2) fails
        #expect(try form.state(of: "username").failingRule == 2)
        try form.setValue("abc", for: "username")
        #expect(try form.state(of: "username").failingRule == nil)
        try form.setValue("", for: "username")                // empty and required: required (#0)
        #expect(try form.state(of: "username").failingRule == 0)
        try form.focus("username")                            // focused and empty: nothing fails
        #expect(try form.state(of: "username").failingRule == nil)
    }

    @Test("a keystroke re-judges the field's dependents (matches) and leaves never-judged ones idle")
    func dependentsIndex() throws {
        var form = try Self.registration()
        try form.setValue("secret123", for: "password")
        #expect(try form.state(of: "confirm").phase == .idle, "never judged: stays idle")
        try form.setValue("secret123", for: "confirm")
        #expect(try form.state(of: "confirm").input == .inactive(.valid))
        try form.setValue("secret1234", at: 2)                // by index: the dependent follows
        #expect(try form.state(of: "confirm").input == .inactive(.invalid("Must match Password")))
        // A matches rule added later registers its dependency too.
        try form.addField("again")
        try form.addRule(.matches("email"), to: "again")
        try form.setValue("a@b.co", for: "again")
        #expect(try form.state(of: "again").input == .inactive(.invalid("Must match Email")))
        try form.setValue("a@b.co", for: "email")
        #expect(try form.state(of: "again").input == .inactive(.valid))
    }

    @Test("values stored as bytes: shorter, longer and equal-length replacements, multi-byte text")
    func valueStorage() throws {
        var form = Form()
        try form.addField("f", rules: [.maxLength(5)])
        for value in ["hello world", "hi", "", "日本語テキスト", "abc", "e\u{301}e\u{301}", "xyz"] {
            try form.setValue(value, at: 0)
            #expect(try form.value(of: "f") == value)
            #expect(try form.state(at: 0).value == value)
            try Self.expectReadAgrees(&form, value)
        }
    }

    @Test("byte-level setValue agrees with the String one, and ValidUTF8 refuses ill-formed bytes")
    func validUTF8() throws {
        var form = try Self.registration()
        let bytes = Array("ada@example.com".utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            let valid = try #require(ValidUTF8(validating: buffer))
            try form.setValue(valid, at: 0)
        }
        #expect(try form.state(of: "email").input == .inactive(.valid))
        let cases: [([UInt8], Int?)] = [
            ([], nil), (Array("plain ascii, longer than eight".utf8), nil), (Array("é日本👨‍👩‍👧".utf8), nil),
            ([0x61, 0xFF], 1), ([0xC0, 0x80], 0), ([0xED, 0xA0, 0x80], 0), ([0xF4, 0x90, 0x80, 0x80], 0),
            ([0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0xE2, 0x82], 8), ([0xE0, 0x80, 0xAF], 0),
            ([0xF0, 0x9F, 0x98], 0), ([0xC3, 0xA9, 0x80], 2),
        ]
        for (input, offset) in cases {
            input.withUnsafeBufferPointer { buffer in
                #expect(ValidUTF8.firstInvalidOffset(buffer) == offset, "\(input)")
                #expect((ValidUTF8(validating: buffer) == nil) == (offset != nil), "\(input)")
                // Swift's own decoder agrees on well-formedness.
                let repaired = String(decoding: buffer, as: UTF8.self)
                #expect(Array(repaired.utf8) == input || offset != nil, "\(input)")
            }
        }
    }

    @Test("ValidUTF8 agrees with String(validating:) with a bad or multi-byte sequence at every position of 0-40 bytes")
    func validUTF8EveryPosition() {
        // The standard library's validation: nil when the bytes are a String, else the length of
        // the longest prefix that is (where the first ill-formed sequence starts).
        func reference(_ bytes: [UInt8]) -> Int? {
            if String(validating: bytes, as: UTF8.self) != nil { return nil }
            return (0..<bytes.count).last { String(validating: bytes[..<$0], as: UTF8.self) != nil }
        }
        let inserts: [[UInt8]] = [[0xFF], [0xC3, 0xA9], [0xE2, 0x82], [0xF0, 0x9F, 0x98, 0x80], [0x80], [0xED, 0xA0, 0x80]]
        var checked = 0
        for length in 0...40 {
            for position in 0...length {
                for insert in inserts {
                    var input = Array(repeating: UInt8(ascii: "a"), count: length)
                    input.insert(contentsOf: insert, at: position)
                    input.withUnsafeBufferPointer { buffer in
                        #expect(ValidUTF8.firstInvalidOffset(buffer) == reference(input), "\(input)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == 5_166)  // (1 + 2 + ... + 41) positions, 6 sequences each
    }

    @Test("lengths counted from ASCII bytes equal String.count, CR LF counting once")
    func asciiCharacterCount() throws {
        for text in ["", "a", "abc", "a\r\nb", "\r\n\r\n", "\r\r\n", "\n\r", "tab\there", "x\r", "日本", "e\u{301}", "a\r\né"] {
            var copy = text
            copy.withUTF8 { bytes in
                #expect(Subject(utf8: bytes).characterCount == text.count, "\(text.debugDescription)")
            }
        }
        var form = Form()
        try form.addField("f", rules: [.minLength(3)])
        try form.setValue("a\r\nb", at: 0)   // 3 characters
        #expect(try form.state(at: 0).input == .inactive(.valid))
        try form.setValue("\r\n\r\n", at: 0) // 2 characters
        #expect(try form.state(at: 0).input == .inactive(.invalid("Must be at least 3 characters")))
    }

    @Test("states lists every field in registration order")
    func statesInOrder() throws {
        var form = try Self.registration()
        try form.setValue("x", for: "username")
        let states = form.states
        #expect(states.map(\.id) == form.fieldIDs)
        #expect(try states == form.fieldIDs.map { id in try form.state(of: id) })
    }
}

/// The public whole-value match of a cached pattern, under the default and under custom limits.
@Suite struct PatternMatchWholeTests {
    @Test func matchesWholeValuesOnly() throws {
        let pattern = try PatternCache.shared.pattern(for: "[a-z]+")
        #expect(pattern.matchWhole("abc") == .match)
        #expect(pattern.matchWhole("abc1") == .noMatch, "anchored at both ends")
        #expect(pattern.matchWhole("") == .noMatch)
        #expect(try PatternCache.shared.pattern(for: "[a-z]+") === pattern, "compiled once, shared")
    }

    @Test func customLimitsStopCatastrophicBacktracking() throws {
        let pattern = try PatternCache.shared.pattern(for: "(a+)+$")
        let attack = String(repeating: "a", count: 30) + "!"
        #expect(pattern.matchWhole(attack, limits: MatchLimits(matchLimit: 1_000, depthLimit: 1_000, heapLimitKiB: 1_024))
                == .limitExceeded)
        #expect(pattern.matchWhole(attack) == .limitExceeded, "the default limits stop it too")
        #expect(pattern.matchWhole("aaaa") == .match)
    }
}
