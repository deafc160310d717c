/// Seed 02's two stages and seed 03's surfacing rules, as pure functions of a field's stored verdict.
extension Field {
    /// Seeds 01/02's input state: the phase with its validity. Stage 1 (focused, lenient): empty
    /// reads `.empty`, `required` is skipped, else the rules' verdict. Stage 2 (inactive, strict):
    /// empty and required is invalid, else the rules' verdict.
    var input: InputState {
        switch phase {
        case .idle: return .idle
        case .focused: return .focused(value.isEmpty ? .empty : outcome)
        case .inactive:
            guard value.isEmpty else { return .inactive(outcome) }
            return .inactive(requiredMessage.map(Validity.invalid) ?? .empty)
        }
    }

    /// Judges the field in place in the given stage: focused (stage 1) or not (stage 2, where an
    /// empty optional field is idle).
    mutating func rejudge(focused: Bool) {
        phase = focused ? .focused : (!value.isEmpty || requiredMessage != nil ? .inactive : .idle)
    }

    /// Whether the field's input state has been worked out by an event: it was touched or has left
    /// idle. A change elsewhere (a new rule, the field a `matches` rule names, new limits) re-judges
    /// such a field in its current stage, but leaves a never-judged idle field idle.
    var isJudged: Bool { touched || phase != .idle }

    /// The strict verdict on the current value: what a submit decides, touched or not.
    var strictVerdict: Validity {
        guard value.isEmpty else { return outcome }
        if let message = requiredMessage { return .invalid(message) }
        return .empty
    }

    var passesStrictly: Bool { strictVerdict.message == nil }

    /// Seed 03: nothing until touched; then the strict verdict, an empty optional field showing nothing.
    var display: DisplayState {
        guard touched else { return .none }
        switch strictVerdict {
        case .empty: return .none
        case .valid: return .valid
        case .invalid(let message): return .error(message)
        }
    }
}

extension Field {
    /// Index of the rule whose message the input validity carries (`required` for an empty
    /// required field in the strict stage), nil unless the input validity is invalid.
    var inputFailingRule: Int? {
        guard input.validity != .empty, input.validity != .valid else { return nil }
        return value.isEmpty ? requiredRule : failingRule
    }
}
