/// One unit of input: a record (its keys and string values, in input order) or a malformed line.
enum RecordItem {
    case record(line: Int, values: [(key: String, value: String)])
    case malformed(line: Int, reason: String)
}

/// A source of records; throws `ToolError` only when the input cannot be read at all.
protocol RecordReader {
    mutating func next() throws(ToolError) -> RecordItem?
}
