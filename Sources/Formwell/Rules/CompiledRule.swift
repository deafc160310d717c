/// A rule ready to run: patterns compiled, the matched field's name resolved, arguments checked.
struct CompiledRule: Sendable {
    enum Check: Sendable {
        case required
        case pattern(Pattern, defaultMessage: String)
        case minLength(Int)
        case maxLength(Int)
        case matches(fieldID: String, name: String)
        case custom(CustomValidator)
    }

    let check: Check
    let message: String?
    /// The rule as it was given, for exporting the form as a spec.
    let source: Rule

    /// Checks `rule`'s arguments against `field` and the fields already in the form.
    init(_ rule: Rule, for field: Field, in fields: (String) -> Field?) throws(FormError) {
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
            check = .matches(fieldID: otherID, name: other.displayName)
        case .custom(let validator):
            check = .custom(validator)
        }
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

    /// This rule's verdict on a non-empty value.
    func verdict(
        on value: String, valueOf: (String) -> String?, matchContext: MatchContext
    ) throws(FormError) -> Evaluation {
        switch check {
        case .pattern(let pattern, let defaultMessage):
            switch pattern.matchWhole(value, context: matchContext) {
            case .match: return Evaluation(.valid)
            case .noMatch: return Evaluation(.invalid(message ?? defaultMessage))
            case .limitExceeded: return Evaluation(.invalid(DefaultMessages.patternLimit), limitExceeded: true)
            case .failed(let detail): throw .internalError("PCRE2 match failed: \(detail)")
            }
        default:
            return Evaluation(try plainVerdict(on: value, valueOf: valueOf))
        }
    }

    private func plainVerdict(on value: String, valueOf: (String) -> String?) throws(FormError) -> Validity {
        switch check {
        case .required, .pattern:
            return .valid
        case .minLength(let count):
            return value.count >= count ? .valid : .invalid(message ?? DefaultMessages.minLength(count))
        case .maxLength(let count):
            return value.count <= count ? .valid : .invalid(message ?? DefaultMessages.maxLength(count))
        case .matches(let fieldID, let name):
            return value == valueOf(fieldID) ? .valid : .invalid(message ?? DefaultMessages.matches(name))
        case .custom(let validator):
            let answer: CustomValidator.Verdict
            do {
                answer = try validator.check(value)
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

    /// The first failing rule's verdict on the current value (`.empty` for an empty value: seed 02
    /// runs no rule on it), every rule running in the order it was added.
    func evaluated(valueOf: (String) -> String?, matchContext: MatchContext) throws(FormError) -> Evaluation {
        guard !value.isEmpty else { return Evaluation(.empty) }
        for rule in rules {
            let verdict: Evaluation
            do {
                verdict = try rule.verdict(on: value, valueOf: valueOf, matchContext: matchContext)
            } catch .callbackFailed(let detail) {
                throw .callbackFailed("custom validator of field '\(id)' failed: \(detail)")
            }
            if verdict.validity != .valid { return verdict }
        }
        return Evaluation(.valid)
    }

    /// This field with its verdict re-run on its current value.
    func reevaluated(valueOf: (String) -> String?, matchContext: MatchContext) throws(FormError) -> Field {
        var updated = self
        let evaluation = try evaluated(valueOf: valueOf, matchContext: matchContext)
        updated.outcome = evaluation.validity
        updated.limitExceeded = evaluation.limitExceeded
        return updated
    }

    /// Whether a rule of this field compares it with `fieldID`.
    func dependsOn(_ fieldID: String) -> Bool {
        rules.contains { rule in
            if case .matches(let other, _) = rule.check { return other == fieldID }
            return false
        }
    }
}
