/// A field's rules run on a value: the first failing rule's verdict (or every failure), in the
/// order the rules were added. What the verdict shows is `Field+Display.swift`'s.
extension Field {
    /// The first failing rule's verdict on `value` (`.empty` for an empty value: seed 02 runs no
    /// rule on it), every rule running in the order it was added. `valueAt` gives other fields'
    /// values by position (for `matches`).
    func evaluation(
        of value: inout FieldValue, valueAt: (Int) -> FieldValue?, matchContext: OpaquePointer?, all: Bool = false
    ) throws(FormError) -> Evaluation {
        try value.withBytes { (bytes) throws(FormError) in
            try rules.withUnsafeBufferPointer { (rules) throws(FormError) in
                try Field.evaluation(of: Subject(utf8: bytes), rules: rules, id: { id },
                                     valueAt: { valueAt($0).map(PeerValue.stored) }, matchContext: matchContext,
                                     all: all)
            }
        }
    }

    /// `withRules` with the buffer mutable, for borrowing each rule's `texts` in place (nothing is
    /// changed).
    mutating func withMutableRules<R>(_ body: (UnsafeMutableBufferPointer<CompiledRule>) -> R) -> R {
        guard !rules.isEmpty else { return body(UnsafeMutableBufferPointer(start: nil, count: 0)) }
        return rules.withUnsafeMutableBufferPointer { rules in body(rules) }
    }

    /// The rules as a buffer, borrowed in place (a mutating method, so a field reached through a
    /// pointer is not copied first, nor its rules array retained around the call; nothing is
    /// changed). Throwing or not, as `body` is.
    mutating func withRules<R, E: Error>(
        _ body: (UnsafeBufferPointer<CompiledRule>) throws(E) -> R
    ) throws(E) -> R {
        // No rules: the empty array's shared storage is never unique, so a mutable borrow would
        // allocate a copy on every keystroke.
        guard !rules.isEmpty else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try rules.withUnsafeMutableBufferPointer { (rules) throws(E) -> R in
            try body(UnsafeBufferPointer(rules))
        }
    }

    /// An empty value's evaluation: no rule judges it, but a conditional rule whose condition holds
    /// makes the field required for now (`Evaluation.requirement`, the first such rule or the first
    /// `required`, in rule order).
    static func emptyEvaluation(rules: UnsafeBufferPointer<CompiledRule>, valueAt: (Int) -> PeerValue?) -> Evaluation {
        var verdict = Evaluation(.empty)
        // Through `quick` (plain values): most fields are left at once, nothing retained.
        for index in rules.indices {
            switch rules[index].quick {
            case .required:
                return verdict  // the field's own required rule decides (`Field.requiredRule`)
            case .condition:
                guard case .condition(let condition, _, let position) = rules[index].check,
                      condition.holds(for: valueAt(position)) else { continue }
                verdict.requirement = index
                return verdict
            default: continue
            }
        }
        return verdict
    }

    /// `evaluation(of:...)` given the field's parts: a static function, so the keystroke path can
    /// call it on a field it reaches through a pointer without the compiler copying the whole field.
    static func evaluation(
        of value: Subject, rules: UnsafeBufferPointer<CompiledRule>, id: () -> String, valueAt: (Int) -> PeerValue?,
        matchContext: OpaquePointer?, all: Bool = false
    ) throws(FormError) -> Evaluation {
        guard !value.isEmpty else { return emptyEvaluation(rules: rules, valueAt: valueAt) }
        if all { return try everyFailure(of: value, rules: rules, id: id, valueAt: valueAt, matchContext: matchContext) }
        // The first failure is the verdict (no list of later ones to build and release: a keystroke
        // in error mode `first`).
        for index in rules.indices {
            if let (failure, limited) = try failure(of: value, rule: index, in: rules, id: id, valueAt: valueAt,
                                                    matchContext: matchContext) {
                return Evaluation(failure, limitExceeded: limited, rule: index)
            }
        }
        return Evaluation(.valid)
    }

    /// Error mode `all`: the first failure is the verdict, later ones are collected behind it.
    private static func everyFailure(
        of value: Subject, rules: UnsafeBufferPointer<CompiledRule>, id: () -> String, valueAt: (Int) -> PeerValue?,
        matchContext: OpaquePointer?
    ) throws(FormError) -> Evaluation {
        var first: Evaluation?
        var more: [String] = []
        var moreCodes: [String] = []
        for index in rules.indices {
            guard let (failure, limited) = try failure(of: value, rule: index, in: rules, id: id, valueAt: valueAt,
                                                       matchContext: matchContext) else { continue }
            guard first != nil else {
                first = Evaluation(failure, limitExceeded: limited, rule: index)
                continue
            }
            switch failure {
            case .own: more.append(rules[index].failureMessage(limitExceeded: limited))
            case .worded(let text): more.append(text)
            }
            moreCodes.append(limited ? FailureCode.patternLimit : rules[index].code)
        }
        guard var verdict = first else { return Evaluation(.valid) }
        if !more.isEmpty { verdict.setLater(messages: more, codes: moreCodes) }
        return verdict
    }

    /// Rule `index`'s verdict alone on a non-empty value, as `evaluation` finds it (nil: it passes).
    static func ruleFailure(
        of value: Subject, rule index: Int, in rules: UnsafeBufferPointer<CompiledRule>, id: () -> String,
        valueAt: (Int) -> PeerValue?, matchContext: OpaquePointer?
    ) throws(FormError) -> (RuleFailure, Bool)? {
        try failure(of: value, rule: index, in: rules, id: id, valueAt: valueAt, matchContext: matchContext)
    }

    /// Rule `index`'s verdict on a non-empty value: nil when it passes (or does not judge values:
    /// `required` and conditions), else the failure and whether a pattern hit its match limits.
    /// Through the buffer, so no rule is copied (retained) on the way.
    @inline(__always)
    private static func failure(
        of value: Subject, rule index: Int, in rules: UnsafeBufferPointer<CompiledRule>, id: () -> String,
        valueAt: (Int) -> PeerValue?, matchContext: OpaquePointer?
    ) throws(FormError) -> (RuleFailure, Bool)? {
        switch rules[index].quick {
        case .required, .condition:
            return nil
        case .pattern(let code, let jit):
            switch Pattern.matchWhole(value.utf8, code: code, jit: jit, context: matchContext) {
            case .match: return nil
            case .noMatch: return (.own, false)
            case .limitExceeded: return (.own, true)
            case .failed(let detail): throw .internalError("PCRE2 match failed: \(detail)")
            }
        case .minLength(let count):
            return value.characterCount >= count ? nil : (.own, false)
        case .maxLength(let count):
            return value.characterCount <= count ? nil : (.own, false)
        case .other:
            let failure: RuleFailure?
            do throws(FormError) {
                failure = try rules[index].slowVerdict(on: value, valueAt: valueAt)
            } catch .callbackFailed(let detail) {
                throw .callbackFailed("custom validator of field '\(id())' failed: \(detail)")
            }
            return failure.map { ($0, false) }
        }
    }
}
