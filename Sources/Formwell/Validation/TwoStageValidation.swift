/// Seed 02's two stages and seed 03's surfacing rules, as pure functions of a field's stored verdict.
///
/// Each rule is written once, over plain values (kinds, flags) and naming where its message comes
/// from rather than copying it, so the readers that reach a field through a pointer (`FieldState`,
/// `Form.readState`, the keystroke path) and the field's own properties apply the same code, and
/// the hot reader copies no string it does not hand out.
extension Field {
    /// Where a state's message comes from: none, the stored verdict, or the `required` rule.
    enum MessageSource { case none, outcome, required }

    /// Seeds 01/02's input validity: stage 1 (focused, lenient): empty reads `.empty`, `required`
    /// is skipped, else the rules' verdict; stage 2 (inactive, strict): empty and required is
    /// invalid, else the rules' verdict; idle reads `.empty`.
    static func inputValidity(
        phase: Phase, isEmpty: Bool, outcome: StateSummary.ValidityKind, isRequired: Bool
    ) -> (StateSummary.ValidityKind, MessageSource) {
        switch phase {
        case .idle: return (.empty, .none)
        case .focused where isEmpty: return (.empty, .none)
        case .inactive where isEmpty: return isRequired ? (.invalid, .required) : (.empty, .none)
        case .focused, .inactive: return (outcome, outcome == .invalid ? .outcome : .none)
        }
    }

    /// Seed 03's display: nothing until touched; then the strict verdict (an empty field is judged
    /// by `required` alone), an empty optional field showing nothing.
    static func display(
        touched: Bool, isEmpty: Bool, outcome: StateSummary.ValidityKind, isRequired: Bool
    ) -> (StateSummary.DisplayKind, MessageSource) {
        guard touched else { return (.none, .none) }
        if isEmpty { return isRequired ? (.error, .required) : (.none, .none) }
        switch outcome {
        case .empty: return (.none, .none)
        case .valid: return (.valid, .none)
        case .invalid: return (.error, .outcome)
        }
    }

    /// Index of the rule whose message an invalid input validity carries.
    static func failingRule(source: MessageSource, requiredRule: Int?, failingRule: Int?) -> Int? {
        switch source {
        case .none: return nil
        case .outcome: return failingRule
        case .required: return requiredRule
        }
    }

    var outcomeKind: StateSummary.ValidityKind { Field.kind(of: outcome) }

    static func kind(of validity: Validity) -> StateSummary.ValidityKind {
        switch validity {
        case .empty: return .empty
        case .valid: return .valid
        case .invalid: return .invalid
        }
    }

    /// The message a source names.
    func message(from source: MessageSource) -> String? {
        switch source {
        case .none: return nil
        case .outcome: return outcome.message
        case .required: return requiredMessage
        }
    }

    /// Seeds 01/02's input state: the phase with its validity (`inputValidity`).
    var input: InputState {
        let (kind, source) = Field.inputValidity(phase: phase, isEmpty: value.isEmpty, outcome: outcomeKind,
                                                 isRequired: requiredRule != nil)
        let validity: Validity
        switch kind {
        case .empty: validity = .empty
        case .valid: validity = .valid
        case .invalid: validity = .invalid(message(from: source) ?? "")
        }
        switch phase {
        case .idle: return .idle
        case .focused: return .focused(validity)
        case .inactive: return .inactive(validity)
        }
    }

    /// Seed 03's display state (`display(touched:...)`).
    var display: DisplayState {
        let (kind, source) = Field.display(touched: touched, isEmpty: value.isEmpty, outcome: outcomeKind,
                                           isRequired: requiredRule != nil)
        switch kind {
        case .none: return .none
        case .valid: return .valid
        case .error: return .error(message(from: source) ?? "")
        }
    }

    /// The strict verdict on the current value: what a submit decides, touched or not.
    var passesStrictly: Bool { value.isEmpty ? requiredRule == nil : outcomeKind != .invalid }

    /// Index of the rule whose message the input validity carries.
    var inputFailingRule: Int? {
        let (_, source) = Field.inputValidity(phase: phase, isEmpty: value.isEmpty, outcome: outcomeKind,
                                              isRequired: requiredRule != nil)
        return Field.failingRule(source: source, requiredRule: requiredRule, failingRule: failingRule)
    }

    /// Judges the field in place in the given stage: focused (stage 1) or not (stage 2, where an
    /// empty optional field is idle).
    mutating func rejudge(focused: Bool) {
        phase = focused ? .focused : (!value.isEmpty || requiredRule != nil ? .inactive : .idle)
    }

    /// Whether the field's input state has been worked out by an event: it was touched or has left
    /// idle. A change elsewhere (a new rule, the field a `matches` rule names, new limits) re-judges
    /// such a field in its current stage, but leaves a never-judged idle field idle.
    var isJudged: Bool { touched || phase != .idle }
}
