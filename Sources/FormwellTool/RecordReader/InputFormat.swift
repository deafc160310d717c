/// The formats DATA can be in, and how the tool tells which one it is.
enum InputFormat: String, Equatable {
    case jsonl, csv

    /// From the file name's extension, if it is one the tool knows.
    init?(extensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jsonl", "ndjson", "json": self = .jsonl
        case "csv": self = .csv
        default: return nil
        }
    }

    /// From the first non-blank byte of the input: `{` is JSONL, anything else CSV.
    static func sniff(_ reader: LineReader) throws(ToolError) -> InputFormat {
        try reader.firstNonBlankByte() == UInt8(ascii: "{") ? .jsonl : .csv
    }

    /// The reader for `--input`, the extension, or what the input starts with, in that order.
    static func reader(
        for path: String, forced: InputFormat?, lines: LineReader, delimiter: UInt8 = UInt8(ascii: ",")
    ) throws(ToolError) -> any RecordReader {
        let format: InputFormat
        if let forced {
            format = forced
        } else if path != "-", let known = InputFormat(extensionOf: path) {
            format = known
        } else {
            format = try sniff(lines)
        }
        switch format {
        case .jsonl: return JSONLReader(lines: lines)
        case .csv: return CSVReader(lines: lines, delimiter: delimiter)
        }
    }
}
