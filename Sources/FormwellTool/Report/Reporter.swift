/// Where results go: one call per record or malformed line, in input order, then `finish`.
protocol Reporter {
    mutating func record(line: Int, verdicts: Verdicts, row: Int)
    mutating func malformed(line: Int, reason: String)
    mutating func finish(_ summary: Summary)
}
