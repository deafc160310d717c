/// A rule ready to run: patterns compiled, the matched field's name resolved, arguments checked.
struct CompiledRule: Sendable {
    enum Check: Sendable {
        case required
        case pattern(Pattern, defaultMessage: String)
        case minLength(Int)
        case maxLength(Int)
        /// The other field's id, its position in the form (fields are never removed), its name.
        case matches(fieldID: String, position: Int, name: String)
        case custom(CustomValidator)
    }

    /// The check as plain values, no references: what the keystroke path runs, retaining nothing
    /// (the pattern stays alive through `check`).
    enum Quick: @unchecked Sendable {
        case required
        /// `pattern` (unretained) is only dereferenced when a match needs its time-bounded phase 2.
        case pattern(code: OpaquePointer, jit: Bool, pattern: Unmanaged<Pattern>)
        case minLength(Int)
        case maxLength(Int)
        /// `matches` and `custom`: run through `verdict`.
        case other
    }

    private(set) var check: Check
    let quick: Quick
    let message: String?
    /// What a failure says, worked out once (the custom message, else the default): for every rule
    /// but `custom`, whose validator may word its own.
    let failure: String
    /// The accessibility hint when this rule fails: the rule's own, else its kind's default.
    let hint: String
    /// The rule as it was given, for exporting the form as a spec.
    let source: Rule

    /// The same rule after the field at `removed` left the form: a `matches` rule's position of a
    /// later field moves down by one (a rule naming the removed field itself is refused earlier).
    func afterRemoving(position removed: Int) -> CompiledRule {
        guard case .matches(let id, let position, let name) = check, position > removed else { return self }
        var moved = self
        moved.check = .matches(fieldID: id, position: position - 1, name: name)
        return moved
    }

    /// Checks `rule`'s arguments against `field` and the fields already in the form.
    init(_ rule: Rule, for field: Field, in fields: (String) -> (position: Int, field: Field)?) throws(FormError) {
        message = rule.message
        source = rule
        switch rule.kind {
        case .required:
            check = .required
        case .email:
            check = .pattern(try CompiledRule.builtIn(BuiltInPatterns.email), defaultMessage: DefaultMessages.email)
        case .phone:
            check = .pattern(try CompiledRule.builtIn(BuiltInPatterns.phone), defaultMessage: DefaultMessages.phone)
        case .regex(let source):
            do {
                check = .pattern(try PatternCache.shared.pattern(for: source), defaultMessage: DefaultMessages.regex)
            } catch {
                throw .invalidPattern(error)
            }
        case .minLength(let count):
            try CompiledRule.checkLengths(min: count, max: field.lengthBound(max: true), field: field.id)
            check = .minLength(count)
        case .maxLength(let count):
            try CompiledRule.checkLengths(min: field.lengthBound(max: false), max: count, field: field.id)
            check = .maxLength(count)
        case .matches(let otherID):
            guard otherID != field.id else {
                throw .invalidArgument("field '\(field.id)' cannot be required to match itself")
            }
            guard let other = fields(otherID) else { throw .unknownField(otherID) }
            check = .matches(fieldID: otherID, position: other.position, name: other.field.displayName)
        case .custom(let validator):
            check = .custom(validator)
        }
        let defaultHint: String
        switch check {
        case .required:
            quick = .required
            failure = message ?? DefaultMessages.required
            defaultHint = DefaultHints.required
        case .pattern(let pattern, let defaultMessage):
            quick = .pattern(code: pattern.code, jit: pattern.isJITCompiled, pattern: Unmanaged.passUnretained(pattern))
            failure = message ?? defaultMessage
            switch rule.kind {
            case .email: defaultHint = DefaultHints.email
            case .phone: defaultHint = DefaultHints.phone
            default: defaultHint = DefaultHints.regex
            }
        case .minLength(let count):
            quick = .minLength(count)
            failure = message ?? DefaultMessages.minLength(count)
            defaultHint = DefaultHints.minLength(count)
        case .maxLength(let count):
            quick = .maxLength(count)
            failure = message ?? DefaultMessages.maxLength(count)
            defaultHint = DefaultHints.maxLength(count)
        case .matches(_, _, let name):
            quick = .other
            failure = message ?? DefaultMessages.matches(name)
            defaultHint = DefaultHints.matches(name)
        case .custom:
            quick = .other
            failure = message ?? DefaultMessages.custom
            defaultHint = DefaultHints.custom
        }
        hint = rule.hint ?? defaultHint
    }

    private static func builtIn(_ source: String) throws(FormError) -> Pattern {
        do {
            return try PatternCache.shared.pattern(for: source)
        } catch {
            throw .internalError("built-in pattern failed to compile: \(error)")
        }
    }

    private static func checkLengths(min: Int?, max: Int?, field: String) throws(FormError) {
        for bound in [min, max].compactMap({ $0 }) where bound < 0 {
            throw .invalidArgument("length \(bound) for field '\(field)' is negative")
        }
        if let min, let max, min > max {
            throw .invalidArgument("min_length \(min) is greater than max_length \(max) for field '\(field)'")
        }
    }

    /// The verdict of a rule that needs more than its own parameters (`Quick.other`: `matches`,
    /// `custom`) on a non-empty value. Every other kind is judged inline by `Field.evaluation`.
    func slowVerdict(on value: Subject, valueAt: (Int) -> PeerValue?) throws(FormError) -> Validity {
        switch check {
        case .required, .pattern, .minLength, .maxLength:
            return .valid  // judged by the quick path, never sent here
        case .matches(_, let position, _):
            guard let other = valueAt(position) else { return .invalid(failure) }
            return value.equals(other) ? .valid : .invalid(failure)
        case .custom(let validator):
            let answer: CustomValidator.Verdict
            do {
                answer = try validator.check(value.string)
            } catch {
                throw .callbackFailed(String(describing: error))
            }
            switch answer {
            case .valid: return .valid
            case .invalid(let own): return .invalid(message ?? own ?? DefaultMessages.custom)
            }
        }
    }
}

extension Field {
    /// The tightest bound set by earlier rules: the largest min_length (max: false) or the smallest
    /// max_length (max: true), if any.
    func lengthBound(max: Bool) -> Int? {
        var bound: Int?
        for rule in rules {
            switch rule.check {
            case .minLength(let count) where !max: bound = Swift.max(bound ?? count, count)
            case .maxLength(let count) where max: bound = Swift.min(bound ?? count, count)
            default: continue
            }
        }
        return bound
    }

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

    /// The rules as a buffer, borrowed in place (a mutating method, so a field reached through a
    /// pointer is not copied first; nothing is changed).
    mutating func withRules<R>(
        _ body: (UnsafeBufferPointer<CompiledRule>) throws(FormError) -> R
    ) throws(FormError) -> R {
        // No rules: the empty array's shared storage is never unique, so a mutable borrow would
        // allocate a copy on every keystroke.
        guard !rules.isEmpty else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try rules.withUnsafeMutableBufferPointer { (rules) throws(FormError) -> R in
            try body(UnsafeBufferPointer(rules))
        }
    }

    /// `evaluation(of:...)` given the field's parts: a static function, so the keystroke path can
    /// call it on a field it reaches through a pointer without the compiler copying the whole field.
    static func evaluation(
        of value: Subject, rules: UnsafeBufferPointer<CompiledRule>, id: () -> String, valueAt: (Int) -> PeerValue?,
        matchContext: OpaquePointer?, all: Bool = false
    ) throws(FormError) -> Evaluation {
        guard !value.isEmpty else { return Evaluation(.empty) }
        // Error mode `all`: the first failure is the verdict, later ones are collected behind it.
        var first: Evaluation?
        var more: [String] = []
        // Through the buffer, so no rule is copied (retained) on the way.
        for index in rules.indices {
            var failure: Validity = .valid
            var limited = false
            switch rules[index].quick {
            case .required:
                continue
            case .pattern(let code, let jit, let pattern):
                switch Pattern.matchWhole(value.utf8, code: code, jit: jit, pattern: pattern, context: matchContext) {
                case .match: continue
                case .noMatch: failure = .invalid(rules[index].failure)
                case .limitExceeded: (failure, limited) = (.invalid(DefaultMessages.patternLimit), true)
                case .failed(let detail): throw .internalError("PCRE2 match failed: \(detail)")
                }
            case .minLength(let count):
                if value.characterCount >= count { continue }
                failure = .invalid(rules[index].failure)
            case .maxLength(let count):
                if value.characterCount <= count { continue }
                failure = .invalid(rules[index].failure)
            case .other:
                do throws(FormError) {
                    failure = try rules[index].slowVerdict(on: value, valueAt: valueAt)
                } catch .callbackFailed(let detail) {
                    throw .callbackFailed("custom validator of field '\(id())' failed: \(detail)")
                }
                if failure == .valid { continue }
            }
            guard first != nil else {
                let verdict = Evaluation(failure, limitExceeded: limited, rule: index)
                if !all { return verdict }
                first = verdict
                continue
            }
            if let text = failure.message { more.append(text) }
        }
        guard var verdict = first else { return Evaluation(.valid) }
        verdict.moreFailures = more
        return verdict
    }
}
