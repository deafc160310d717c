import Formwell

/// What the command line asks for.
enum Command: Equatable {
    case help
    case version
    case checkHelp
    case check(CheckOptions)

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let first = arguments.first else {
            throw UsageError("missing command")
        }
        switch first {
        case "-h", "--help", "help":
            return .help
        case "-V", "--version", "version":
            return .version
        case "check":
            return try parseCheck(Array(arguments.dropFirst()))
        default:
            if first.hasPrefix("-") { throw UsageError("unknown option '\(first)'") }
            throw UsageError("unknown command '\(first)'")
        }
    }

    private static func parseCheck(_ arguments: [String]) throws(UsageError) -> Command {
        var options = CheckOptions()
        var positional: [String] = []
        var index = 0
        var optionsEnded = false

        /// The value of `--name VALUE` or `--name=VALUE`.
        func value(of name: String, inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else {
                throw UsageError("option '\(name)' needs a value", command: "check")
            }
            return arguments[index]
        }

        while index < arguments.count {
            let argument = arguments[index]
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positional.append(argument)
                index += 1
                continue
            }
            if argument == "--" {
                optionsEnded = true
                index += 1
                continue
            }
            let name: String
            let inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            } else {
                (name, inline) = (argument, nil)
            }
            switch name {
            case "-h", "--help":
                return .checkHelp
            case "--format":
                let text = try value(of: name, inline: inline)
                guard let format = OutputFormat(rawValue: text) else {
                    throw UsageError("unknown output format '\(text)' (expected human or json)", command: "check")
                }
                options.format = format
            case "--input":
                let text = try value(of: name, inline: inline)
                guard let format = InputFormat(rawValue: text) else {
                    throw UsageError("unknown input format '\(text)' (expected jsonl or csv)", command: "check")
                }
                options.input = format
            case "--locale":
                let tag = try value(of: name, inline: inline)
                guard MessageCatalogs.catalog(for: tag) != nil else {
                    throw UsageError("unknown locale '\(tag)' (available: \(MessageCatalogs.locales.joined(separator: ", ")))",
                                     command: "check")
                }
                options.locale = tag
            case "--delimiter":
                let text = try value(of: name, inline: inline)
                guard let byte = CheckOptions.delimiter(text) else {
                    throw UsageError("the delimiter must be one ASCII character other than a quote or a line end, "
                        + "or 'tab' (got \(TerminalText.quoted(text)))", command: "check")
                }
                options.delimiter = byte
            case "--strict":
                guard inline == nil else { throw UsageError("option '--strict' takes no value", command: "check") }
                options.strict = true
            case "--max-line-bytes", "--max-spec-bytes":
                let text = try value(of: name, inline: inline)
                guard let size = Limits.parseSize(text) else {
                    throw UsageError("option '\(name)' needs a size in bytes from 1 to 1T, such as 1000, 64K, 64M or 2G "
                        + "(got \(TerminalText.quoted(text)))", command: "check")
                }
                if name == "--max-line-bytes" { options.maxLineBytes = size } else { options.maxSpecBytes = size }
            default:
                throw UsageError("unknown option '\(name)'", command: "check")
            }
            index += 1
        }

        switch positional.count {
        case 0: throw UsageError("check needs SPEC and DATA", command: "check")
        case 1: throw UsageError("check needs DATA after SPEC", command: "check")
        case 2: break
        default: throw UsageError("unexpected argument '\(positional[2])'", command: "check")
        }
        guard positional[0] != "-" else {
            throw UsageError("SPEC must be a file; only DATA can be '-' (standard input)", command: "check")
        }
        options.specPath = positional[0]
        options.dataPath = positional[1]
        return .check(options)
    }
}

/// Options of `formwell check`.
struct CheckOptions: Equatable {
    var specPath = ""
    /// A path, or `-` for standard input.
    var dataPath = ""
    var format = OutputFormat.human
    /// Nil: from the extension, else sniffed from the first non-blank line.
    var input: InputFormat?
    /// The message catalogue to word messages in (a tag `MessageCatalogs` knows); nil: the spec's
    /// own `"locale"`, else English.
    var locale: String?
    /// The CSV field separator (`--delimiter`).
    var delimiter = UInt8(ascii: ",")
    /// `--strict`: data that does not fit the spec (a field with no column, a column that matches
    /// a field only after trimming or case-folding, no records at all) stops the run, exit status 2.
    var strict = false
    var maxLineBytes = Limits.defaultMaxLineBytes
    var maxSpecBytes = Limits.defaultMaxSpecBytes

    /// `--delimiter`'s value as a byte: one printable ASCII character other than `"`, or a TAB
    /// (given as itself, `tab` or `\t`).
    static func delimiter(_ text: String) -> UInt8? {
        if text == "tab" || text == "\\t" || text == "\t" { return 0x09 }
        guard text.utf8.count == 1, let byte = text.utf8.first, byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\"") else {
            return nil
        }
        return byte
    }
}

enum OutputFormat: String, Equatable {
    case human, json
}

/// A command line that cannot be run: reported with a usage hint, exit status 2.
struct UsageError: Error {
    let message: String
    /// The command whose usage the hint shows (nil: the tool's).
    let command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}
