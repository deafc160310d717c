/// Seed 03's single-value validation (`validator.validate(value)`) without a form: rules run in
/// order on one value in the strict stage, exactly as a field left by the user judges it.
public enum ValueCheck {
    /// What checking one value found.
    public struct Verdict: Equatable, Sendable {
        /// `.empty` (an empty value no `required` rule refuses), `.valid` or `.invalid(message)`.
        public let validity: Validity
        /// The failure's code and parameters (JSON object); "" and "{}" unless invalid.
        public let code: String
        public let params: String
        /// Index of the failing rule in the rules given; nil unless invalid.
        public let failingRule: Int?
        /// A pattern stopped at its match limits (code `pattern_limit`).
        public let limitExceeded: Bool

        public var message: String? { validity.message }
        /// Not invalid (an empty optional value passes, as in a form).
        public var isValid: Bool {
            if case .invalid = validity { return false }
            return true
        }
    }

    /// The rules of a single-value check from JSON: one rule object as in a spec, or an array of
    /// them (`[{"rule": "required"}, {"rule": "min_length", "length": 8}]`).
    public static func rules(json: String) throws(SpecError) -> [Rule] {
        try SpecReader.readRules(json).map { Rule($0.kind, message: $0.message, hint: $0.hint) }
    }

    /// Checks `value` against `rules` (in order, first failure wins) with messages in `locale`.
    /// `label` names the value in templates (`{label}`). Rules that compare with another field
    /// (`matches`, `not_equal`, `required_if`, …) need a form and are refused, as are async rules.
    public static func check(
        _ value: String, against rules: [Rule], locale: String = "en", label: String? = nil
    ) throws(FormError) -> Verdict {
        for rule in rules {
            // What only a form has: other fields, rule sets, named validators, a host answering
            // asynchronous checks (a validator given directly, in Swift, needs none).
            let name = rule.kind.name
            let descriptor = RuleCatalog.descriptor(named: name)
            if descriptor?.parameters.contains(where: { $0.type == .fieldID }) == true {
                throw .invalidArgument("a \(name) rule compares with another field: check the value in a form")
            }
            if name == RuleCatalog.setRuleName || name == "async" || (name == "custom" && rule.kind.validator == nil) {
                let what = name == RuleCatalog.setRuleName ? "a rule set reference" : "a \(name) rule"
                throw .invalidArgument("\(what) needs a form: check the value in a form")
            }
        }
        var form = try Form(locale: locale)
        try form.addField("value", label: label, rules: rules)
        try form.setValue(value, at: 0)
        try form.touch(at: 0)
        let state = try form.state(at: 0)
        return Verdict(validity: state.validity, code: state.code, params: state.params, failingRule: state.failingRule,
                       limitExceeded: state.limitExceeded)
    }
}
