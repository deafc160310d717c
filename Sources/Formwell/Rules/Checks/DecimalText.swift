/// A decimal number read exactly from its text, compared without ever becoming a binary float.
///
/// Syntax (locale-independent, the same for values and for `min` / `max`): an optional sign `+` or
/// `-`, one or more ASCII digits, then optionally `.` and one or more ASCII digits. Leading zeros are
/// allowed (`007` is 7); no spaces, no thousands separators, no `,` decimal comma, no exponent, no
/// `.5` or `5.`. `-0` equals `0`.
struct DecimalText: Comparable, Sendable {
    let negative: Bool
    /// The integer digits without leading zeros ("" for zero).
    let whole: [UInt8]
    /// The fraction digits without trailing zeros.
    let fraction: [UInt8]

    var isInteger: Bool { fraction.isEmpty }

    init?(_ text: String) {
        var text = text
        guard let value = text.withUTF8({ DecimalText(utf8: $0, allowFraction: true) }) else { return nil }
        self = value
    }

    /// Parses `utf8`; nil when it is not in the syntax (with a fraction part only if `allowFraction`).
    init?(utf8: UnsafeBufferPointer<UInt8>, allowFraction: Bool) {
        var index = 0
        var negative = false
        if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
            negative = utf8[index] == UInt8(ascii: "-")
            index += 1
        }
        let wholeStart = index
        while index < utf8.count, DecimalText.isDigit(utf8[index]) { index += 1 }
        guard index > wholeStart else { return nil }
        var whole = Array(utf8[wholeStart..<index])
        var fraction: [UInt8] = []
        if index < utf8.count {
            guard allowFraction, utf8[index] == UInt8(ascii: ".") else { return nil }
            index += 1
            let fractionStart = index
            while index < utf8.count, DecimalText.isDigit(utf8[index]) { index += 1 }
            guard index > fractionStart, index == utf8.count else { return nil }
            fraction = Array(utf8[fractionStart..<index])
        }
        while whole.first == UInt8(ascii: "0") { whole.removeFirst() }
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        self.whole = whole
        self.fraction = fraction
        self.negative = negative && !(whole.isEmpty && fraction.isEmpty)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func < (lhs: DecimalText, rhs: DecimalText) -> Bool {
        if lhs.negative != rhs.negative { return lhs.negative }
        let magnitude = DecimalText.compareMagnitude(lhs, rhs)
        return lhs.negative ? magnitude > 0 : magnitude < 0
    }

    /// -1, 0, 1 as |lhs| is below, equal to or above |rhs|.
    private static func compareMagnitude(_ lhs: DecimalText, _ rhs: DecimalText) -> Int {
        if lhs.whole.count != rhs.whole.count { return lhs.whole.count < rhs.whole.count ? -1 : 1 }
        for (a, b) in zip(lhs.whole, rhs.whole) where a != b { return a < b ? -1 : 1 }
        for (a, b) in zip(lhs.fraction, rhs.fraction) where a != b { return a < b ? -1 : 1 }
        if lhs.fraction.count == rhs.fraction.count { return 0 }
        return lhs.fraction.count < rhs.fraction.count ? -1 : 1
    }
}
