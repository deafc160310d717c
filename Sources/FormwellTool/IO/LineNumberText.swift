/// The decimal digits of a non-negative integer (a line number), appended without making a String.
enum LineNumberText {
    static func append(_ value: Int, to bytes: inout [UInt8]) {
        let value = max(value, 0)
        if value >= 10 { append(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
