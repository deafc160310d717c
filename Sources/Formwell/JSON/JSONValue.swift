/// Any JSON value, as `JSONParser` reads it, so a reader such as the spec reader can walk it and name
/// the exact path of whatever is wrong (a Codable model would only say "data corrupted").
///
/// Numbers keep their text exactly as written (no precision is lost, `1e400` is not an error) plus the
/// value when it is a whole number that fits in `Int`. Objects keep their members in document order,
/// duplicates included: what a duplicate key means is the reader's decision.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(text: String, integer: Int?)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// A number from an `Int`.
    public static func integer(_ value: Int) -> JSONValue { .number(text: String(value), integer: value) }

    /// The value of the first member named `key` when this is an object, else nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// How error messages name this kind of value.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    // Written out because tuples (the object members) are not Equatable.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a, let aInteger), .number(let b, let bInteger)): return a == b && aInteger == bInteger
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
}
