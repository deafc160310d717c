import Formwell

/// The texts of `formwell --help`, `formwell check --help` and the usage hints of usage errors.
enum HelpText {
    static let checkUsage = "usage: formwell check [--format human|json] [--input jsonl|csv] [--delimiter C] [--locale TAG] [--strict] SPEC DATA"

    static func usageHint(for command: String?) -> String {
        if command == "check" {
            return "\(checkUsage)\nTry 'formwell check --help' for more information.\n"
        }
        return "\(checkUsage)\n       formwell --help\nTry 'formwell --help' for more information.\n"
    }

    static let main = """
        usage: formwell <command> [options]

        Formwell validates form data against a form spec (a JSON file, "formwell": 1), with the
        same rules and messages as the Formwell engine and its bindings.

        Commands:
          check SPEC DATA   validate every record of DATA (JSONL or CSV) as a form submit

        Options:
          -h, --help        show this help; `formwell check --help` describes check
          -V, --version     print the version (formwell \(formwellVersion)) and exit

        Exit status (check):
          0  every record is valid
          1  some record is invalid or malformed
          2  usage error, spec error, unreadable input, input past a limit, data that does not
             fit the spec under --strict, or output that could not be written

        Example:
          formwell check examples/registration.json examples/signups.jsonl

        """

    static let check = """
        \(checkUsage)

        Validates each record of DATA against the form spec SPEC as a submit: the record's values
        are set, every field is touched and judged in the strict stage.

        Arguments:
          SPEC               the form spec (JSON, "formwell": 1); custom rules cannot be checked here
          DATA               the records: a JSONL or CSV file, or - for standard input

        Options:
          --format human     for people (default): one line per invalid field of an invalid record,
                               line 12: email: Invalid email format
                               line 40: malformed: <reason>
                             then a summary: records, valid, invalid, malformed, and for each
                             field its invalid count and its most common messages
          --format json      for programs: one JSON object per record, keys sorted, no summary
                               {"codes":{},"errors":{},"line":3,"params":{},"valid":true}
                               {"codes":{"password":"min_length"},
                                "errors":{"password":"Must be at least 8 characters"},"line":12,
                                "params":{"password":{"length":8,"unit":"graphemes"}},"valid":false}
                               {"line":40,"malformed":"<reason>"}
                             (one line each). Every invalid field is under the same key in
                             "errors" (its message), "codes" (the failure's stable code:
                             required, email, min_length, ..., pattern_limit; never translated)
                             and "params" (the failure's parameters, a JSON object, {} for none)
          --input jsonl|csv  the format of DATA; default: from the extension (.jsonl, .ndjson,
                             .json: JSONL; .csv: CSV), else from the first non-blank line
                             ('{' means JSONL, anything else CSV)
          --delimiter C      the CSV field separator: one ASCII character (';', '|') or 'tab';
                             default ','
          --strict           stop (exit status 2, nothing checked) when DATA does not fit the
                             spec: a field with no column (or, in JSONL, named by no record of
                             the first batch), a column that matches a field only after trimming
                             or case-folding, or no records at all; without --strict each is a
                             warning on stderr and the run goes on
          --max-line-bytes N the longest line of DATA (a CSV record spanning lines counts as
                             one), in bytes, or with a suffix K, M or G; default 64M
          --max-spec-bytes N the largest SPEC; default 16M. Past either limit the run stops
                             with exit status 2
          --locale TAG       word the messages in the catalogue TAG names (\(MessageCatalogs.locales.joined(separator: ", "));
                             "fr-CA" or "fr_FR" fall back to "fr"); default: the spec's own
                             "locale", else English. Codes and params do not change with it
          -h, --help         show this help

        Input formats:
          JSONL  one JSON object per line; keys are field ids; values are strings, numbers or
                 booleans (taken as their JSON text: 30 is "30", true is "true") or null
                 (counts as ""); an array or object as a value makes the line malformed
          CSV    RFC 4180: a header row of field ids, then one record per row; quoted fields may
                 hold delimiters, doubled quotes and line breaks; LF, CRLF or CR line ends

          Line numbers are physical lines from 1 (a CSV header is line 1; a CSV record is
          numbered by the line it starts on). Blank lines are skipped. Keys or columns that are
          not fields of the spec are ignored, with one note each on stderr; fields missing from
          a record keep their initial value. A malformed line (bad JSON, an array or object as
          a value, a wrong column count, invalid UTF-8) is reported with its line number,
          counted, and the run goes on; a short CSV row is malformed, not padded. A CSV header
          row that is malformed or names a column twice stops the run. In the human report and
          on stderr, control characters in ids, keys, messages and reasons are escaped
          C-style (\\n, \\x1b). On a terminal, runs longer than a second show progress on
          stderr.

        Exit status:
          0  every record is valid
          1  some record is invalid or malformed
          2  usage error, spec error, unreadable input or unusable CSV header, a line or spec
             past its limit, data that does not fit the spec under --strict, or a failed
             write to standard output (message on stderr; a reader that closes the pipe ends
             the run by SIGPIPE, as for any filter)

        Examples:
          formwell check examples/registration.json examples/signups.jsonl
          formwell check --format json examples/login.json - < logins.csv
          formwell check --locale fr examples/registration.json examples/signups.jsonl
          formwell check --strict --delimiter ';' examples/login.json export.csv

        """
}
