/// Where results go: one call per record or malformed line, then `finish`.
protocol Reporter {
    mutating func record(line: Int, outcome: RecordChecker.Outcome)
    mutating func malformed(line: Int, reason: String)
    mutating func finish(_ summary: Summary)
}
