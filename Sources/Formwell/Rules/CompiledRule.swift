/// A rule ready to run: its kind's catalogue entry applied to checked arguments (patterns compiled,
/// other fields' names resolved), its message and hint worked out once.
struct CompiledRule: Sendable {
    /// What a rule kind checks. Adding a kind adds a case here (unless an existing one fits) and its
    /// verdict in `slowVerdict`.
    enum Check: Sendable {
        case required
        case pattern(Pattern)
        case length(max: Bool, count: Int, unit: LengthUnit)
        /// Equal (`matches`) or different (`not_equal`) from another field: its id and position.
        case peer(fieldID: String, position: Int, equal: Bool)
        /// A value is required while the other field's value meets the condition; passes otherwise.
        case condition(Condition, fieldID: String, position: Int)
        case custom(CustomValidator)
        case url([String])
        case passwordStrength(Int)
        case number(integer: Bool, min: DecimalText?, max: DecimalText?)
        case list(Set<String>, member: Bool)
        /// A text form: uuid, ip, ipv4, ipv6, hostname, luhn.
        case text(TextFormat)
    }

    /// When a conditional rule demands a value, judged on the other field's value.
    enum Condition: Sendable {
        case equals(String)
        case filled
        case empty

        func holds(for other: PeerValue?) -> Bool {
            switch self {
            case .filled: return !(other?.isEmpty ?? true)
            case .empty: return other?.isEmpty ?? true
            case .equals(let expected):
                guard let other else { return expected.isEmpty }
                return other.string == expected
            }
        }
    }

    /// The check as plain values, no references: what the keystroke path runs, retaining nothing
    /// (the pattern stays alive through `check`).
    enum Quick: @unchecked Sendable {
        case required
        /// The compiled code of the pattern (which `check` keeps alive) and whether it is JIT code.
        case pattern(code: OpaquePointer, jit: Bool)
        /// Lengths in grapheme clusters (the default unit): judged inline.
        case minLength(Int)
        case maxLength(Int)
        /// Conditional requirements: they judge only empty values, so a non-empty one passes them.
        case condition
        /// Every other kind: run through `slowVerdict`.
        case other
    }

    private(set) var check: Check
    let quick: Quick
    let message: String?
    /// What a failure says, worked out once per locale (the custom message, else the catalogue's
    /// template, filled): for every rule but `custom`, whose validator may word its own.
    private(set) var failure: String
    /// The accessibility hint when this rule fails: the rule's own, else its kind's default.
    private(set) var hint: String
    /// What a pattern rule says when its match stops at the match limits.
    private(set) var limitFailure: String
    /// The parameters as a JSON object (`{"length":8,"unit":"graphemes"}`, keys sorted): what a
    /// failure reports beside its text and its kind's code.
    let params: String
    /// The stable failure code (`min_length`).
    var code: String { descriptor.code }
    /// The UTF-8 of `failure`, `limitFailure`, `hint`, `code` and `params`, for state reads in place
    /// (made again whenever `localize` words them again).
    /// (Settable here only so a read can borrow it in place: `RuleTexts` has no mutating member
    /// that changes it.)
    var texts = RuleTexts(failure: "", limitFailure: "", hint: "", code: "", params: "")
    /// The checked arguments and the names the templates use (this field's and the named one's),
    /// kept so a new locale can word the rule again.
    private let arguments: [String: RuleArgument]
    private let fieldName: String
    private let peerName: String?
    /// The rule as it was given, for exporting the form as a spec.
    let source: Rule
    let descriptor: RuleDescriptor

    /// The position of the other field this rule reads (`matches`, `not_equal`, the conditional
    /// kinds): a change of that field re-judges this one.
    var peerPosition: Int? {
        switch check {
        case .peer(_, let position, _), .condition(_, _, let position): return position
        default: return nil
        }
    }

    /// The same rule after the field at `removed` left the form: a later field's position moves
    /// down by one (a rule naming the removed field itself is refused earlier).
    func afterRemoving(position removed: Int) -> CompiledRule {
        var moved = self
        switch check {
        case .peer(let id, let position, let equal) where position > removed:
            moved.check = .peer(fieldID: id, position: position - 1, equal: equal)
        case .condition(let condition, let id, let position) where position > removed:
            moved.check = .condition(condition, fieldID: id, position: position - 1)
        default: break
        }
        return moved
    }

    /// Checks `rule`'s arguments against its kind and `field` and the fields already in the form.
    init(_ rule: Rule, for field: Field, in fields: (String) -> (position: Int, field: Field)?,
         validators: (String) -> CustomValidator? = { _ in nil }, catalog: MessageCatalog) throws(FormError) {
        guard let descriptor = RuleCatalog.descriptor(named: rule.kind.name) else {
            let names = RuleCatalog.kinds.map(\.name).joined(separator: ", ")
            throw .invalidArgument("unknown rule '\(rule.kind.name)' (expected one of: \(names))")
        }
        guard let compile = descriptor.compile else {
            throw .invalidArgument("an \(descriptor.name) rule is added with addAsyncRule, not as a synchronous rule")
        }
        var given = rule.kind.arguments
        // A validator given directly (Swift, C) needs no name; a spec's custom rule names one.
        if rule.kind.validator != nil, given["name"] == nil { given["name"] = .string("") }
        let arguments = try RuleArguments(given, for: descriptor, field: field.id)
        let named = arguments.string("field").flatMap(fields)
        let validator = rule.kind.validator ?? arguments.string("name").flatMap(validators)
        let context = RuleContext(fieldID: field.id, lengthBounds: field.lengthBounds, namedPosition: named?.position,
                                  validator: validator)
        check = try compile(arguments, context)
        self.descriptor = descriptor
        message = rule.message
        source = rule
        switch check {
        case .required: quick = .required
        case .pattern(let pattern):
            quick = .pattern(code: pattern.code, jit: pattern.isJITCompiled)
        case .length(let max, let count, .graphemes): quick = max ? .maxLength(count) : .minLength(count)
        case .condition: quick = .condition
        default: quick = .other
        }
        self.arguments = arguments.values
        fieldName = field.displayName
        peerName = named?.field.displayName
        params = CompiledRule.paramsJSON(arguments.values)
        (failure, hint, limitFailure) = ("", "", "")
        localize(catalog)
    }

    /// Words the rule's message and hint in `catalog`'s language (a rule's own message and hint
    /// are templates too, their placeholders filled the same way).
    mutating func localize(_ catalog: MessageCatalog) {
        // The values are worked out once, and only when a template has placeholders (most kinds'
        // texts are plain: "Invalid format").
        let (fieldName, arguments, peerName, check) = (self.fieldName, self.arguments, self.peerName, self.check)
        var worked: [String: String]?
        func values() -> [String: String] {
            if let worked { return worked }
            var values: [String: String] = ["label": fieldName]
            for (name, value) in arguments {
                switch value {
                case .integer(let number): values[name] = String(number)
                case .string(let text), .decimal(let text): values[name] = text
                case .strings(let list): values[name] = catalog.list(list)
                }
            }
            if let peerName { values["field"] = peerName }
            if case .length(_, let count, let unit) = check {
                values["units"] = catalog.unitNoun(unit, count: count)
            }
            worked = values
            return values
        }
        failure = message.map { catalog.fillOwn($0, valuesWhenNeeded: values) }
            ?? catalog.message(descriptor.code, valuesWhenNeeded: values)
        hint = source.hint.map { catalog.fillOwn($0, valuesWhenNeeded: values) } ?? catalog.hint(code, valuesWhenNeeded: values)
        limitFailure = catalog.patternLimitMessage
        texts = RuleTexts(failure: failure, limitFailure: limitFailure, hint: hint, code: code, params: params)
    }

    /// The arguments as a JSON object, keys sorted: integers as numbers, decimals and strings as
    /// strings (exact text), lists as arrays; a directly given validator's empty name left out.
    static func paramsJSON(_ arguments: [String: RuleArgument]) -> String {
        var members: [(key: String, value: JSONValue)] = []
        for name in arguments.keys.sorted() {
            switch arguments[name] {
            case .integer(let number)?: members.append((name, .integer(number)))
            case .string(let text)?: if !(name == "name" && text.isEmpty) { members.append((name, .string(text))) }
            case .decimal(let text)?: members.append((name, .string(text)))
            case .strings(let list)?: members.append((name, .array(list.map(JSONValue.string))))
            case nil: continue
            }
        }
        return members.isEmpty ? CompiledRule.noParams : JSONWriter.write(.object(members))
    }

    /// The parameters of a rule without any (`{}`), written once.
    static let noParams = JSONWriter.write(.object([]))

    /// The failure of a rule judged outside the inline cases (`Quick.other`) on a non-empty value;
    /// nil when it passes.
    func slowVerdict(on value: Subject, valueAt: (Int) -> PeerValue?) throws(FormError) -> RuleFailure? {
        let passes: Bool
        switch check {
        case .required, .pattern, .condition:
            return nil  // judged by the quick path, never sent here
        case .length(let max, let count, let unit):
            let length = unit.count(value)
            passes = max ? length <= count : length >= count
        case .peer(_, let position, let equal):
            guard let other = valueAt(position) else { return equal ? .own : nil }
            passes = value.equals(other) == equal
        case .custom(let validator):
            let answer: CustomValidator.Verdict
            do {
                answer = try validator.check(value.string)
            } catch {
                throw .callbackFailed(String(describing: error))
            }
            switch answer {
            case .valid: return nil
            case .invalid(let own):
                // The rule's own message as given (unfilled), else the validator's words, else the failure.
                guard let text = message ?? own else { return .own }
                return .worded(text)
            }
        case .url(let schemes):
            passes = URLCheck.isValid(value, schemes: schemes)
        case .passwordStrength(let minimum):
            passes = PasswordStrength.score(value) >= minimum
        case .number(let integer, let min, let max):
            guard let number = DecimalText(utf8: value.utf8, allowFraction: !integer) else { return .own }
            passes = !(min.map { number < $0 } ?? false) && !(max.map { $0 < number } ?? false)
        case .list(let values, let member):
            passes = values.contains(value.string) == member
        case .text(let format):
            passes = format.accepts(value.string)
        }
        return passes ? nil : .own
    }
}

extension PeerValue {
    var isEmpty: Bool {
        switch self {
        case .stored(let value): return value.isEmpty
        case .bytes(let bytes): return bytes.isEmpty
        }
    }

    var string: String {
        switch self {
        case .stored(let value): return value.string
        case .bytes(let bytes): return String(decoding: bytes, as: UTF8.self)
        }
    }
}

extension RuleContext {
    /// The tightest bound in `unit` set by the field's earlier rules: the largest min_length
    /// (max: false) or the smallest max_length (max: true), if any.
    func lengthBound(max: Bool, unit: LengthUnit) -> Int? {
        guard let bounds = lengthBounds[unit] else { return nil }
        return max ? bounds.max : bounds.min
    }
}
