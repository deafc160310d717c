/// Seed 02's two stages and seed 03's surfacing rules, as pure functions of a field's stored verdict.
extension Field {
    /// Stage 1 (focused, lenient): empty reads `.empty`, `required` is skipped, else the rules' verdict.
    /// Stage 2 (not focused, strict): empty and required is invalid, empty otherwise idle,
    /// else the rules' verdict.
    func inputState(focused: Bool) -> InputState {
        if focused {
            return .focused(value.isEmpty ? .empty : outcome)
        }
        guard value.isEmpty else { return .inactive(outcome) }
        if let message = requiredMessage { return .inactive(.invalid(message)) }
        return .idle
    }

    /// Re-derives `input` in place in the given stage (the same as `input = inputState(focused:)`,
    /// without copying the field to call a method on it).
    mutating func rejudge(focused: Bool) {
        input = inputState(focused: focused)
    }

    /// Whether the field's input state has been worked out by an event: it was touched or has left
    /// idle. A change elsewhere (a new rule, the field a `matches` rule names, new limits) re-judges
    /// such a field in its current stage, but leaves a never-judged idle field idle.
    var isJudged: Bool { touched || input != .idle }

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
        guard input.validity.message != nil else { return nil }
        return value.isEmpty ? requiredRule : failingRule
    }
}
