/// One field as the form stores it: its definition, its current value and where it stands.
struct Field: Sendable {
    let id: String
    let label: String?
    /// Changed only by `Form.reset(values:)`.
    var initialValue: String { didSet { textBytes = Field.textBytes(name: displayName, initial: initialValue) } }
    /// The UTF-8 of the name (the label, else the id) followed by that of the initial value, kept
    /// beside the strings for state reads: borrowing a string's bytes through the pointer a read
    /// reaches the field by retained and released the string (twice per snapshot); these are
    /// borrowed as they are, both in one borrow.
    private var textBytes: FieldValue
    /// Where the initial value starts in `textBytes`.
    private let nameCount: Int
    /// Appended to only through `append` (which keeps `requiredRule`); settable here for `withRules`.
    var rules: [CompiledRule] = []
    /// The value the rules judge: the normalised value when the field has normalisers.
    var value: FieldValue
    /// What was set, when the normalisers changed it (nil: `value` is what was set). What a view
    /// shows back (`FieldState.value`), so normalising never fights the user's typing.
    var raw: FieldValue?
    /// Run in order on every value before the rules (`Normalizer`).
    var normalizers: [Normalizer] = []
    /// A secret field's value (password, token) is never echoed outside its value: not in
    /// exports, reports or a binding's printed form of its state.
    var secret = false
    /// The verdict of every rule but `required` on `value` (`.empty` when the value is empty),
    /// refreshed by each event so that queries never run a validator.
    /// Its failing rule's own message is named, not held (`RuleVerdict`); `outcomeValidity` says it.
    var outcome: RuleVerdict = .empty
    /// The message of a `.worded` outcome (a custom validator's words), else nil.
    var outcomeWords: String?
    /// Index of the rule `outcome` comes from when it is invalid.
    var failingRule: Int?
    /// Whether `outcome` comes from a pattern that hit its match limits.
    var limitExceeded = false
    /// The phase the last judgement put the field in; `input` derives the rest from the stored
    /// verdict (kept apart so an event stores no second copy of the message).
    var phase: Phase = .idle
    var touched = false
    /// Has had focus since it was added or the form was reset.
    var visited = false
    /// The value differs from `initialValue` byte for byte.
    var dirty = false
    /// A set-value changed the value since the field last took part in a validate.
    var modifiedSinceSubmit = false
    /// Has taken part in a validate (whole form or one of its groups) since the last reset: what
    /// mode `onSubmit` waits for.
    var submitted = false
    /// Set from outside (`Form.setError`): overrides the rules' verdict until the value changes.
    var externalError: String?
    /// The field's own mode; nil follows the form's.
    var modeOverride: ValidationMode?
    /// Named groups (wizard steps) the field belongs to.
    var groups: [String] = []
    /// What the refreshing events of modes `onBlur` / `onTouched` last showed; nil before any.
    var frozen: ShownState?
    /// Error mode `all`: the messages of the rules failing after `failingRule`.
    var moreFailures: [String] = []
    /// Their failure codes.
    var moreCodes: [String] = []
    /// The form's message catalogue: the texts of failures that are not a rule's (shared, by reference).
    var catalog: MessageCatalog = MessageCatalogs.english
    /// Asynchronous rules (checked by the host) and where each stands for the current value.
    var asyncRules: [AsyncRule] = []
    var asyncStatus: [AsyncStatus] = []
    /// The form revision at which the field's observable state last changed.
    var changedAt: UInt64 = 0
    /// Index of the first `required` rule and its message, kept when rules are added (every event
    /// and query reads them); nil when the field is optional.
    private(set) var alwaysRequiredRule: Int?
    private(set) var alwaysRequiredMessage: String?
    /// On an empty value: the conditional rule (`required_if`, ...) that makes the field required
    /// for now, as the last evaluation found (Rules/CompiledRule.swift).
    var conditionalRequirement: Int?
    /// The rule that makes the field required now, if any, and its message.
    @inline(__always)
    var requiredRule: Int? { conditionalRequirement ?? alwaysRequiredRule }
    @inline(__always)
    var requiredMessage: String? {
        guard let index = conditionalRequirement else { return alwaysRequiredMessage }
        return rules.indices.contains(index) ? rules[index].failure : catalog.requiredMessage
    }
    /// Positions of the fields whose `matches` rule names this one: exactly the fields a change of
    /// this value must re-judge (kept by the form when rules are added).
    var dependents: [Int] = []
    /// Per unit, the tightest length bounds the rules set (the largest min_length, the smallest
    /// max_length), kept by `append`: a new length rule is checked against them without a look
    /// at the earlier rules.
    private(set) var lengthBounds: [LengthUnit: LengthBounds] = [:]

    /// A field's tightest min_length and max_length in one unit, if any.
    struct LengthBounds: Sendable {
        var min: Int?
        var max: Int?
    }

    init(id: String, label: String?, initialValue: String, normalizers: [Normalizer] = []) {
        self.id = id
        self.label = label
        self.initialValue = initialValue
        let name = label ?? id  // displayName, before self is whole
        nameCount = name.utf8.count
        textBytes = Field.textBytes(name: name, initial: initialValue)
        self.normalizers = normalizers
        let (value, raw) = Field.values(of: FieldValue(initialValue), normalizers: normalizers)
        self.value = value
        self.raw = raw
    }

    /// The value set and what the normalisers make of it: (the value the rules judge, the raw
    /// value when it differs).
    static func values(of set: FieldValue, normalizers: [Normalizer]) -> (FieldValue, FieldValue?) {
        guard !normalizers.isEmpty else { return (set, nil) }
        var original = set
        let normalized = original.withBytes { Normalizer.normalized($0, normalizers) }
        guard let normalized else { return (set, nil) }
        return (FieldValue(normalized), set)
    }

    /// What was set (the raw value): what a view shows.
    var shownValue: FieldValue { raw ?? value }

    /// Whether what was set is empty (read in place).
    var shownIsEmpty: Bool { raw?.isEmpty ?? value.isEmpty }

    /// `body` with the bytes the rules judged and the bytes that were set, borrowed in place: one
    /// borrow when they are the same value (no normaliser changed it, most fields).
    static func withValueBytes<R>(
        of field: UnsafeMutablePointer<Field>, _ body: (_ normalized: UnsafeBufferPointer<UInt8>, _ set: UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        field.pointee.value.withBytes { normalized in
            guard field.pointee.raw != nil else { return body(normalized, normalized) }
            return field.pointee.withShownBytes { set in body(normalized, set) }
        }
    }

    /// The bytes of what was set, borrowed (mutating only so a field reached through a pointer is
    /// not copied; nothing is changed). Without normalisers that is `value` itself.
    mutating func withShownBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard var set = raw else { return value.withBytes(body) }
        return set.withBytes(body)
    }

    private static func textBytes(name: String, initial: String) -> FieldValue {
        FieldValue(Array(name.utf8) + Array(initial.utf8))
    }

    /// Calls `body` with the UTF-8 of the field's name (its label, else its id) and of its initial
    /// value, in place.
    static func withNameAndInitial<R>(
        of field: UnsafeMutablePointer<Field>, _ body: (_ name: UnsafeBufferPointer<UInt8>, _ initial: UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        field.pointee.withNameAndInitial(body)
    }

    /// The same on the field itself (mutating only so that it is borrowed, not copied).
    private mutating func withNameAndInitial<R>(
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ initial: UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        let split = nameCount
        return textBytes.withBytes { texts in
            let cut = min(split, texts.count)
            return body(UnsafeBufferPointer(rebasing: texts[..<cut]), UnsafeBufferPointer(rebasing: texts[cut...]))
        }
    }

    /// How other fields' messages name this one.
    var displayName: String { label ?? id }

    /// Words every rule and the field's own texts in `catalog`'s language.
    /// Texts the library worded in the old language and kept (a mode's shown copy, an asynchronous
    /// rule's default message) are re-worded too: a text equal to what a failure said before says
    /// what it says now; texts from outside (external errors, validators' own words) stay.
    mutating func localize(_ catalog: MessageCatalog) {
        let old = (catalog: self.catalog, failures: rules.map(\.failure), hints: rules.map(\.hint))
        self.catalog = catalog
        for index in rules.indices { rules[index].localize(catalog) }
        if let index = alwaysRequiredRule, rules.indices.contains(index) { alwaysRequiredMessage = rules[index].failure }
        func message(_ text: String, _ code: String) -> String {
            if let index = rules.indices.first(where: { rules[$0].code == code && old.failures[$0] == text }) { return rules[index].failure }
            let pairs = [(old.catalog.requiredMessage, catalog.requiredMessage), (old.catalog.patternLimitMessage, catalog.patternLimitMessage),
                         (old.catalog.asyncMessage, catalog.asyncMessage), (old.catalog.asyncErrorMessage, catalog.asyncErrorMessage)]
            let fixed = [FailureCode.required, FailureCode.patternLimit, FailureCode.async, FailureCode.asyncError]
            if let at = fixed.firstIndex(of: code), pairs[at].0 == text { return pairs[at].1 }
            return text
        }
        func hint(_ text: String, _ code: String) -> String {
            if let index = rules.indices.first(where: { rules[$0].code == code && old.hints[$0] == text }) { return rules[index].hint }
            for (before, now) in [(old.catalog.requiredHint, catalog.requiredHint), (old.catalog.patternLimitHint, catalog.patternLimitHint),
                                  (old.catalog.asyncHint, catalog.asyncHint), (old.catalog.externalHint, catalog.externalHint)]
            where before == text { return now }
            return text
        }
        if var kept = frozen {
            kept.message = message(kept.message, kept.code)
            kept.displayMessage = message(kept.displayMessage, kept.displayCode)
            kept.moreErrors = zip(kept.moreErrors, kept.moreCodes).map { message($0, $1) }
            kept.hint = hint(kept.hint, kept.displayCode)
            frozen = kept
        }
        for index in asyncStatus.indices {
            switch asyncStatus[index] {
            case .invalid(let text): asyncStatus[index] = .invalid(message(text, FailureCode.async))
            case .failed(let text): asyncStatus[index] = .failed(message(text, FailureCode.asyncError))
            default: continue
            }
        }
    }

    mutating func append(_ rule: CompiledRule) {
        if alwaysRequiredRule == nil, case .required = rule.check {
            alwaysRequiredRule = rules.count
            alwaysRequiredMessage = rule.failure
        }
        if case .length(let isMax, let count, let unit) = rule.check {
            var bounds = lengthBounds[unit] ?? LengthBounds()
            if isMax { bounds.max = Swift.min(bounds.max ?? count, count) } else { bounds.min = Swift.max(bounds.min ?? count, count) }
            lengthBounds[unit] = bounds
        }
        rules.append(rule)
    }

    /// Takes back the rule `append` added last (a rule whose first verdict failed), and what
    /// `append` derived from it: `bounds` and `required` are what they were before.
    mutating func removeLastRule(bounds: [LengthUnit: LengthBounds], required: (Int?, String?)) {
        guard !rules.isEmpty else { return }
        rules.removeLast()
        lengthBounds = bounds
        (alwaysRequiredRule, alwaysRequiredMessage) = required
    }

    /// What `removeLastRule` puts back: the first required rule and its message.
    var requiredMarks: (Int?, String?) { (alwaysRequiredRule, alwaysRequiredMessage) }

    /// Adds `position` to `dependents`, which stays sorted and without repeats: a field appended
    /// after the others is appended, anything else found by binary search.
    mutating func addDependent(_ position: Int) {
        guard let last = dependents.last, position <= last else {
            dependents.append(position)
            return
        }
        guard position != last else { return }
        var (low, high) = (0, dependents.count)
        while low < high {
            let middle = low + (high - low) / 2
            if dependents[middle] < position { low = middle + 1 } else { high = middle }
        }
        if low < dependents.count && dependents[low] == position { return }
        dependents.insert(position, at: low)
    }

    /// Stores a verdict computed for this field (on `value`, its new value when one was set).
    /// Inlined, as is `valueChanged`: every keystroke runs both, and the calls cost more than
    /// their stores.
    @inline(__always)
    mutating func store(_ evaluation: Evaluation) {
        outcome = evaluation.verdict
        // (Tested first: storing nil over nil still calls the runtime to release the old value.)
        if outcomeWords != nil || evaluation.details != nil { outcomeWords = evaluation.words }
        failingRule = evaluation.rule
        limitExceeded = evaluation.limitExceeded
        conditionalRequirement = evaluation.requirement
        if let later = evaluation.later {
            (moreFailures, moreCodes) = (later.messages, later.codes)
        } else if !moreFailures.isEmpty {
            (moreFailures, moreCodes) = ([], [])
        }
    }

    /// `outcome` as a validity, its message in words.
    var outcomeValidity: Validity {
        switch outcome {
        case .empty: return .empty
        case .valid: return .valid
        case .worded: return .invalid(outcomeWords ?? "")
        case .ruleFailure:
            guard let index = failingRule, rules.indices.contains(index) else { return .invalid("") }
            return .invalid(rules[index].failureMessage(limitExceeded: limitExceeded))
        }
    }

    /// The field's observable state in a form whose mode is `formMode`, except the value (compared
    /// apart, in place): equal before and after an event means the event changed nothing a view shows.
    struct Tracked: Equatable {
        let phase: Phase
        let touched, visited, dirty, modifiedSinceSubmit, limitExceeded, externalError: Bool
        let shown: ShownState
        let mode: ValidationMode
        let initialValue: String
    }

    func tracked(in formMode: ValidationMode) -> Tracked {
        Tracked(phase: phase, touched: touched, visited: visited, dirty: dirty, modifiedSinceSubmit: modifiedSinceSubmit,
                limitExceeded: limitExceeded, externalError: externalError != nil, shown: shown(in: formMode),
                mode: mode(in: formMode), initialValue: initialValue)
    }

    /// The field's mode in a form whose mode is `formMode`.
    func mode(in formMode: ValidationMode) -> ValidationMode { modeOverride ?? formMode }

    /// A set-value put new bytes in: an external error ends, the flags follow.
    @inline(__always)
    mutating func valueChanged(to bytes: UnsafeBufferPointer<UInt8>) {
        // (Tested first: storing nil over nil still calls the runtime to release the old value.)
        if externalError != nil { externalError = nil }
        modifiedSinceSubmit = true
        // Against the initial value's bytes, in place (the string itself would be retained and released);
        // a value of another length differs without a look at them.
        dirty = textBytes.count &- nameCount != bytes.count || !withNameAndInitial { _, initial in FieldValue.sameBytes(initial, bytes) }
    }
}
