/// The progress line: on a terminal only, once a run has taken more than a second, a `\r`-updated
/// line on stderr (`checked 120000 records (95000/s)`) at most about four times a second, cleared at
/// the end or before a note. Never written when stderr is not a terminal.
final class Progress {
    private let enabled: Bool
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var nextUpdate: ContinuousClock.Instant
    private var shownWidth = 0
    private var count = 0

    init(enabled: Bool = StandardError.isTerminal) {
        self.enabled = enabled
        started = clock.now
        nextUpdate = started.advanced(by: .seconds(1))
    }

    /// One more record (or malformed line) done. Looks at the clock every 256 records.
    func tick() {
        count += 1
        guard enabled, count & 0xFF == 0 else { return }
        let now = clock.now
        guard now >= nextUpdate else { return }
        nextUpdate = now.advanced(by: .milliseconds(250))
        let elapsed = started.duration(to: now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Int(Double(count) / seconds) : 0
        let text = "checked \(count) records (\(rate)/s)"
        let padding = String(repeating: " ", count: max(0, shownWidth - text.count))
        StandardError.write("\r" + text + padding)
        shownWidth = text.count
    }

    /// Removes the line, if one is shown.
    func clear() {
        guard shownWidth > 0 else { return }
        StandardError.write("\r" + String(repeating: " ", count: shownWidth) + "\r")
        shownWidth = 0
    }
}
