/// A pattern PCRE2 refused to compile: its message and the byte offset in the pattern where it stopped.
public struct PatternError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public let offset: Int

    public var description: String { "\(message) at offset \(offset)" }
}
