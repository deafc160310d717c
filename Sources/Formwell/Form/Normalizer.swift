/// A per-field normaliser (seed 02's announced "format preservation"): normalisers run in the order
/// given, on every value the field takes, before its rules. The field keeps both values: the raw one
/// (what the user typed, what a view shows back, `FieldState.value`) and the normalised one (what the
/// rules judged, what `Form.values`, batches and submissions use, `FieldState.normalizedValue`).
public enum Normalizer: Int32, CaseIterable, Sendable {
    /// Removes white space (Unicode White_Space: spaces, tabs, line breaks, no-break spaces, ...)
    /// at both ends. A value of white space only becomes empty, so `required` fails on it.
    case trim = 0
    /// Replaces every run of white space with one U+0020 SPACE (at the ends too: add `trim` first
    /// to remove them).
    case collapseWhitespace = 1
    /// Unicode lowercase (full case mapping, as `String.lowercased()`; locale-independent).
    case lowercase = 2
    /// Unicode Normalization Form C (canonical composition), as Swift's own string comparison uses.
    case nfc = 3
    /// Keeps the ASCII digits 0-9 only (a phone number typed as "(555) 123-4567" becomes
    /// "5551234567"); other characters, other scripts' digits included, are dropped.
    case digitsOnly = 4

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
            guard let first = text.firstIndex(where: { !$0.isWhitespace }),
                  let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
            return String(text[first...last])
        case .collapseWhitespace:
            var out = ""
            out.reserveCapacity(text.utf8.count)
            var inRun = false
            for character in text {
                if character.isWhitespace {
                    if !inRun { out.append(" ") }
                    inRun = true
                } else {
                    out.append(character)
                    inRun = false
                }
            }
            return out
        case .lowercase:
            return text.lowercased()
        case .nfc:
            return String(decoding: text._nfcCodeUnits, as: UTF8.self)
        case .digitsOnly:
            return String(decoding: text.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)
        }
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
