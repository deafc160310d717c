/// What a field shows: its input validity with the message, the display with its message, and the
/// accessibility hint. Worked out from the live verdict by `Field.liveShown`, or kept as a copy
/// (`Field.frozen`) by the modes that refresh it only on some events.
struct ShownState: Equatable, Sendable {
    var validity: StateSummary.ValidityKind
    /// The validity's message ("" unless invalid): the first of `errors`.
    var message: String
    /// Messages after the first, in rule order (error mode `all` only).
    var moreErrors: [String]
    /// Index of the rule `message` comes from; nil unless invalid or for an external error.
    var failingRule: Int?
    var display: StateSummary.DisplayKind
    var displayMessage: String
    /// A prompt to correct the field when the display is an error, else "".
    var hint: String
    /// The failure codes and parameters (JSON objects) of `message` and `displayMessage`
    /// ("" and "{}" for none), and the codes of `moreErrors`.
    var code: String
    var params: String
    var displayCode: String
    var displayParams: String
    var moreCodes: [String]

    /// Before anything was shown.
    static let nothing = ShownState(validity: .empty, message: "", moreErrors: [], failingRule: nil,
                                    display: .none, displayMessage: "", hint: "",
                                    code: "", params: "{}", displayCode: "", displayParams: "{}", moreCodes: [])

    /// Every message of the validity, in rule order.
    var errors: [String] { validity == .invalid ? [message] + moreErrors : [] }

    /// The code of each of `errors`.
    var errorCodes: [String] { validity == .invalid ? [code] + moreCodes : [] }

    /// An idle field carries no verdict (seed 01), whatever was kept.
    func forPhase(_ phase: Phase) -> ShownState {
        guard phase == .idle, validity != .empty else { return self }
        var shown = self
        (shown.validity, shown.message, shown.moreErrors, shown.failingRule) = (.empty, "", [], nil)
        (shown.code, shown.params, shown.moreCodes) = ("", "{}", [])
        return shown
    }
}
