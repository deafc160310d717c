import Foundation
import Testing
@testable import Formwell

/// JSONTestSuite's parsing corpus (Tests/Corpora/json_test_suite/test_parsing, a copy: see
/// Tests/Corpora/README.md): every `y_` file is
/// accepted, every `n_` file refused, and every `i_` file gets the outcome `JSONParser` documents.
@Suite struct JSONTestSuiteTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpora/json_test_suite/test_parsing").standardizedFileURL

    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    /// The implementation-defined files and what JSONParser does with each (see its doc comment).
    static let implementationDefined: [String: Bool] = [
        // Numbers of any size are accepted; the text is kept, `integer` is nil when it does not fit.
        "i_number_double_huge_neg_exp.json": true,
        "i_number_huge_exp.json": true,
        "i_number_neg_int_huge_exp.json": true,
        "i_number_pos_double_huge_exp.json": true,
        "i_number_real_neg_overflow.json": true,
        "i_number_real_pos_overflow.json": true,
        "i_number_real_underflow.json": true,
        "i_number_too_big_neg_int.json": true,
        "i_number_too_big_pos_int.json": true,
        "i_number_very_big_negative_int.json": true,
        // Unpaired or malformed surrogate escapes are refused: a String holds Unicode scalars only.
        "i_object_key_lone_2nd_surrogate.json": false,
        "i_string_1st_surrogate_but_2nd_missing.json": false,
        "i_string_1st_valid_surrogate_2nd_invalid.json": false,
        "i_string_incomplete_surrogate_and_escape_valid.json": false,
        "i_string_incomplete_surrogate_pair.json": false,
        "i_string_incomplete_surrogates_escape_valid.json": false,
        "i_string_invalid_lonely_surrogate.json": false,
        "i_string_invalid_surrogate.json": false,
        "i_string_inverted_surrogates_U+1D11E.json": false,
        "i_string_lone_second_surrogate.json": false,
        // Anything that is not well-formed UTF-8 is refused (UTF-16 and Latin-1 included).
        "i_string_UTF-16LE_with_BOM.json": false,
        "i_string_UTF-8_invalid_sequence.json": false,
        "i_string_UTF8_surrogate_U+D800.json": false,
        "i_string_invalid_utf-8.json": false,
        "i_string_iso_latin_1.json": false,
        "i_string_lone_utf8_continuation_byte.json": false,
        "i_string_not_in_unicode_range.json": false,
        "i_string_overlong_sequence_2_bytes.json": false,
        "i_string_overlong_sequence_6_bytes.json": false,
        "i_string_overlong_sequence_6_bytes_null.json": false,
        "i_string_truncated-utf-8.json": false,
        "i_string_utf16BE_no_BOM.json": false,
        "i_string_utf16LE_no_BOM.json": false,
        // 500 levels are within the 512-level limit.
        "i_structure_500_nested_arrays.json": true,
        // A UTF-8 byte order mark is refused.
        "i_structure_UTF-8_BOM_empty_object.json": false,
    ]

    @Test func theCorpusIsThereWithItsKnownCounts() {
        #expect(FileManager.default.fileExists(atPath: Self.directory.path),
                "JSONTestSuite corpus missing at \(Self.directory.path)")
        #expect(Self.files.count == 318, "expected 318 files in \(Self.directory.path)")
        #expect(Self.files.filter { $0.hasPrefix("y_") }.count == 95)
        #expect(Self.files.filter { $0.hasPrefix("n_") }.count == 188)
        #expect(Self.files.filter { $0.hasPrefix("i_") }.count == 35)
        #expect(Set(Self.files.filter { $0.hasPrefix("i_") }) == Set(Self.implementationDefined.keys),
                "every i_ file needs a documented outcome")
    }

    @Test(arguments: files)
    func file(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(name)))
        let accepted: Bool
        var failure = ""
        do {
            _ = try JSONParser.parse(bytes)
            accepted = true
        } catch {
            accepted = false
            failure = error.description
            // Every error points inside the input (or just after it, at the end).
            #expect(error.offset >= 0 && error.offset <= bytes.count, "\(name): offset \(error.offset)")
            #expect(error.line >= 1 && error.column >= 1, "\(name): \(error)")
        }
        switch name.prefix(2) {
        case "y_": #expect(accepted, "\(name) refused: \(failure)")
        case "n_": #expect(!accepted, "\(name) accepted")
        default:
            let expected = Self.implementationDefined[name]
            #expect(expected != nil, "\(name): no documented outcome")
            #expect(accepted == expected, "\(name): accepted \(accepted) \(failure)")
        }
    }

    @Test func deepNestingIsAnErrorAndQuick() throws {
        let start = ContinuousClock.now
        for opening in ["[", "{\"a\":"] {
            let bytes = [UInt8](String(repeating: opening, count: 100_000).utf8)
            #expect(throws: JSONError.self) { _ = try JSONParser.parse(bytes) }
        }
        let suiteFile = Self.directory.appendingPathComponent("n_structure_100000_opening_arrays.json")
        let bytes = [UInt8](try Data(contentsOf: suiteFile))
        do {
            _ = try JSONParser.parse(bytes)
            Issue.record("100000 opening arrays accepted")
        } catch {
            #expect(error.message == "nesting is deeper than 512 levels")
            #expect(error.column == 513)
        }
        #expect(ContinuousClock.now - start < .seconds(1))
    }
}
