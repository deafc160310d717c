/// A per-field normaliser (seed 02's announced "format preservation"): normalisers run in the order
/// given, on every value the field takes, before its rules. The field keeps both values: the raw one
/// (what the user typed, what a view shows back, `FieldState.value`) and the normalised one (what the
/// rules judged, what `Form.values`, batches and submissions use, `FieldState.normalizedValue`).
public enum Normalizer: CaseIterable, Sendable {
    /// Removes white space (Unicode White_Space: spaces, tabs, line breaks, no-break spaces, ...)
    /// at both ends, code point by code point: a combining mark after a space is not white space
    /// and stays. A value of white space only becomes empty, so `required` fails on it.
    case trim
    /// Replaces every run of White_Space code points with one U+0020 SPACE (at the ends too: add
    /// `trim` first to remove them).
    case collapseWhitespace
    /// Unicode lowercase: full case mapping (`String.lowercased()`), locale-independent, with the
    /// one context-dependent rule of Unicode's default case conversion, Final_Sigma: a capital
    /// sigma that ends a word becomes `ς` (`"ΟΔΟΣ"` → `"οδος"`).
    case lowercase
    /// Unicode Normalization Form C (canonical composition), as Swift's own string comparison uses.
    case nfc
    /// Keeps the ASCII digits 0-9 only (a phone number typed as "(555) 123-4567" becomes
    /// "5551234567"); other characters, other scripts' digits included, are dropped.
    case digitsOnly

    /// The name used by specs and the bindings.
    public var name: String {
        switch self {
        case .trim: return "trim"
        case .collapseWhitespace: return "collapse_whitespace"
        case .lowercase: return "lowercase"
        case .nfc: return "nfc"
        case .digitsOnly: return "digits_only"
        }
    }

    public init?(name: String) {
        guard let found = Normalizer.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }

    /// This normaliser applied to `text`.
    public func apply(_ text: String) -> String {
        switch self {
        case .trim:
            let scalars = text.unicodeScalars
            guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
                  let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
            return String(scalars[first...last])
        case .collapseWhitespace:
            var out = String.UnicodeScalarView()
            var inRun = false
            for scalar in text.unicodeScalars {
                if scalar.properties.isWhitespace {
                    if !inRun { out.append(" ") }
                    inRun = true
                } else {
                    out.append(scalar)
                    inRun = false
                }
            }
            return String(out)
        case .lowercase:
            return Self.lowercased(text)
        case .nfc:
            return String(decoding: text._nfcCodeUnits, as: UTF8.self)
        case .digitsOnly:
            return String(decoding: text.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)
        }
    }

    /// `text` lowercased with Final_Sigma (Unicode's default case conversion): U+03A3 becomes
    /// U+03C2 when a cased letter precedes it and none follows it, case-ignorable code points
    /// (marks, apostrophes) skipped on both sides; every other code point takes its full lowercase
    /// mapping.
    static func lowercased(_ text: String) -> String {
        guard text.unicodeScalars.contains("\u{03A3}") else { return text.lowercased() }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for index in scalars.indices {
            let scalar = scalars[index]
            if scalar == "\u{03A3}" {
                out.append(isFinalSigma(scalars, at: index) ? "\u{03C2}" : "\u{03C3}")
            } else {
                out.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(out)
    }

    private static func isFinalSigma(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        // Before: a cased letter, then only case-ignorable code points.
        var before = index - 1
        while before >= 0 && scalars[before].properties.isCaseIgnorable { before -= 1 }
        guard before >= 0 && scalars[before].properties.isCased else { return false }
        // After: no cased letter once case-ignorable code points are skipped.
        var after = index + 1
        while after < scalars.count && scalars[after].properties.isCaseIgnorable { after += 1 }
        return !(after < scalars.count && scalars[after].properties.isCased)
    }

    /// `normalizers` applied in order to `text`.
    public static func apply(_ normalizers: [Normalizer], to text: String) -> String {
        normalizers.reduce(text) { $1.apply($0) }
    }

    /// The normalised UTF-8 of `bytes` (valid UTF-8), or nil when the normalisers leave it as it is
    /// (no copy is kept then).
    static func normalized(_ bytes: UnsafeBufferPointer<UInt8>, _ normalizers: [Normalizer]) -> [UInt8]? {
        guard !normalizers.isEmpty else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let result = apply(normalizers, to: text)
        // Compared as bytes: canonically equivalent texts still differ for the rules' byte patterns.
        let out = Array(result.utf8)
        return out.elementsEqual(bytes) ? nil : out
    }

    /// Checks a list given to a field: each normaliser at most once.
    static func check(_ normalizers: [Normalizer]) throws(FormError) {
        for (index, normalizer) in normalizers.enumerated() where normalizers[..<index].contains(normalizer) {
            throw .invalidArgument("normaliser '\(normalizer.name)' is given twice")
        }
    }
}
