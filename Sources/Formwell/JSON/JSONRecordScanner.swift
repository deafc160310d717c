/// The fast path for JSONL records: reads ONE line that must be a JSON object whose values are strings,
/// numbers, booleans or null, and hands each member to a closure as bytes, in document order.
///
/// It allocates nothing per value in the common case: a key or string without escapes is passed as a
/// slice of the line (after its UTF-8 is checked); only strings with escapes are unescaped, into a
/// scratch buffer the scanner owns and reuses across members and lines. Numbers and booleans are passed
/// as their JSON text (`30` → `30`, `true` → `true`), null as an empty value of kind `.null`.
///
/// It is as strict as `JSONParser` (RFC 8259, invalid UTF-8 and unpaired surrogate escapes refused,
/// no comments, trailing commas or leading zeros). An array or object as a value is refused as
/// `key 'password': expected a string`. Errors are `JSONError`s whose column and offset are within the
/// line and whose line is 1: the caller knows the line number and sets it. Duplicate keys are passed on
/// as they come; what they mean is the caller's decision.
public struct JSONRecordScanner {
    /// What a member's value was in the JSON text.
    public enum Kind: Sendable, Equatable {
        case string, number, bool, null
    }

    /// One member, valid only during the closure call (the bytes may point into the line or into the
    /// scanner's scratch buffer).
    public struct Member {
        /// The key, unescaped UTF-8.
        public let key: UnsafeBufferPointer<UInt8>
        /// The value, unescaped UTF-8: a string's text, a number's or a boolean's JSON text, empty for null.
        public let value: UnsafeBufferPointer<UInt8>
        public let kind: Kind
    }

    /// Where a key or value's bytes are: in the line, or in `scratch` (unescaped).
    private enum Bytes {
        case line(Int, Int)
        case scratch(Int, Int)
    }

    private var scratch: [UInt8] = []

    public init() {
        scratch.reserveCapacity(256)
    }

    /// Reads `line` (without its line break; a trailing CR is whitespace) and calls `body` once per
    /// member. Throws a `JSONError` for a line that is not such an object (members before the error
    /// have been passed on already), or whatever `body` throws.
    public mutating func scan(_ line: UnsafeBufferPointer<UInt8>, _ body: (Member) throws -> Void) throws {
        let end = line.count
        var index = Self.skipWhitespace(line, from: 0)
        guard index < end else { throw JSONError("expected a JSON object, found an empty line", at: index, in: line) }
        guard line[index] == UInt8(ascii: "{") else { throw JSONError("expected a JSON object", at: index, in: line) }
        index = Self.skipWhitespace(line, from: index + 1)
        if index < end, line[index] == UInt8(ascii: "}") {
            return try finish(line, after: index + 1)
        }
        while true {
            scratch.removeAll(keepingCapacity: true)
            // The key.
            guard index < end else { throw JSONError("unexpected end of input", at: index, in: line) }
            guard line[index] == UInt8(ascii: "\"") else {
                throw JSONError("expected a string key", at: index, in: line)
            }
            let key: Bytes
            (key, index) = try string(line, quote: index)
            index = Self.skipWhitespace(line, from: index)
            guard index < end else { throw JSONError("unexpected end of input", at: index, in: line) }
            guard line[index] == UInt8(ascii: ":") else { throw JSONError("expected ':' after an object key", at: index, in: line) }
            index = Self.skipWhitespace(line, from: index + 1)
            // The value.
            guard index < end else { throw JSONError("unexpected end of input", at: index, in: line) }
            let value: Bytes
            let kind: Kind
            switch line[index] {
            case UInt8(ascii: "\""):
                (value, index) = try string(line, quote: index)
                kind = .string
            case UInt8(ascii: "t"):
                value = .line(index, index + 4)
                index = try literal("true", line, at: index)
                kind = .bool
            case UInt8(ascii: "f"):
                value = .line(index, index + 5)
                index = try literal("false", line, at: index)
                kind = .bool
            case UInt8(ascii: "n"):
                index = try literal("null", line, at: index)
                value = .line(index, index)
                kind = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                do {
                    index = try JSONNumberReader.read(line, at: index)
                } catch {
                    throw JSONError(error.message, at: error.offset, in: line)
                }
                value = .line(start, index)
                kind = .number
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                throw JSONError("key '\(text(key, line))': expected a string", at: index, in: line)
            default:
                throw JSONError("expected a value", at: index, in: line)
            }
            try call(body, key, value, kind, line)
            // What follows the member.
            index = Self.skipWhitespace(line, from: index)
            guard index < end else { throw JSONError("unexpected end of input", at: index, in: line) }
            if line[index] == UInt8(ascii: ",") {
                index = Self.skipWhitespace(line, from: index + 1)
                continue
            }
            guard line[index] == UInt8(ascii: "}") else {
                throw JSONError("expected ',' or '}' after an object member", at: index, in: line)
            }
            return try finish(line, after: index + 1)
        }
    }

    /// Only whitespace may follow the closing brace.
    private func finish(_ line: UnsafeBufferPointer<UInt8>, after index: Int) throws(JSONError) {
        let rest = Self.skipWhitespace(line, from: index)
        guard rest == line.count else { throw JSONError("unexpected data after the JSON object", at: rest, in: line) }
    }

    /// Reads a string: a slice of the line when it has no escapes, else unescaped onto `scratch`.
    @inline(__always)
    private mutating func string(_ line: UnsafeBufferPointer<UInt8>, quote: Int) throws(JSONError) -> (Bytes, Int) {
        let start = scratch.count
        do {
            let (close, escaped) = try JSONStringReader.read(line, quote: quote, into: &scratch)
            return (escaped ? .scratch(start, scratch.count) : .line(quote + 1, close), close + 1)
        } catch {
            throw JSONError(error.message, at: error.offset, in: line)
        }
    }

    @inline(__always)
    private func literal(_ word: StaticString, _ line: UnsafeBufferPointer<UInt8>, at index: Int) throws(JSONError) -> Int {
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { (expected) -> Bool in
            guard line.count - index >= count else { return false }
            for offset in 0..<count where line[index + offset] != expected[offset] { return false }
            return true
        }
        guard matches else { throw JSONError("expected a value (did you mean '\(word)'?)", at: index, in: line) }
        return index + count
    }

    /// Calls `body` with pointers resolved against the line or the scratch buffer.
    @inline(__always)
    private func call(_ body: (Member) throws -> Void, _ key: Bytes, _ value: Bytes, _ kind: Kind,
                      _ line: UnsafeBufferPointer<UInt8>) throws {
        switch (key, value) {
        case (.line(let keyStart, let keyEnd), .line(let valueStart, let valueEnd)):
            try body(Member(key: Self.slice(line, keyStart, keyEnd), value: Self.slice(line, valueStart, valueEnd), kind: kind))
        default:
            try scratch.withUnsafeBufferPointer { buffer in
                try body(Member(key: Self.resolve(key, line, buffer), value: Self.resolve(value, line, buffer), kind: kind))
            }
        }
    }

    @inline(__always)
    private static func resolve(_ bytes: Bytes, _ line: UnsafeBufferPointer<UInt8>, _ scratch: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        switch bytes {
        case .line(let start, let end): return slice(line, start, end)
        case .scratch(let start, let end): return slice(scratch, start, end)
        }
    }

    /// `buffer[start..<end]`, clamped so that no index outside the buffer can be formed.
    @inline(__always)
    private static func slice(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UnsafeBufferPointer<UInt8> {
        let upper = min(max(end, 0), buffer.count)
        let lower = min(max(start, 0), upper)
        return UnsafeBufferPointer(rebasing: buffer[lower..<upper])
    }

    /// A key as text, for an error message.
    private func text(_ bytes: Bytes, _ line: UnsafeBufferPointer<UInt8>) -> String {
        scratch.withUnsafeBufferPointer { String(decoding: Self.resolve(bytes, line, $0), as: UTF8.self) }
    }

    @inline(__always)
    private static func skipWhitespace(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < line.count {
            switch line[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return index
            }
        }
        return index
    }
}
