/// Seed 02's two stages and seed 03's surfacing rules, as pure functions of a field's stored verdict.
///
/// Each rule is written once, as a static function of the parts it reads, so the readers that reach
/// a field through a pointer (`FieldState`, `Form.readState`: copying a whole field costs a retain
/// per member) and the field's own properties apply the same code.
extension Field {
    /// Seeds 01/02's input state: the phase with its validity. Stage 1 (focused, lenient): empty
    /// reads `.empty`, `required` is skipped, else the rules' verdict. Stage 2 (inactive, strict):
    /// empty and required is invalid, else the rules' verdict.
    static func input(phase: Phase, isEmpty: Bool, outcome: Validity, requiredMessage: String?) -> InputState {
        switch phase {
        case .idle: return .idle
        case .focused: return .focused(isEmpty ? .empty : outcome)
        case .inactive:
            guard isEmpty else { return .inactive(outcome) }
            return .inactive(requiredMessage.map(Validity.invalid) ?? .empty)
        }
    }

    /// The strict verdict on the current value: what a submit decides, touched or not.
    static func strictVerdict(isEmpty: Bool, outcome: Validity, requiredMessage: String?) -> Validity {
        guard isEmpty else { return outcome }
        return requiredMessage.map(Validity.invalid) ?? .empty
    }

    /// Seed 03: nothing until touched; then the strict verdict, an empty optional field showing nothing.
    static func display(touched: Bool, strictVerdict: Validity) -> DisplayState {
        guard touched else { return .none }
        switch strictVerdict {
        case .empty: return .none
        case .valid: return .valid
        case .invalid(let message): return .error(message)
        }
    }

    /// Index of the rule whose message an invalid input validity carries: `required` for an empty
    /// field (only the strict stage judges one invalid), else the rule the stored verdict names.
    static func failingRule(of input: InputState, isEmpty: Bool, requiredRule: Int?, failingRule: Int?) -> Int? {
        guard case .invalid = input.validity else { return nil }
        return isEmpty ? requiredRule : failingRule
    }

    var input: InputState {
        Field.input(phase: phase, isEmpty: value.isEmpty, outcome: outcome, requiredMessage: requiredMessage)
    }

    var strictVerdict: Validity {
        Field.strictVerdict(isEmpty: value.isEmpty, outcome: outcome, requiredMessage: requiredMessage)
    }

    var passesStrictly: Bool { strictVerdict.message == nil }

    /// Judges the field in place in the given stage: focused (stage 1) or not (stage 2, where an
    /// empty optional field is idle).
    mutating func rejudge(focused: Bool) {
        phase = focused ? .focused : (!value.isEmpty || requiredMessage != nil ? .inactive : .idle)
    }

    /// Whether the field's input state has been worked out by an event: it was touched or has left
    /// idle. A change elsewhere (a new rule, the field a `matches` rule names, new limits) re-judges
    /// such a field in its current stage, but leaves a never-judged idle field idle.
    var isJudged: Bool { touched || phase != .idle }
}
