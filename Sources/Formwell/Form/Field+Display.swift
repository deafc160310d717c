/// Seed 02's two stages and seed 03's surfacing rules, as pure functions of a field's stored verdict.
///
/// Each rule is written once, over plain values (kinds, flags) and naming where its message comes
/// from rather than copying it, so the readers that reach a field through a pointer (`FieldState`,
/// `Form.readState`, the keystroke path) and the field's own properties apply the same code, and
/// the hot reader copies no string it does not hand out.
extension Field {
    /// Where a state's message comes from: none, the stored verdict, or the `required` rule.
    enum MessageSource { case none, outcome, required, external }

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
        case .empty, .pending: return (.none, .none)
        case .valid: return (.valid, .none)
        case .invalid: return (.error, .outcome)
        }
    }

    /// Index of the rule whose message an invalid input validity carries.
    static func failingRule(source: MessageSource, requiredRule: Int?, failingRule: Int?) -> Int? {
        switch source {
        case .none, .external: return nil
        case .outcome: return failingRule
        case .required: return requiredRule
        }
    }

    /// The verdict a view sees: the synchronous rules' unless they all pass on a non-empty value;
    /// then pending while an asynchronous rule waits, else the first asynchronous failure, else valid.
    @inline(__always)
    var verdict: Validity {
        // (Case patterns, not `==`: comparing with `==` copied the stored verdict, a retain.)
        guard case .valid = outcome, !asyncStatus.isEmpty else { return outcomeValidity }
        var failure: Validity?
        for status in asyncStatus {
            switch status {
            case .scheduled, .inFlight: return .pending
            case .invalid(let message), .failed(let message): if failure == nil { failure = .invalid(message) }
            case .idle, .valid: continue
            }
        }
        return failure ?? .valid
    }

    /// Index of the rule the verdict's failure comes from: asynchronous rules are numbered after the
    /// synchronous ones.
    @inline(__always)
    var verdictRule: Int? {
        guard case .valid = outcome, !asyncStatus.isEmpty else { return failingRule }
        for (index, status) in asyncStatus.enumerated() {
            switch status {
            case .invalid, .failed: return rules.count + index
            default: continue
            }
        }
        return nil
    }

    @inline(__always)
    var outcomeKind: StateSummary.ValidityKind {
        // Read without making the verdict (a copy of its message) unless asynchronous rules decide it.
        switch outcome {
        case .empty: return .empty
        case .ruleFailure, .worded: return .invalid
        case .valid: return asyncStatus.isEmpty ? .valid : Field.kind(of: verdict)
        }
    }

    static func kind(of validity: Validity) -> StateSummary.ValidityKind {
        switch validity {
        case .empty: return .empty
        case .valid: return .valid
        case .invalid: return .invalid
        case .pending: return .pending
        }
    }

    /// The message a source names.
    func message(from source: MessageSource) -> String {
        switch source {
        case .none: return ""
        case .outcome: return verdict.message ?? ""
        case .required: return requiredMessage ?? ""
        case .external: return externalError ?? ""
        }
    }

    /// The accessibility hint of a failure from `source`.
    @inline(__always)
    func hint(from source: MessageSource) -> String {
        switch source {
        case .none: return ""
        case .external: return catalog.externalHint
        case .required:
            guard let index = requiredRule, rules.indices.contains(index) else { return catalog.requiredHint }
            return rules[index].hint
        case .outcome:
            if limitExceeded { return catalog.patternLimitHint }
            guard let index = verdictRule else { return "" }
            if rules.indices.contains(index) { return rules[index].hint }
            let asyncIndex = index - rules.count
            guard asyncRules.indices.contains(asyncIndex) else { return "" }
            return asyncRules[asyncIndex].hint ?? catalog.asyncHint
        }
    }

    /// Where the code and parameters of the failure `source` names are kept: none, a code without
    /// parameters, a synchronous rule, or an asynchronous one. Plain values (the keystroke path
    /// reads it: a string payload would cost a retain and a release on every read).
    enum FailureRef {
        case none, external, required, patternLimit, rule(Int), async(Int)

        /// The code of a failure without parameters (static text: the keystroke path copies it
        /// without touching a string; `FailureCode` takes its strings from here).
        var fixedCode: StaticString {
            switch self {
            case .external: return "external"
            case .required: return "required"
            case .patternLimit: return "pattern_limit"
            case .none, .rule, .async: return ""
            }
        }
    }

    @inline(__always)
    func failureRef(from source: MessageSource) -> FailureRef {
        switch source {
        case .none: return .none
        case .external: return .external
        case .required:
            guard let index = requiredRule, rules.indices.contains(index) else { return .required }
            return .rule(index)
        case .outcome:
            if limitExceeded { return .patternLimit }
            // Without asynchronous rules the verdict is the synchronous rules' (no Validity compared).
            if asyncStatus.isEmpty, let index = failingRule, rules.indices.contains(index) { return .rule(index) }
            guard let index = verdictRule else { return .none }
            if rules.indices.contains(index) { return .rule(index) }
            let asyncIndex = index - rules.count
            guard asyncRules.indices.contains(asyncIndex), asyncStatus.indices.contains(asyncIndex) else { return .none }
            return .async(asyncIndex)
        }
    }

    /// The code and parameters (JSON object) of the failure whose message `source` names:
    /// ("", "{}") for none.
    @inline(__always)
    func failure(from source: MessageSource) -> (code: String, params: String) {
        let ref = failureRef(from: source)
        switch ref {
        case .none, .external, .required, .patternLimit: return (ref.fixedCode.description, Field.noParameters.description)
        case .rule(let index): return (rules[index].code, rules[index].params)
        case .async(let index): return asyncFailure(index)
        }
    }

    /// An asynchronous rule's failure: `async` (it answered invalid) or `async_error`, with its name.
    private func asyncFailure(_ index: Int) -> (code: String, params: String) {
        let params = JSONWriter.write(.object([("name", .string(asyncRules[index].name))]))
        if case .failed = asyncStatus[index] { return (FailureCode.asyncError, params) }
        return (FailureCode.async, params)
    }

    static let noParameters: StaticString = "{}"

    /// What a live mode shows, as plain values: the validity and display with the source of each
    /// one's message, not the texts. `liveShown` turns it into texts; the snapshot reader copies the
    /// texts straight from where the sources keep them (`withMessage`), so it retains nothing.
    struct LiveView {
        let validity: StateSummary.ValidityKind
        let display: StateSummary.DisplayKind
        /// Where the validity's message and the display's message come from.
        let source: MessageSource
        let shownSource: MessageSource
        let failingRule: Int?
        /// Error mode `all`: whether the validity carries `moreFailures` after its message.
        let carriesMoreFailures: Bool
    }

    /// The live view: seeds 01–03's rules on the stored verdict, in the lenient stage while focused
    /// unless `strict` (every mode but two-stage judges strictly while focused). An external error
    /// stands in for the verdict, on an empty value too.
    /// Always inlined, as are `hint(from:)`, `failureRef(from:)`, `failure(from:)` and the computed
    /// properties they read: the snapshot reader calls them on a field borrowed through a pointer,
    /// and a call that is not inlined makes the compiler copy the whole field first.
    @inline(__always)
    func liveView(strict: Bool) -> LiveView {
        let external = externalError != nil
        let isEmpty = value.isEmpty && !external
        let outcome: StateSummary.ValidityKind = external ? .invalid : outcomeKind
        let stage: Phase = strict && phase == .focused ? .inactive : phase
        let isRequired = requiredRule != nil
        let (validity, inputSource) = Field.inputValidity(phase: stage, isEmpty: isEmpty, outcome: outcome, isRequired: isRequired)
        let (display, displaySource) = Field.display(touched: touched, isEmpty: isEmpty, outcome: outcome, isRequired: isRequired)
        var (source, shownSource) = (inputSource, displaySource)
        if external {
            if source == .outcome { source = .external }
            if shownSource == .outcome { shownSource = .external }
        }
        return LiveView(
            validity: validity, display: display, source: source, shownSource: shownSource,
            failingRule: Field.failingRule(source: source, requiredRule: requiredRule, failingRule: verdictRule),
            carriesMoreFailures: source == .outcome && outcome != .valid && !moreFailures.isEmpty)
    }

    /// The live shown state (`liveView` with its texts).
    func liveShown(strict: Bool) -> ShownState {
        let view = liveView(strict: strict)
        let message = message(from: view.source)
        let failure = failure(from: view.source)
        let shownFailure = view.shownSource == view.source ? failure : self.failure(from: view.shownSource)
        return ShownState(
            validity: view.validity, message: message,
            moreErrors: view.carriesMoreFailures ? moreFailures : [],
            failingRule: view.failingRule, display: view.display,
            displayMessage: view.shownSource == view.source ? message : self.message(from: view.shownSource),
            hint: view.display == .error ? hint(from: view.shownSource) : "",
            code: failure.code, params: failure.params, displayCode: shownFailure.code, displayParams: shownFailure.params,
            moreCodes: view.carriesMoreFailures ? moreCodes : [])
    }

    /// Whether the field's mode shows the live view now (else a kept copy or nothing), and whether
    /// strictly: what `shown(in:)` decides, without making the texts.
    func showsLive(in formMode: ValidationMode) -> (live: Bool, strict: Bool) {
        switch mode(in: formMode) {
        case .twoStage: return (true, false)
        case .onChange: return (true, true)
        case .onBlur: return (false, true)
        case .onTouched: return (touched, true)
        case .onSubmit: return (submitted, true)
        }
    }

    /// Calls `body` with the UTF-8 of the message `source` names, borrowed from where the field
    /// keeps it (a static function over a pointer: no copy of the field, no string made).
    static func withMessage<R>(
        of field: UnsafeMutablePointer<Field>, _ source: MessageSource, _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        switch source {
        case .none: return body(UnsafeBufferPointer(start: nil, count: 0))
        case .required: return withUTF8(field.pointee.requiredMessage, body)
        case .external: return withUTF8(field.pointee.externalError, body)
        case .outcome:
            if field.pointee.asyncStatus.isEmpty {
                // The failing rule's own message (most failures): borrowed from the rule in place.
                if case .ruleFailure = field.pointee.outcome, let index = field.pointee.failingRule {
                    let limited = field.pointee.limitExceeded
                    return field.pointee.withMutableRules { rules in
                        guard rules.indices.contains(index) else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
                        return rules[index].texts.with(limited ? .limitFailure : .failure, body)
                    }
                }
                if case .worded = field.pointee.outcome { return withUTF8(field.pointee.outcomeWords, body) }
            }
            return withUTF8(field.pointee.verdict.message, body)
        }
    }

    /// Calls `body` with the UTF-8 of the failing rule's own message, hint, code and parameters, in
    /// one borrow, when the stored verdict is that rule's own failure (`.ruleFailure`, within the
    /// match limits, no asynchronous rule): what `withMessage`, `withHint` and `withFailure` give
    /// for `.outcome` then. nil (and `body` not called) otherwise.
    static func withOwnFailure<R>(
        of field: UnsafeMutablePointer<Field>,
        _ body: (_ message: UnsafeBufferPointer<UInt8>, _ hint: UnsafeBufferPointer<UInt8>,
                 _ code: UnsafeBufferPointer<UInt8>, _ params: UnsafeBufferPointer<UInt8>) -> R
    ) -> R? {
        guard case .ruleFailure = field.pointee.outcome, !field.pointee.limitExceeded, field.pointee.asyncStatus.isEmpty,
              let index = field.pointee.failingRule else { return nil }
        return field.pointee.withMutableRules { rules in
            guard rules.indices.contains(index) else { return nil }
            return rules[index].texts.withFailureParts(body)
        }
    }

    /// Calls `body` with the UTF-8 of the code and parameters of the failure `source` names (see
    /// `failure(from:)`), borrowed from where they are kept: a rule's, or a constant.
    static func withFailure(
        of field: UnsafeMutablePointer<Field>, _ source: MessageSource,
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        // No failure (most reads): no look at the field.
        let ref = source == .none ? FailureRef.none : field.pointee.failureRefInPlace(from: source)
        switch ref {
        case .none, .external, .required, .patternLimit:
            ref.fixedCode.withUTF8Buffer { code in noParameters.withUTF8Buffer { params in body(code, params) } }
        case .rule(let index):
            field.pointee.withMutableRules { rules in
                guard rules.indices.contains(index) else { return }
                rules[index].texts.withCodeAndParams(body)
            }
        case .async:
            // An asynchronous rule's failure (rare): worked out as strings.
            let (code, params) = field.pointee.failureInPlace(from: source)
            withUTF8(code) { code in withUTF8(params) { params in body(code, params) } }
        }
    }

    /// Calls `body` with the UTF-8 of the hint of a failure from `source` (see `hint(from:)`).
    static func withHint<R>(
        of field: UnsafeMutablePointer<Field>, _ source: MessageSource, _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        switch source {
        case .none: return body(UnsafeBufferPointer(start: nil, count: 0))
        case .outcome where !field.pointee.limitExceeded && field.pointee.asyncStatus.isEmpty:
            guard let index = field.pointee.failingRule else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            return field.pointee.withMutableRules { rules in
                rules.indices.contains(index) ? rules[index].texts.with(.hint, body) : body(UnsafeBufferPointer(start: nil, count: 0))
            }
        default: return withUTF8(field.pointee.hint(from: source), body)
        }
    }

    /// `body` over a string's UTF-8 in place (nil: empty).
    static func withUTF8<R>(_ text: String?, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let text else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }

    /// What the field shows in a form whose mode is `formMode` (see `ValidationMode`).
    func shown(in formMode: ValidationMode) -> ShownState {
        switch mode(in: formMode) {
        case .twoStage: return liveShown(strict: false)
        case .onChange: return liveShown(strict: true)
        case .onBlur: return (frozen ?? .nothing).forPhase(phase)
        case .onTouched: return touched ? liveShown(strict: true) : (frozen ?? .nothing).forPhase(phase)
        case .onSubmit: return submitted ? liveShown(strict: true) : .nothing
        }
    }

    /// `shown(in:)`, `followsChanges(in:)` and `tracked(in:)` for a field reached through a pointer:
    /// mutating (nothing is changed) so the call borrows the field in place instead of copying it.
    mutating func shownInPlace(in formMode: ValidationMode) -> ShownState { shown(in: formMode) }
    mutating func followsChangesInPlace(in formMode: ValidationMode) -> Bool { followsChanges(in: formMode) }
    mutating func trackedInPlace(in formMode: ValidationMode) -> Tracked { tracked(in: formMode) }
    mutating func showsLiveInPlace(in formMode: ValidationMode) -> (live: Bool, strict: Bool) { showsLive(in: formMode) }
    @inline(__always)
    mutating func liveViewInPlace(strict: Bool) -> LiveView { liveView(strict: strict) }
    mutating func failureInPlace(from source: MessageSource) -> (code: String, params: String) { failure(from: source) }
    @inline(__always)
    mutating func failureRefInPlace(from source: MessageSource) -> FailureRef { failureRef(from: source) }

    /// Whether the shown state follows every change right now (else a set-value leaves it as it is).
    func followsChanges(in formMode: ValidationMode) -> Bool {
        switch mode(in: formMode) {
        case .twoStage, .onChange: return true
        case .onBlur: return false
        case .onTouched: return touched
        case .onSubmit: return submitted
        }
    }

    /// Modes that keep a copy take it now (blur, touch, touch-all, validate, external errors).
    mutating func refreshFrozen(in formMode: ValidationMode) {
        switch mode(in: formMode) {
        case .onBlur, .onTouched: frozen = liveShown(strict: true)
        case .twoStage, .onChange, .onSubmit: break
        }
    }

    /// The strict verdict on the current value: what a submit decides, touched or not.
    var strictVerdict: StateSummary.ValidityKind {
        if externalError != nil { return .invalid }
        if value.isEmpty { return requiredRule == nil ? .valid : .invalid }
        switch outcomeKind {
        case .invalid: return .invalid
        case .pending: return .pending
        case .empty, .valid: return .valid
        }
    }

    /// Passes strictly now: neither invalid nor waiting for an asynchronous check.
    var passesStrictly: Bool { strictVerdict == .valid }

    /// Fails strictly now (a pending field is not failing, only not yet valid).
    var failsStrictly: Bool { strictVerdict == .invalid }

    /// Judges the field in place in the given stage: focused (stage 1) or not (stage 2, where an
    /// empty optional field without an external error is idle).
    mutating func rejudge(focused: Bool) {
        phase = focused ? .focused : (!value.isEmpty || requiredRule != nil || externalError != nil ? .inactive : .idle)
    }

    /// Whether the field's input state has been worked out by an event: it was touched or has left
    /// idle. A change elsewhere (a new rule, the field a `matches` rule names, new limits) re-judges
    /// such a field in its current stage, but leaves a never-judged idle field idle.
    var isJudged: Bool { touched || phase != .idle }
}
