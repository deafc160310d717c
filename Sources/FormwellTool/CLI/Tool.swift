import Formwell
import Glibc

/// Top-level dispatch: parses the arguments, runs the command, maps every failure to an exit status.
enum Tool {
    static func run(_ arguments: [String]) -> Int32 {
        let command: Command
        do {
            command = try Command.parse(arguments)
        } catch {
            StandardError.write("formwell: \(error.message)\n\(HelpText.usageHint(for: error.command))")
            return ExitStatus.failure
        }
        switch command {
        case .help, .checkHelp:
            return write(command == .help ? HelpText.main : HelpText.check)
        case .version:
            return write("formwell \(formwellVersion)\n")
        case .check(let options):
            do {
                return try CheckCommand(options: options).run()
            } catch {
                StandardError.write("formwell: \(error.message)\n")
                return ExitStatus.failure
            }
        }
    }
}

extension Tool {
    /// Writes `text` to standard output: exit status 0, or 2 with a message when the write fails.
    private static func write(_ text: String) -> Int32 {
        let output = OutputBuffer(fd: STDOUT_FILENO)
        output.write(text)
        do {
            try output.finish()
        } catch {
            StandardError.write("formwell: \(error.message)\n")
            return ExitStatus.failure
        }
        return ExitStatus.allValid
    }
}

/// The exit statuses of `formwell check`.
enum ExitStatus {
    /// Every record is valid.
    static let allValid: Int32 = 0
    /// Some record is invalid or malformed.
    static let someInvalid: Int32 = 1
    /// A usage error, a spec error, input that could not be read or is past a limit, data that
    /// does not fit the spec under `--strict`, or output that could not be written.
    static let failure: Int32 = 2
}
