/// A source of records: each call reads the next record, or malformed line, into the batch.
/// Throws `ToolError` only when the input cannot be read at all.
protocol RecordReader {
    /// False at the end of the input (nothing added).
    mutating func read(into batch: inout RecordBatch) throws(ToolError) -> Bool
}
