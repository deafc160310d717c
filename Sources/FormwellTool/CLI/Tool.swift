import Formwell

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
            let output = OutputBuffer(fd: 1)
            output.write(command == .help ? HelpText.main : HelpText.check)
            output.flush()
            return ExitStatus.allValid
        case .version:
            let output = OutputBuffer(fd: 1)
            output.write("formwell \(formwellVersion)\n")
            output.flush()
            return ExitStatus.allValid
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

/// The exit statuses of `formwell check`.
enum ExitStatus {
    /// Every record is valid.
    static let allValid: Int32 = 0
    /// Some record is invalid or malformed.
    static let someInvalid: Int32 = 1
    /// A usage error, a spec error, or input that could not be read.
    static let failure: Int32 = 2
}
