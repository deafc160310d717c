/// A strict RFC 8259 JSON reader over UTF-8 bytes: the one the library uses for specs.
///
/// Strict means what the RFC's grammar allows and nothing else: no comments, no trailing commas, no
/// single quotes, no leading zeros, no `NaN`, only space, tab, LF and CR as whitespace, any value at
/// the top level. It accepts every `y_` and refuses every `n_` file of JSONTestSuite. Where the RFC
/// leaves the choice to the parser (the suite's `i_` files), it decides:
///
/// - **Invalid UTF-8 is an error**, inside strings or out (truncated or overlong sequences, encoded
///   surrogates, bytes above U+10FFFF, Latin-1, UTF-16 input).
/// - **An unpaired surrogate escape is an error** (`"\uD800"`, `"\uDFAA"`, `"\uD800\n"`, reversed
///   pairs): a Swift `String`, and every value the engine holds, is made of Unicode scalars, so such a
///   string has no faithful value. A proper pair (`"\uD834\uDD1E"`) is one scalar.
/// - **A UTF-8 byte order mark is an error** (the RFC says senders MUST NOT add one and parsers MAY
///   ignore it; refusing it keeps "what you wrote is what is read" and the offsets honest).
/// - **Numbers are accepted whatever their size** (`1e400`, `-1e-400`, 30-digit integers): the text is
///   kept, and `integer` is set only when the value is whole and fits in `Int`.
/// - **Nesting is bounded** (512 open arrays and objects by default): deeper is an error, found at the
///   bracket that goes too deep. The parser keeps its own stack, so no input can exhaust the thread's,
///   whatever thread a C caller uses. 500 nested arrays are accepted.
/// - **Duplicate keys are accepted** and kept in order; the spec reader refuses them.
///
/// Every error is a `JSONError` with a line, a column (in Unicode scalars), a byte offset and the path
/// of the innermost open container, e.g. `fields[2].rules: line 14, column 5: expected ',' or ']' after
/// an array element`.
public struct JSONParser {
    public static let defaultMaximumDepth = 512

    /// Parses `text` (a Swift string is UTF-8 already, so only the JSON grammar can fail).
    public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth) throws(JSONError) -> JSONValue {
        var text = text
        // `withUTF8` rethrows untyped errors: carry the typed one out in a Result.
        let result = text.withUTF8 { bytes in
            Result { () throws(JSONError) -> JSONValue in try parse(bytes, maximumDepth: maximumDepth) }
        }
        return try result.get()
    }

    /// Parses UTF-8 bytes, checking the encoding as well.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(JSONError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONError) -> JSONValue in try parse(buffer, maximumDepth: maximumDepth) }
        }
        return try result.get()
    }

    /// Parses UTF-8 bytes, checking the encoding as well. The buffer is only read during the call.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = defaultMaximumDepth) throws(JSONError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        return try parser.document()
    }

    /// An open array or object: where its elements (and, for an object, its keys) start on the
    /// shared stacks below.
    private struct Frame {
        let isObject: Bool
        let valueStart: Int
        let keyStart: Int
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var position = 0
    private var frames: [Frame] = []
    /// The finished elements and member values of every open container, innermost last.
    private var values: [JSONValue] = []
    /// The keys of every open object's members, including the one whose value is being read.
    private var keys: [String] = []
    /// Unescaped string bytes, reused for every string with escapes.
    private var scratch: [UInt8] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = max(1, maximumDepth)
    }

    private mutating func document() throws(JSONError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw fail("a byte order mark (U+FEFF) is not allowed before JSON text")
        }
        skipWhitespace()
        // One loop instead of recursion: read a value, then hand finished values to their containers.
        reading: while true {
            var value: JSONValue
            guard position < bytes.count else { throw fail("unexpected end of input") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                try open(isObject: true)
                if peek(UInt8(ascii: "}")) {
                    position += 1
                    value = close()
                } else {
                    try key(first: true)
                    continue reading
                }
            case UInt8(ascii: "["):
                try open(isObject: false)
                if peek(UInt8(ascii: "]")) {
                    position += 1
                    value = close()
                } else {
                    continue reading
                }
            case UInt8(ascii: "\""):
                value = .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try number()
            default:
                throw fail("expected a value")
            }
            // `value` is finished: give it to its container, and read what follows it.
            while let frame = frames.last {
                values.append(value)
                skipWhitespace()
                guard position < bytes.count else { throw fail("unexpected end of input") }
                let byte = bytes[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if frame.isObject { try key(first: false) }
                    continue reading
                }
                if byte == (frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    value = close()
                    continue
                }
                throw fail(frame.isObject ? "expected ',' or '}' after an object member" : "expected ',' or ']' after an array element")
            }
            skipWhitespace()
            guard position == bytes.count else { throw fail("unexpected data after the JSON value") }
            return value
        }
    }

    /// Opens the container whose bracket is at `position`, refusing to go deeper than allowed.
    private mutating func open(isObject: Bool) throws(JSONError) {
        guard frames.count < maximumDepth else {
            throw fail("nesting is deeper than \(maximumDepth) levels")
        }
        frames.append(Frame(isObject: isObject, valueStart: values.count, keyStart: keys.count))
        position += 1
        skipWhitespace()
    }

    /// Closes the innermost container, moving its elements off the shared stacks.
    private mutating func close() -> JSONValue {
        guard let frame = frames.popLast() else { return .null }
        let elements = Array(values[frame.valueStart...])
        values.removeSubrange(frame.valueStart...)
        guard frame.isObject else { return .array(elements) }
        let names = keys[frame.keyStart...]
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(elements.count)
        for (name, element) in zip(names, elements) { members.append((key: name, value: element)) }
        keys.removeSubrange(frame.keyStart...)
        return .object(members)
    }

    /// Reads `"key" :` and leaves `position` at the member's value.
    private mutating func key(first: Bool) throws(JSONError) {
        guard position < bytes.count else { throw fail("unexpected end of input") }
        guard bytes[position] == UInt8(ascii: "\"") else {
            throw fail(first ? "expected a string key or '}'" : "expected a string key after ','")
        }
        keys.append(try string())
        skipWhitespace()
        guard position < bytes.count else { throw fail("unexpected end of input") }
        guard bytes[position] == UInt8(ascii: ":") else { throw fail("expected ':' after an object key") }
        position += 1
        skipWhitespace()
    }

    private mutating func string() throws(JSONError) -> String {
        scratch.removeAll(keepingCapacity: true)
        do {
            let (close, escaped) = try JSONStringReader.read(bytes, quote: position, into: &scratch)
            let text = escaped
                ? String(decoding: scratch, as: UTF8.self)
                : String(decoding: UnsafeBufferPointer(rebasing: bytes[(position + 1)..<close]), as: UTF8.self)
            position = close + 1
            return text
        } catch {
            throw fail(error.message, at: error.offset)
        }
    }

    private mutating func number() throws(JSONError) -> JSONValue {
        let start = position
        let end: Int
        do {
            end = try JSONNumberReader.read(bytes, at: start)
        } catch {
            throw fail(error.message, at: error.offset)
        }
        position = end
        return .number(text: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self),
                       integer: JSONNumberReader.integerValue(bytes, from: start, to: end))
    }

    private mutating func literal(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { (expected) -> Bool in
            guard bytes.count - position >= count else { return false }
            for index in 0..<count where bytes[position + index] != expected[index] { return false }
            return true
        }
        guard matches else { throw fail("expected a value (did you mean '\(word)'?)") }
        position += count
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    @inline(__always)
    private func peek(_ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }

    /// The error at `offset` (the current position by default), with the innermost container's path.
    private func fail(_ message: String, at offset: Int? = nil) -> JSONError {
        JSONError(message, at: offset ?? position, in: bytes, path: path())
    }

    /// `fields[2].rules`: the path of the innermost open container ("" at the top level). A child's
    /// place in its parent follows from the stacks: an object's child is the value of its last key, an
    /// array's child is its element number (how many elements were finished before it).
    private func path() -> String {
        var text = ""
        var index = 1
        while index < frames.count {
            let parent = frames[index - 1]
            let child = frames[index]
            if parent.isObject {
                let name = child.keyStart > 0 && child.keyStart - 1 < keys.count ? keys[child.keyStart - 1] : ""
                text += text.isEmpty ? name : ".\(name)"
            } else {
                text += "[\(child.valueStart - parent.valueStart)]"
            }
            index += 1
        }
        return text
    }
}
