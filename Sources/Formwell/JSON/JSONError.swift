/// JSON text that cannot be read: why, and where: the 1-based line and column, the byte offset and the
/// JSON path of the innermost container being read (`fields[2].rules`; empty at the top level).
///
/// Lines end at LF (a CR before it belongs to the line, as JSON allows CRLF). Columns count Unicode
/// scalars from the start of the line, so they match what an editor shows for text without combining
/// characters or tabs; everything before an error has been checked as UTF-8, so the count is exact.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var column: Int
    public var offset: Int
    public var path: String

    public init(message: String, line: Int, column: Int, offset: Int, path: String = "") {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
        self.path = path
    }

    /// Locates `offset` (0...bytes.count) in `bytes`. Only reads indices below `offset`, clamped to the buffer.
    init(_ message: String, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>, path: String = "") {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var column = 1
        var index = 0
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Continuation bytes do not start a scalar.
                column += 1
            }
            index += 1
        }
        self.init(message: message, line: line, column: column, offset: end, path: path)
    }

    /// `line 3, column 17: expected ',' or '}' after an object member`: the position and the message,
    /// without the path (a spec error puts the path in front itself).
    public var positionedMessage: String { "line \(line), column \(column): \(message)" }

    public var description: String { path.isEmpty ? positionedMessage : "\(path): \(positionedMessage)" }
}
