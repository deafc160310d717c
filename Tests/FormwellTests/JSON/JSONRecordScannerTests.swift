import Testing
@testable import Formwell

/// JSONRecordScanner: one JSONL line → members as bytes, strict, with errors positioned in the line.
@Suite struct JSONRecordScannerTests {
    struct Read: Equatable {
        let key: String
        let value: String
        let kind: JSONRecordScanner.Kind
    }

    private func scan(_ bytes: [UInt8], scanner: inout JSONRecordScanner) throws -> [Read] {
        var members: [Read] = []
        try bytes.withUnsafeBufferPointer { line in
            try scanner.scan(line) { member in
                members.append(Read(key: String(decoding: member.key, as: UTF8.self),
                                    value: String(decoding: member.value, as: UTF8.self), kind: member.kind))
            }
        }
        return members
    }

    private func scan(_ text: String) throws -> [Read] {
        var scanner = JSONRecordScanner()
        return try scan(Array(text.utf8), scanner: &scanner)
    }

    private func error(_ bytes: [UInt8]) -> JSONError? {
        var scanner = JSONRecordScanner()
        do {
            _ = try scan(bytes, scanner: &scanner)
            return nil
        } catch let error as JSONError {
            return error
        } catch {
            Issue.record("not a JSONError: \(error)")
            return nil
        }
    }

    private func error(_ text: String) -> JSONError? { error(Array(text.utf8)) }

    @Test func valuesOfEveryKind() throws {
        #expect(try scan(#" {"name": "Ada", "age": 30, "ratio": -1.5e3, "ok": true, "no": false, "gone": null}  "#) == [
            Read(key: "name", value: "Ada", kind: .string), Read(key: "age", value: "30", kind: .number),
            Read(key: "ratio", value: "-1.5e3", kind: .number), Read(key: "ok", value: "true", kind: .bool),
            Read(key: "no", value: "false", kind: .bool), Read(key: "gone", value: "", kind: .null),
        ])
        #expect(try scan("{}") == [])
        #expect(try scan("{ }\r") == [])
        #expect(try scan(#"{"a": "", "a": "again"}"#) == [Read(key: "a", value: "", kind: .string),
                                                         Read(key: "a", value: "again", kind: .string)])
    }

    @Test func escapesInKeysAndValuesAreUnescaped() throws {
        #expect(try scan(#"{"k\u0065y": "caf\u00e9 \"q\" \\ \/ \n \uD83D\uDE00", "plain": "x", "e\"": "y"}"#) == [
            Read(key: "key", value: "café \"q\" \\ / \n 😀", kind: .string),
            Read(key: "plain", value: "x", kind: .string),
            Read(key: "e\"", value: "y", kind: .string),
        ])
    }

    @Test func stringsWithoutEscapesAreSlicesOfTheLine() throws {
        var scanner = JSONRecordScanner()
        let bytes = Array(#"{"name": "Zoë 😀", "mail": "a\u0040b"}"#.utf8)
        var inLine: [Bool] = []
        try bytes.withUnsafeBufferPointer { line in
            try scanner.scan(line) { member in
                let base = line.baseAddress.map { UnsafeRawPointer($0) }
                let value = member.value.baseAddress.map { UnsafeRawPointer($0) }
                if let base, let value {
                    inLine.append(value >= base && value < base + line.count)
                }
            }
        }
        #expect(inLine == [true, false])
    }

    /// Strings are skimmed eight bytes at a time: a special byte at any position of a word is found.
    @Test func specialBytesAreFoundWhereverTheyAreInALongString() throws {
        for position in 0..<24 {
            let prefix = String(repeating: "a", count: position)
            #expect(try scan(#"{"k": "\#(prefix)\n\#(prefix)"}"#) == [Read(key: "k", value: prefix + "\n" + prefix, kind: .string)])
            #expect(try scan(#"{"k": "\#(prefix)é~\#(prefix)"}"#) == [Read(key: "k", value: prefix + "é~" + prefix, kind: .string)])
            #expect(error(#"{"k": "\#(prefix)\#tz"}"#)?.column == 8 + position)
            #expect(error(Array(#"{"k": "\#(prefix)"#.utf8) + [0xFF] + Array("zzzzzzzzzz\"}".utf8))?.offset == 7 + position)
            #expect(try scan(#"{"k": "\#(prefix)"}"#) == [Read(key: "k", value: prefix, kind: .string)])
        }
    }

    @Test func theScratchBufferIsReusedAcrossLines() throws {
        var scanner = JSONRecordScanner()
        for index in 0..<200 {
            let text = #"{"k\u00e9\#(index)": "\#(String(repeating: "\\u00e9", count: index))", "p": "\#(index)"}"#
            let members = try scan(Array(text.utf8), scanner: &scanner)
            #expect(members == [Read(key: "ké\(index)", value: String(repeating: "é", count: index), kind: .string),
                                Read(key: "p", value: "\(index)", kind: .string)])
        }
    }

    @Test func anArrayOrObjectValueIsNotAString() {
        let array = error(#"{"email": "a@b.co", "password": ["x"]}"#)
        #expect(array?.message == "key 'password': expected a string")
        #expect(array?.column == 33)
        #expect(error(#"{"pass\u0077ord": {"x": 1}}"#)?.message == "key 'password': expected a string")
    }

    @Test(arguments: [
        (#"{"a": "b",}"#, "expected a string key", 11),
        (#"{"a" "b"}"#, "expected ':' after an object key", 6),
        (#"{"a": "b" "c": "d"}"#, "expected ',' or '}' after an object member", 11),
        (#"{"a": 012}"#, "a number must not have leading zeros", 7),
        (#"{"a": 1.}"#, "expected a digit after the decimal point", 9),
        (#"{"a": tru}"#, "expected a value (did you mean 'true'?)", 7),
        (#"{"a": 'b'}"#, "expected a value", 7),
        (#"{"a": "b"} // note"#, "unexpected data after the JSON object", 12),
        (#"{"a": "b"}{}"#, "unexpected data after the JSON object", 11),
        (#"{/*c*/"a": "b"}"#, "expected a string key", 2),
        (#"{"a": "b""#, "unexpected end of input", 10),
        (#"{"a": "b"#, "unexpected end of input in a string", 9),
        (#"{"é": "\x"}"#, "invalid escape '\\x' in a string", 8),
        (#"{"a": "\uDE00"}"#, "unpaired surrogate escape \\uDE00: a low surrogate must follow a high one", 8),
        ("{\"a\": \"tab\there\"}", "control character U+0009 must be escaped in a string", 11),
        (#"["a"]"#, "expected a JSON object", 1),
        (#""a""#, "expected a JSON object", 1),
        ("", "expected a JSON object, found an empty line", 1),
        ("  ", "expected a JSON object, found an empty line", 3),
        ("\u{FEFF}{}", "expected a JSON object", 1),
    ])
    func syntaxErrors(text: String, message: String, column: Int) {
        let found = error(text)
        #expect(found?.message == message, "\(text)")
        #expect(found?.column == column, "\(text)")
        #expect(found?.line == 1, "\(text)")
        #expect(found?.path == "", "\(text)")
    }

    @Test func invalidUTF8IsAnError() {
        let quote = UInt8(ascii: "\"")
        let inValue = error(Array(#"{"a": ""#.utf8) + [0xC3, 0x28, quote, UInt8(ascii: "}")])
        #expect(inValue?.message == "invalid UTF-8 in a string")
        #expect(inValue?.column == 8)
        #expect(inValue?.offset == 7)
        #expect(error([UInt8(ascii: "{"), quote, 0xFF, quote] + Array(#": "b"}"#.utf8))?.message == "invalid UTF-8 in a string")
        #expect(error(Array(#"{"a": "b"}"#.utf8) + [0xFF])?.message == "unexpected data after the JSON object")
        #expect(error(Array(#"{"a": "#.utf8) + [0xED, 0xA0, 0x80])?.message == "expected a value")
        #expect(error([UInt8(ascii: "{"), quote, 0xF0, 0x9F, 0x98, quote] + Array(#": 1}"#.utf8)) != nil)
    }

    @Test func theClosuresErrorIsPassedOn() {
        struct Stop: Error {}
        var scanner = JSONRecordScanner()
        var seen = 0
        #expect(throws: Stop.self) {
            try Array(#"{"a": "1", "b": "2"}"#.utf8).withUnsafeBufferPointer { line in
                try scanner.scan(line) { _ in
                    seen += 1
                    throw Stop()
                }
            }
        }
        #expect(seen == 1)
    }
}
