import Testing
@testable import Formwell

/// JSONParser: values, numbers' text, escapes, errors with line, column, offset and path, the depth
/// limit; JSONWriter: escaping and round trips.
@Suite struct JSONParserTests {
    private func parse(_ text: String) throws(JSONError) -> JSONValue { try JSONParser.parse(text) }

    private func error(_ text: String) -> JSONError? {
        do {
            _ = try JSONParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    private func error(_ bytes: [UInt8]) -> JSONError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func valuesOfEveryKind() throws {
        let value = try parse(#" {"a": [true, false, null, "x", -1.5e3, {}], "b": {"c": []}} "#)
        #expect(value == .object([
            (key: "a", value: .array([.bool(true), .bool(false), .null, .string("x"),
                                      .number(text: "-1.5e3", integer: -1500), .object([])])),
            (key: "b", value: .object([(key: "c", value: .array([]))])),
        ]))
        #expect(value["b"]?["c"] == .array([]))
        #expect(value["missing"] == nil)
        #expect(try parse("\"top\"") == .string("top"))
        #expect(try parse(" 7 ") == .integer(7))
    }

    @Test func duplicateKeysAreKeptInDocumentOrder() throws {
        let value = try parse(#"{"k": 1, "j": 2, "k": 3}"#)
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["k", "j", "k"])
        #expect(value["k"] == .integer(1))
    }

    @Test(arguments: [
        ("0", 0), ("-0", 0), ("42", 42), ("1E+2", 100), ("1.0", 1), ("0.8e1", 8), ("80e-1", 8), ("1.50e2", 150),
        ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min), ("9223372036854775807.000", Int.max),
    ])
    func wholeNumbersHaveAnIntegerValue(text: String, integer: Int) throws {
        #expect(try parse(text) == .number(text: text, integer: integer))
    }

    @Test(arguments: ["1.5", "9223372036854775808", "-9223372036854775809", "1e400", "1e-400", "0.1e1000000000000", "25e-1"])
    func otherNumbersKeepTheirTextOnly(text: String) throws {
        #expect(try parse(text) == .number(text: text, integer: nil))
    }

    @Test func zeroWithAHugeExponentIsStillZero() throws {
        #expect(try parse("0e999999999999") == .number(text: "0e999999999999", integer: 0))
    }

    @Test func escapes() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""caf\u00e9 \u00E9 \u0000 \u20AC""#) == .string("café é \u{0} €"))
        #expect(try parse(#""\uD834\uDD1E \ud83d\ude00""#) == .string("𝄞 😀"))
        #expect(try parse("\"raw é 😀\"") == .string("raw é 😀"))
        #expect(try parse(#"{"k\u0065y": 1}"#)["key"] == .integer(1))
    }

    @Test(arguments: [
        (#""\uD800""#, "unpaired surrogate escape \\uD800: a high surrogate must be followed by a \\uDC00-\\uDFFF escape", 2),
        (#""\uD800\n""#, "unpaired surrogate escape \\uD800: a high surrogate must be followed by a \\uDC00-\\uDFFF escape", 2),
        (#""\uDD1E\uD834""#, "unpaired surrogate escape \\uDD1E: a low surrogate must follow a high one", 2),
        (#""\uD800\uD800""#, "unpaired surrogate escape \\uD800: a high surrogate must be followed by a \\uDC00-\\uDFFF escape", 2),
        (#""\u12G4""#, "expected four hex digits after '\\u'", 2),
        (#""\x""#, "invalid escape '\\x' in a string", 2),
        ("\"a\tb\"", "control character U+0009 must be escaped in a string", 3),
        (#""abc"#, "unexpected end of input in a string", 5),
        ("[01]", "a number must not have leading zeros", 2),
        ("[-]", "expected a digit", 3),
        ("[1.]", "expected a digit after the decimal point", 4),
        ("[1e+]", "expected a digit in the exponent", 5),
        ("[.5]", "expected a value", 2),
        ("[1,]", "expected a value", 4),
        (#"{"a":1,}"#, "expected a string key after ','", 8),
        ("{'a':1}", "expected a string key or '}'", 2),
        (#"{"a" 1}"#, "expected ':' after an object key", 6),
        (#"{"a":1 "b":2}"#, "expected ',' or '}' after an object member", 8),
        ("[1 2]", "expected ',' or ']' after an array element", 4),
        ("[tru]", "expected a value (did you mean 'true'?)", 2),
        ("[NaN]", "expected a value", 2),
        ("[1] // comment", "unexpected data after the JSON value", 5),
        ("", "unexpected end of input", 1),
        ("   ", "unexpected end of input", 4),
        ("[", "unexpected end of input", 2),
        ("\u{FEFF}{}", "a byte order mark (U+FEFF) is not allowed before JSON text", 1),
        ("[\u{FEFF}]", "expected a value", 2),
    ])
    func syntaxErrors(text: String, message: String, column: Int) {
        let found = error(text)
        #expect(found?.message == message, "\(text)")
        #expect(found?.line == 1, "\(text)")
        #expect(found?.column == column, "\(text)")
    }

    @Test func linesAndColumnsCountScalarsAndOffsetsCountBytes() throws {
        let text = "{\n  \"é😀\": [1,\n     2 3]}"
        let found = try #require(error(text))
        #expect(found.line == 3)
        #expect(found.column == 8)
        #expect(found.offset == Array(text.utf8).firstIndex(of: UInt8(ascii: "3")))
        #expect(found.path == "é😀")
        #expect(found.description == "é😀: line 3, column 8: expected ',' or ']' after an array element")
        #expect(found.positionedMessage == "line 3, column 8: expected ',' or ']' after an array element")
        let crlf = try #require(error("[1,\r\n2,\r\n}"))
        #expect((crlf.line, crlf.column) == (3, 1))
    }

    @Test func invalidUTF8IsAnErrorAtItsFirstByte() {
        let inString = error([UInt8(ascii: "\""), 0xC3, 0xA9, 0xFF, UInt8(ascii: "\"")])
        #expect(inString?.message == "invalid UTF-8 in a string")
        #expect(inString?.offset == 3)
        #expect(inString?.column == 3)
        let outside = error([UInt8(ascii: "["), 0xE9, UInt8(ascii: "]")])
        #expect(outside?.message == "expected a value")
        #expect(outside?.offset == 1)
        for bytes: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            #expect(error([UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")]) != nil, "\(bytes)")
        }
        #expect(error("\"\u{10FFFF}\u{FFFF}\"") == nil)
    }

    @Test func theErrorPathIsTheInnermostOpenContainer() {
        #expect(error(#"{"fields": [{"id": "a"}, {"id": "b", "rules": [{"rule": "x"} {}]}]}"#)?.path == "fields[1].rules")
        #expect(error(#"{"fields": [{"id": "a"}, {"id": "b", "rules": [{"rule" "x"}]}]}"#)?.path == "fields[1].rules[0]")
        #expect(error(#"{"a": {"b": [1, [2, {"c": tru}]]}}"#)?.path == "a.b[1][1]")
        #expect(error(#"{"a": 1,}"#)?.path == "")
        #expect(error("[1 2]")?.path == "")
        #expect(error("[[1], [2] 3]")?.path == "")
        #expect(error("[[1], [2 3]]")?.path == "[1]")
    }

    @Test func nestingIsLimited() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try parse(deepest) }
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let found = try #require(error(tooDeep))
        #expect(found.message == "nesting is deeper than 512 levels")
        #expect(found.column == 513)
        #expect(throws: JSONError.self) { try JSONParser.parse("[[[]]]", maximumDepth: 2) }
        #expect(throws: Never.self) { try JSONParser.parse("[[]]", maximumDepth: 2) }
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        #expect(error(objects)?.message == "nesting is deeper than 512 levels")
    }

    // MARK: JSONWriter

    @Test func writerEscapesOnlyWhatTheRFCRequires() {
        #expect(JSONWriter.quoted("a\"b\\c/d é 😀") == #""a\"b\\c/d é 😀""#)
        #expect(JSONWriter.quoted("\u{0}\u{1}\u{8}\t\n\u{B}\u{C}\r\u{1F}\u{7F}")
                == #""\u0000\u0001\b\t\n\u000b\f\r\u001f"# + "\u{7F}\"")
        var out = "x="
        JSONWriter.appendString("q\"", to: &out)
        #expect(out == #"x="q\"""#)
    }

    @Test func writerCompactAndPretty() {
        let value: JSONValue = .object([(key: "b", value: .array([.integer(1), .null, .bool(false)])),
                                        (key: "a", value: .object([])), (key: "c", value: .array([]))])
        #expect(JSONWriter.write(value) == #"{"b":[1,null,false],"a":{},"c":[]}"#)
        #expect(JSONWriter.write(value, sortedKeys: true) == #"{"a":{},"b":[1,null,false],"c":[]}"#)
        #expect(JSONWriter.write(value, pretty: true, sortedKeys: true) == """
        {
          "a" : {

          },
          "b" : [
            1,
            null,
            false
          ],
          "c" : [

          ]
        }
        """)
    }

    @Test func writeThenParseGivesTheSameValue() throws {
        var controls = ""
        for scalar in 0..<0x20 { controls.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        let value: JSONValue = .array([
            .string(controls + "\"\\/é😀\u{10FFFF}\u{2028}"), .number(text: "-1.25e-7", integer: nil), .integer(Int.min),
            .object([(key: "dup", value: .null), (key: "dup", value: .bool(true)), (key: "\u{0}k\"", value: .array([]))]),
        ])
        for pretty in [false, true] {
            #expect(try parse(JSONWriter.write(value, pretty: pretty)) == value)
        }
    }
}
