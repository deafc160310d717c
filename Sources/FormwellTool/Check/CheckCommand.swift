import Formwell
import Glibc

/// `formwell check SPEC DATA`: loads the spec, reads the records into batches of columns, checks
/// each batch on every core (`Form.checkBatch`), and reports every record in input order.
struct CheckCommand {
    let options: CheckOptions
    /// Records per batch: large enough that starting the worker threads is noise, small enough
    /// that memory stays flat (a few MB) on any input size.
    static let batchRecords = 16_384
    /// A batch is also checked once its columns hold this many bytes (offsets are 32-bit).
    static let batchBytes = 64 << 20

    func run() throws(ToolError) -> Int32 {
        let (form, spec) = try SpecLoader.load(options.specPath, locale: options.locale, maxBytes: options.maxSpecBytes)
        let fd = try DataSource.open(options.dataPath)
        defer { if fd != STDIN_FILENO { close(fd) } }
        let name = options.dataPath == "-" ? "standard input" : options.dataPath
        let lines = LineReader(fd: fd, name: name, maxLineBytes: options.maxLineBytes)
        var records = try InputFormat.reader(
            for: options.dataPath, forced: options.input, lines: lines, delimiter: options.delimiter)

        let output = OutputBuffer(fd: STDOUT_FILENO)
        let progress = Progress()
        let fields = FieldTable(spec: spec)
        let messages = MessageTable(form: form, spec: spec)
        var summary = Summary(fieldIDs: fields.ids, messages: messages)
        var report: any Reporter = switch options.format {
        case .human: HumanReport(output: output, fieldIDs: fields.ids)
        case .json: JSONReport(output: output, fieldIDs: fields.ids)
        }
        // Keys that are not fields: noted once each, in the order first met, after the fit check.
        var notedKeys: Set<String> = []
        var pendingKeys: [String] = []
        var fitChecked = false

        var batch = RecordBatch(fields: fields)
        var itemsRead = 0
        do {
            while true {
                let more = try records.read(into: &batch)
                if more {
                    itemsRead += 1
                    progress.tick()
                    for key in batch.unknownKeys where notedKeys.insert(key).inserted { pendingKeys.append(key) }
                    if fitChecked && !pendingKeys.isEmpty {
                        progress.clear()
                        Self.note(pendingKeys)
                        pendingKeys.removeAll()
                    }
                    if batch.items.count < Self.batchRecords && batch.byteCount < Self.batchBytes { continue }
                }
                if !fitChecked {
                    fitChecked = true
                    try checkFit(records: records, batch: batch, itemsRead: itemsRead, unknownKeys: &pendingKeys,
                                 fieldIDs: fields.ids, dataName: name)
                    Self.note(pendingKeys)
                    pendingKeys.removeAll()
                }
                if !batch.isEmpty {
                    try Self.flush(&batch, form: form, messages: messages, summary: &summary, report: &report)
                    try output.check()
                }
                if !more { break }
            }
        } catch {
            progress.clear()
            output.flush()
            throw error
        }
        progress.clear()
        report.finish(summary)
        try output.finish()
        return summary.allValid ? ExitStatus.allValid : ExitStatus.someInvalid
    }

    private static func note(_ keys: [String]) {
        for key in keys {
            StandardError.write("formwell: note: key \(TerminalText.quoted(key)) is not a field of the spec; ignored\n")
        }
    }

    /// Warns of data that does not fit the spec (`DataFit`); under `--strict`, stops the run. Keys
    /// that the warnings name as near matches get no note of their own.
    private func checkFit(
        records: any RecordReader, batch: RecordBatch, itemsRead: Int, unknownKeys: inout [String], fieldIDs: [String],
        dataName: String
    ) throws(ToolError) {
        let fit = DataFit(fieldIDs: fieldIDs)
        let problems = fit.problems(columns: records.columns, named: batch.namedFields, unknownKeys: unknownKeys,
                                    records: itemsRead, dataName: dataName)
        let folded = Set(fieldIDs.map(DataFit.folded))
        unknownKeys.removeAll { folded.contains(DataFit.folded($0)) }
        guard !problems.isEmpty else { return }
        let kind = options.strict ? "error" : "warning"
        for problem in problems { StandardError.write("formwell: \(kind): \(problem)\n") }
        if options.strict {
            throw ToolError("the data does not fit the spec (--strict); nothing was checked")
        }
    }

    /// Checks the batch's records and reports every item of it in order, then empties it.
    private static func flush(
        _ batch: inout RecordBatch, form: Form, messages: MessageTable, summary: inout Summary, report: inout any Reporter
    ) throws(ToolError) {
        let result: BatchResult
        do {
            result = try batch.check(form)
        } catch {
            throw ToolError("the engine refused a batch of records: \(error.description)")
        }
        let verdicts = Verdicts(result: result, messages: messages)
        for item in batch.items {
            switch item {
            case .record(let line, let row):
                summary.add(verdicts, row: row)
                report.record(line: line, verdicts: verdicts, row: row)
            case .malformed(let line, let reason):
                summary.addMalformed()
                report.malformed(line: line, reason: reason)
            }
        }
        batch.removeAll()
    }
}
