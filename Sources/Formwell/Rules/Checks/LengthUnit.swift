/// What `min_length` / `max_length` count.
public enum LengthUnit: String, CaseIterable, Sendable {
    /// User-perceived characters (`String.count`): what a person counts. The default.
    case graphemes
    /// Unicode scalar values (code points).
    case scalars
    /// UTF-16 code units: what HTML's `maxlength` and JavaScript's `length` count.
    case utf16
    /// UTF-8 bytes: what a database column limit in bytes counts.
    case bytes

    /// The value's length in this unit, read from its (valid) UTF-8 bytes.
    func count(_ value: Subject) -> Int {
        switch self {
        case .graphemes: return value.characterCount
        case .bytes: return value.utf8.count
        case .scalars:
            // Every scalar has exactly one byte that is not a continuation byte (10xxxxxx).
            var count = 0
            for byte in value.utf8 where byte & 0xC0 != 0x80 { count += 1 }
            return count
        case .utf16:
            // A four-byte sequence (lead 11110xxx) is a scalar above U+FFFF: a surrogate pair.
            var count = 0
            for byte in value.utf8 where byte & 0xC0 != 0x80 { count += byte >= 0xF0 ? 2 : 1 }
            return count
        }
    }

    /// How a message names `count` of this unit.
    func noun(_ count: Int) -> String {
        switch self {
        case .bytes: return count == 1 ? "byte" : "bytes"
        case .graphemes, .scalars, .utf16: return count == 1 ? "character" : "characters"
        }
    }
}
