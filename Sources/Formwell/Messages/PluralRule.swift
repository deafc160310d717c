/// How a catalogue's language picks a plural form for a number (CLDR's cardinal categories, the
/// rules the shipped and likely catalogues need). A catalogue names its rule in `"plurals"`.
public enum PluralRule: String, Sendable, CaseIterable {
    /// `one` exactly when the number is 1 (English, German, Dutch, Italian, Spanish, Swedish, ...).
    case oneIs1 = "one_is_1"
    /// `one` when the integer part is 0 or 1 (French, Brazilian Portuguese).
    case oneIs0Or1 = "one_is_0_or_1"
    /// Always `other` (Japanese, Chinese, Korean, ...).
    case otherOnly = "other_only"

    /// The category of the number written `text` (a decimal such as "8", "-1", "1.5"); `other`
    /// for text that is not a number.
    func category(_ text: String) -> String {
        guard let (integer, hasFraction) = PluralRule.parts(text) else { return "other" }
        switch self {
        case .oneIs1: return integer == 1 && !hasFraction ? "one" : "other"
        case .oneIs0Or1: return integer <= 1 ? "one" : "other"
        case .otherOnly: return "other"
        }
    }

    /// The absolute integer part (saturating at 2: only 0, 1 and "more" matter) and whether
    /// fraction digits are written (CLDR's v > 0: "1.0" is not `one` in English).
    private static func parts(_ text: String) -> (Int, Bool)? {
        var utf8 = Substring(text).utf8[...]
        if let sign = utf8.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
        var integer = 0
        var digits = 0
        while let byte = utf8.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            integer = min(integer * 10 + Int(byte - UInt8(ascii: "0")), 2)
            digits += 1
            utf8 = utf8.dropFirst()
        }
        guard digits > 0 else { return nil }
        guard let dot = utf8.first else { return (integer, false) }
        guard dot == UInt8(ascii: "."), utf8.count > 1 else { return nil }
        for byte in utf8.dropFirst() where byte < UInt8(ascii: "0") || byte > UInt8(ascii: "9") { return nil }
        return (integer, true)
    }
}
