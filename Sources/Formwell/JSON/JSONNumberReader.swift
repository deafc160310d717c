/// Reads one JSON number (RFC 8259 section 6), shared by `JSONParser` and `JSONRecordScanner`:
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. Leading zeros, a bare `.` or `-`, `+1`,
/// `Infinity` and `NaN` are errors. Only the grammar is checked: the text is kept as written, so no
/// precision is lost and huge exponents are not an error (the caller decides what a number means).
enum JSONNumberReader {
    /// Checks the number starting at `start` (a '-' or a digit) and returns the index after it.
    @inline(__always)
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) throws(JSONReadFailure) -> Int {
        let end = bytes.count
        var index = start
        if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < end else { throw JSONReadFailure(message: "unexpected end of input in a number", offset: end) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < end, isDigit(bytes[index]) {
                throw JSONReadFailure(message: "a number must not have leading zeros", offset: index - 1)
            }
        } else if isDigit(bytes[index]) {
            index = digits(bytes, from: index)
        } else {
            throw JSONReadFailure(message: "expected a digit", offset: index)
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < end, isDigit(bytes[index]) else {
                throw JSONReadFailure(message: "expected a digit after the decimal point", offset: index)
            }
            index = digits(bytes, from: index)
        }
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < end, isDigit(bytes[index]) else {
                throw JSONReadFailure(message: "expected a digit in the exponent", offset: index)
            }
            index = digits(bytes, from: index)
        }
        return index
    }

    /// The value of the (already checked) number `bytes[start..<end]` when it is a whole number that
    /// fits in `Int`, whatever its spelling: `8`, `8.0`, `0.8e1` and `80e-1` are all 8 (JSON Schema's
    /// "integer" means a number with no fractional part, and the spec schema's lengths are integers).
    static func integerValue(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        guard start < end, end <= bytes.count else { return nil }
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let integerStart = index
        while index < end, isDigit(bytes[index]) { index += 1 }
        let integerCount = index - integerStart
        var fractionStart = index
        var fractionCount = 0
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionStart = index
            while index < end, isDigit(bytes[index]) { index += 1 }
            fractionCount = index - fractionStart
        }
        var exponent = 0
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < end, isDigit(bytes[index]) {
                // Saturates: anything this large is out of range or fractional either way.
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        // The mantissa's digits, integer part then fraction, as one sequence.
        let total = integerCount + fractionCount
        func digit(_ position: Int) -> Int {
            let byte = position < integerCount ? bytes[integerStart + position] : bytes[fractionStart + position - integerCount]
            return Int(byte - UInt8(ascii: "0"))
        }
        var first = 0
        while first < total, digit(first) == 0 { first += 1 }
        guard first < total else { return 0 }
        var last = total - 1
        while digit(last) == 0 { last -= 1 }
        let scale = exponent - fractionCount + (total - 1 - last)
        guard scale >= 0, last - first + 1 + scale <= 19 else { return nil }
        // Accumulated on the negative side so that Int.min fits.
        var value = 0
        for position in first...last {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(digit(position))
            guard !overflow, !overflow2 else { return nil }
            value = next
        }
        for _ in 0..<scale {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = shifted
        }
        if negative { return value }
        let (positive, overflow) = (0).subtractingReportingOverflow(value)
        return overflow ? nil : positive
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        return index
    }
}
