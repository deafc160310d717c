/// Writes JSON (RFC 8259): string escaping for any caller that builds JSON by hand, and whole values,
/// compact or pretty-printed.
///
/// Strings escape only what the RFC requires: `"`, `\` and the control characters U+0000-U+001F
/// (`\b \t \n \f \r` by name, the rest as `\u00xx`). `/` is not escaped; everything else, non-ASCII
/// included, is written as UTF-8. This is also exactly what FoundationEssentials' JSONEncoder writes
/// with `.withoutEscapingSlashes`, so the spec export kept its bytes when it moved off Foundation.
public enum JSONWriter {
    /// Appends `text` as a quoted JSON string.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendString($0, to: &out) }
    }

    /// Appends `text` as a quoted JSON string.
    public static func appendString(_ text: String, to out: inout String) {
        var bytes: [UInt8] = []
        appendString(text, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends UTF-8 bytes as a quoted JSON string (the bytes are copied as they are: pass valid UTF-8).
    public static func appendString(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        // Copies runs of bytes that need no escape in one go.
        while index < utf8.count {
            let byte = utf8[index]
            if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            out.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
            case 0x08: out.append(UInt8(ascii: "b"))
            case 0x09: out.append(UInt8(ascii: "t"))
            case 0x0A: out.append(UInt8(ascii: "n"))
            case 0x0C: out.append(UInt8(ascii: "f"))
            case 0x0D: out.append(UInt8(ascii: "r"))
            default:
                out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hexDigit(byte >> 4), hexDigit(byte & 0x0F)])
            }
            index += 1
            runStart = index
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        out.append(UInt8(ascii: "\""))
    }

    /// `text` as a quoted JSON string.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        appendString(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `value` as JSON text. `pretty` writes JSONEncoder's `.prettyPrinted` layout: two-space indents,
    /// `"key" : value`, and an empty array or object as its brackets around an empty line.
    /// `sortedKeys` orders object members by their keys' UTF-8 bytes (otherwise document order).
    public static func write(_ value: JSONValue, pretty: Bool = false, sortedKeys: Bool = false) -> String {
        var out: [UInt8] = []
        append(value, to: &out, pretty: pretty, sortedKeys: sortedKeys)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `value` as JSON text (see `write`).
    public static func append(_ value: JSONValue, to out: inout [UInt8], pretty: Bool = false, sortedKeys: Bool = false) {
        append(value, to: &out, pretty: pretty, sortedKeys: sortedKeys, indent: 0)
    }

    private static func append(_ value: JSONValue, to out: inout [UInt8], pretty: Bool, sortedKeys: Bool, indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let text, _): out.append(contentsOf: text.utf8)
        case .string(let text): appendString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                separator(index, to: &out, pretty: pretty, indent: indent + 2)
                append(element, to: &out, pretty: pretty, sortedKeys: sortedKeys, indent: indent + 2)
            }
            closing(UInt8(ascii: "]"), empty: elements.isEmpty, to: &out, pretty: pretty, indent: indent)
        case .object(let members):
            let ordered = sortedKeys ? members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : members
            out.append(UInt8(ascii: "{"))
            for (index, member) in ordered.enumerated() {
                separator(index, to: &out, pretty: pretty, indent: indent + 2)
                appendString(member.key, to: &out)
                out.append(contentsOf: (pretty ? " : " : ":").utf8)
                append(member.value, to: &out, pretty: pretty, sortedKeys: sortedKeys, indent: indent + 2)
            }
            closing(UInt8(ascii: "}"), empty: members.isEmpty, to: &out, pretty: pretty, indent: indent)
        }
    }

    private static func separator(_ index: Int, to out: inout [UInt8], pretty: Bool, indent: Int) {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        guard pretty else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
    }

    private static func closing(_ bracket: UInt8, empty: Bool, to out: inout [UInt8], pretty: Bool, indent: Int) {
        if pretty {
            // JSONEncoder's layout for an empty container: `[`, an empty line, then `]` at the indent.
            out.append(contentsOf: empty ? [UInt8(ascii: "\n"), UInt8(ascii: "\n")] : [UInt8(ascii: "\n")])
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
        }
        out.append(bracket)
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
