/// The value a field's rules judge: its UTF-8 bytes (valid UTF-8), borrowed for the evaluation.
/// Patterns match the bytes directly; the text is made only for rules that need characters.
struct Subject {
    let utf8: UnsafeBufferPointer<UInt8>

    var isEmpty: Bool { utf8.isEmpty }

    var string: String { String(decoding: utf8, as: UTF8.self) }

    /// Grapheme clusters, as `String.count`. ASCII is counted from the bytes: every ASCII byte is
    /// a cluster of its own except that CR LF is one (Unicode's rule GB3).
    var characterCount: Int {
        var count = utf8.count
        var previous: UInt8 = 0
        for byte in utf8 {
            if byte >= 0x80 { return string.count }
            if byte == 0x0A && previous == 0x0D { count -= 1 }
            previous = byte
        }
        return count
    }

    /// Whether this value equals `other` as Unicode text (canonical equivalence, as String's `==`);
    /// equal bytes answer at once.
    func equals(_ other: PeerValue) -> Bool {
        switch other {
        case .stored(let value): return value.utf8.elementsEqual(utf8) || value.string == string
        case .bytes(let bytes): return bytes.elementsEqual(utf8) || String(decoding: bytes, as: UTF8.self) == string
        }
    }
}

/// The value of another field that a `matches` rule compares with: stored in the form, or a
/// record's bytes borrowed from a batch's columns.
enum PeerValue {
    case stored(FieldValue)
    case bytes(UnsafeBufferPointer<UInt8>)
}
