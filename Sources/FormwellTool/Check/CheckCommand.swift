import Formwell
import Glibc

/// `formwell check SPEC DATA`: loads the spec, streams the records through the checker into a
/// report, and answers the exit status.
struct CheckCommand {
    let options: CheckOptions

    func run() throws(ToolError) -> Int32 {
        let form = try SpecLoader.load(options.specPath)
        let fd = try DataSource.open(options.dataPath)
        defer { if fd != STDIN_FILENO { close(fd) } }
        let name = options.dataPath == "-" ? "standard input" : options.dataPath
        let lines = LineReader(fd: fd, name: name)
        var records = try InputFormat.reader(for: options.dataPath, forced: options.input, lines: lines)

        let output = OutputBuffer(fd: STDOUT_FILENO)
        let progress = Progress()
        var checker = RecordChecker(form: form) { note in
            progress.clear()
            StandardError.write("formwell: note: \(note)\n")
        }
        var summary = Summary(fieldIDs: checker.fieldIDs)
        var report: any Reporter = switch options.format {
        case .human: HumanReport(output: output, fieldIDs: checker.fieldIDs)
        case .json: JSONReport(output: output, fieldIDs: checker.fieldIDs)
        }

        do {
            while let item = try records.next() {
                switch item {
                case .record(let line, let values):
                    do {
                        let outcome = try checker.check(values)
                        summary.add(outcome)
                        report.record(line: line, outcome: outcome)
                    } catch {
                        summary.addMalformed()
                        report.malformed(line: line, reason: "the engine refused the record: \(error.description)")
                    }
                case .malformed(let line, let reason):
                    summary.addMalformed()
                    report.malformed(line: line, reason: reason)
                }
                progress.tick()
            }
        } catch {
            progress.clear()
            output.flush()
            throw error
        }
        progress.clear()
        report.finish(summary)
        output.flush()
        return summary.allValid ? ExitStatus.allValid : ExitStatus.someInvalid
    }
}
