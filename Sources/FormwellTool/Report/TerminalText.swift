/// Text from the data or the spec made safe for a terminal and for line-oriented readers of the
/// human report and the notes on stderr: control characters are written C-style (`\n`, `\r`,
/// `\t`, `\x1b`, `\u0085`), and so are the bidirectional controls and line separators that could
/// reorder or break a line (U+2028, U+2029, U+202A–U+202E, U+2066–U+2069). A record key therefore
/// cannot start a line of its own, forge a summary or send an escape sequence. Every other
/// character, and all of `--format json` (which escapes per JSON), is left alone.
enum TerminalText {
    /// `text` with its control characters escaped.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars { append(scalar, to: &out, quote: nil) }
        return out
    }

    /// `text` escaped and in single quotes, with `\` and `'` escaped too: `'a\nb'`, `'it\'s'`.
    static func quoted(_ text: String) -> String {
        var out = "'"
        for scalar in text.unicodeScalars { append(scalar, to: &out, quote: "'") }
        out += "'"
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String, quote: Unicode.Scalar?) {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\\" where quote != nil: out += "\\\\"
        default:
            if let quote, scalar == quote {
                out += "\\"
                out.unicodeScalars.append(scalar)
            } else if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\x" + hex(scalar.value, digits: 2)
            } else if needsEscape(scalar) {
                out += "\\u" + hex(scalar.value, digits: 4)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
