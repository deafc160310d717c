/// A source of records: each call reads the next record, or malformed line, into the batch.
/// Throws `ToolError` only when the input cannot be read at all.
protocol RecordReader {
    /// False at the end of the input (nothing added).
    mutating func read(into batch: inout RecordBatch) throws(ToolError) -> Bool
    /// The column names of a format that has a header row (CSV), once it has been read; nil for
    /// a format whose records name their own keys (JSONL).
    var columns: [String]? { get }
}
