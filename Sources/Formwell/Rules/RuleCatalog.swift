/// THE table of rule kinds. Every surface reads it: the spec reader and writer, `CompiledRule`, the C
/// ABI (`fw_rule_catalog`; `fw_rule_kind` in RuleKind.swift is generated from it by
/// scripts/gen_rules.py), the Python rule classes (generated the same way), the Lua binding (at load)
/// and the rule table of docs/rules-and-messages.md. Adding a kind is one entry here plus its check
/// (`CompiledRule.Check` and its verdict); C values are never reused.
public enum RuleCatalog {
    public static let kinds: [RuleDescriptor] = [
        RuleDescriptor(
            "required", c: 0, summary: "The value must not be empty; checked only in the strict stage (blur, touch, submit), never while typing."
        ) { _, _ throws(FormError) in .required },
        RuleDescriptor(
            "email", c: 1, summary: "The pattern [A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,64} on the whole value."
        ) { _, _ throws(FormError) in .pattern(try builtIn(BuiltInPatterns.email)) },
        RuleDescriptor(
            "phone", c: 2, summary: "Exactly 10 ASCII digits."
        ) { _, _ throws(FormError) in .pattern(try builtIn(BuiltInPatterns.phone)) },
        RuleDescriptor(
            "min_length", c: 3, parameters: [lengthParameter, unitParameter],
            summary: "At least `length` units (default: grapheme clusters)."
        ) { arguments, context throws(FormError) in try length(arguments, context, max: false) },
        RuleDescriptor(
            "max_length", c: 4, parameters: [lengthParameter, unitParameter],
            summary: "At most `length` units (default: grapheme clusters)."
        ) { arguments, context throws(FormError) in try length(arguments, context, max: true) },
        RuleDescriptor(
            "regex", c: 5, parameters: [RuleParameter("pattern", .pattern, "A PCRE2 pattern (UTF mode) the whole value must match.")],
            summary: "A PCRE2 pattern that must match the whole value; each distinct pattern is compiled once."
        ) { arguments, _ throws(FormError) in
            do throws(PatternError) {
                return .pattern(try PatternCache.shared.pattern(for: arguments.string("pattern") ?? ""))
            } catch {
                throw .invalidPattern(error)
            }
        },
        RuleDescriptor(
            "matches", c: 6, parameters: [fieldParameter("The field whose value this one must equal.")],
            summary: "Equal (as Unicode text) to another field's value; re-judged when that field changes."
        ) { arguments, context throws(FormError) in try peer(arguments, context, rule: "matches", equal: true) },
        RuleDescriptor(
            "custom", c: 7, parameters: [RuleParameter("name", .string, "The name of a validator the host defined on the form (Swift and C may give the validator itself).")],
            summary: "A validator the host supplies (by name in a spec); its own message is used when it gives one."
        ) { arguments, context throws(FormError) in
            if let validator = context.validator { return .custom(validator) }
            throw .invalidArgument("no validator named '\(arguments.string("name") ?? "")' is defined")
        },
        RuleDescriptor(
            "async", c: 8,
            parameters: [
                RuleParameter("name", .string, "The check's name, as the host knows it."),
                RuleParameter("debounce_ms", .integer, required: false, default: .integer(Int(AsyncRule.defaultDebounceMilliseconds)),
                              "Milliseconds to wait after the last change before the check is requested."),
            ],
            summary: "A check the host makes (a server round trip), debounced; runs after the synchronous rules.",
            isAsync: true, compile: nil),
        RuleDescriptor(
            "url", c: 9,
            parameters: [RuleParameter("schemes", .stringList, required: false, default: .strings(["http", "https"]),
                                       "The allowed schemes, compared case-insensitively; [] allows any.")],
            summary: "An absolute URL with an allowed scheme and a non-empty host: scheme://host..., RFC 3986 syntax, non-ASCII (IRI) characters allowed, no spaces."
        ) { arguments, _ throws(FormError) in .url(arguments.strings("schemes") ?? []) },
        RuleDescriptor(
            "password_strength", c: 10,
            parameters: [RuleParameter("min_score", .integer, required: false, default: .integer(3), "The lowest passing score, 0 to 4.")],
            summary: "A score of at least min_score, one point each for: 8 or more characters (grapheme clusters), an ASCII uppercase letter, an ASCII digit, a character that is not an ASCII letter or digit."
        ) { arguments, _ throws(FormError) in
            let score = arguments.integer("min_score") ?? 3
            guard score <= 4 else { throw .invalidArgument("password_strength min_score \(score) is out of range (0 to 4)") }
            return .passwordStrength(score)
        },
        RuleDescriptor(
            "html_email", c: 11, summary: "HTML's \"valid e-mail address\" (the WHATWG regex of input type=email): ASCII only, no quoted local parts."
        ) { _, _ throws(FormError) in .pattern(try builtIn(BuiltInPatterns.htmlEmail)) },
        RuleDescriptor(
            "e164", c: 12, summary: "An E.164 number: + then 2 to 15 ASCII digits, the first not 0; no spaces or punctuation."
        ) { _, _ throws(FormError) in .pattern(try builtIn(BuiltInPatterns.e164)) },
        RuleDescriptor(
            "integer", c: 13, parameters: boundParameters,
            summary: "An integer written [+-]digits (leading zeros allowed), compared exactly with the optional bounds."
        ) { arguments, _ throws(FormError) in try number(arguments, integer: true) },
        RuleDescriptor(
            "decimal", c: 14, parameters: boundParameters,
            summary: "A decimal number written [+-]digits[.digits] (no exponent, `.` only), compared exactly with the optional bounds."
        ) { arguments, _ throws(FormError) in try number(arguments, integer: false) },
        RuleDescriptor(
            "one_of", c: 15, parameters: [RuleParameter("values", .stringList, "The allowed values.")],
            summary: "The value equals (as Unicode text) one of `values`."
        ) { arguments, _ throws(FormError) in .list(Set(arguments.strings("values") ?? []), member: true) },
        RuleDescriptor(
            "none_of", c: 16, parameters: [RuleParameter("values", .stringList, "The refused values.")],
            summary: "The value equals (as Unicode text) none of `values`."
        ) { arguments, _ throws(FormError) in .list(Set(arguments.strings("values") ?? []), member: false) },
        RuleDescriptor(
            "not_equal", c: 17, parameters: [fieldParameter("The field whose value this one must differ from.")],
            summary: "Different (as Unicode text) from another field's value; re-judged when that field changes."
        ) { arguments, context throws(FormError) in try peer(arguments, context, rule: "not_equal", equal: false) },
        RuleDescriptor(
            "required_if", c: 18,
            parameters: [fieldParameter("The field whose value decides."),
                         RuleParameter("value", .string, "The value of that field that makes this one required.")],
            summary: "Required (as `required`) while the other field's value equals `value`."
        ) { arguments, context throws(FormError) in
            try condition(arguments, context, rule: "required_if", .equals(arguments.string("value") ?? ""))
        },
        RuleDescriptor(
            "required_with", c: 19, parameters: [fieldParameter("The field whose being filled in makes this one required.")],
            summary: "Required (as `required`) while the other field is not empty."
        ) { arguments, context throws(FormError) in try condition(arguments, context, rule: "required_with", .filled) },
        RuleDescriptor(
            "required_without", c: 20, parameters: [fieldParameter("The field whose being empty makes this one required.")],
            summary: "Required (as `required`) while the other field is empty."
        ) { arguments, context throws(FormError) in try condition(arguments, context, rule: "required_without", .empty) },
        RuleDescriptor(
            "uuid", c: 21,
            parameters: [RuleParameter("version", .integer, required: false, "The UUID version the value must have, 1 to 8 (then the variant must be RFC 9562's); absent: any.")],
            summary: "A UUID in RFC 9562's text form: 32 hex digits as 8-4-4-4-12, either case."
        ) { arguments, _ throws(FormError) in
            let version = arguments.integer("version")
            if let version, !(1...8).contains(version) {
                throw .invalidArgument("uuid version \(version) is out of range (1 to 8)")
            }
            return .text(.uuid(version: version))
        },
        RuleDescriptor(
            "ip", c: 22, parameters: [prefixParameter],
            summary: "An IPv4 address (dotted decimal, no leading zeros) or an IPv6 address (RFC 4291's text forms, no zone)."
        ) { arguments, _ throws(FormError) in .text(.ip(.any, prefix: prefixPolicy(arguments))) },
        RuleDescriptor(
            "ipv4", c: 23, parameters: [prefixParameter],
            summary: "An IPv4 address: four decimal parts 0 to 255, no leading zeros."
        ) { arguments, _ throws(FormError) in .text(.ip(.v4, prefix: prefixPolicy(arguments))) },
        RuleDescriptor(
            "ipv6", c: 24, parameters: [prefixParameter],
            summary: "An IPv6 address in RFC 4291's text forms (`::` compression, a dotted IPv4 tail), no zone."
        ) { arguments, _ throws(FormError) in .text(.ip(.v6, prefix: prefixPolicy(arguments))) },
        RuleDescriptor(
            "hostname", c: 25,
            summary: "An RFC 1123 host name: dot-separated labels of 1 to 63 ASCII letters, digits and hyphens (not first or last), 253 characters at most, no trailing dot."
        ) { _, _ throws(FormError) in .text(.hostname) },
        RuleDescriptor(
            "luhn", c: 26,
            summary: "At least 2 ASCII digits and nothing else, with a Luhn checksum of 0 (card numbers; add digits_only to drop spaces and dashes)."
        ) { _, _ throws(FormError) in .text(.luhn) },
    ]

    private static let byName: [String: RuleDescriptor] = Dictionary(kinds.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    private static let byCValue: [Int32: RuleDescriptor] = Dictionary(kinds.map { ($0.cValue, $0) }, uniquingKeysWith: { first, _ in first })

    public static func descriptor(named name: String) -> RuleDescriptor? { byName[name] }
    public static func descriptor(cValue: Int32) -> RuleDescriptor? { byCValue[cValue] }

    /// The spec's name for a reference to a rule set (not a kind: it stands for the set's rules).
    public static let setRuleName = "set"

    // MARK: Shared parameters and compile steps

    private static let lengthParameter = RuleParameter("length", .integer, "The bound, 0 to 2147483647.")
    private static let unitParameter = RuleParameter(
        "unit", .choice, required: false, default: .string(LengthUnit.graphemes.rawValue),
        choices: LengthUnit.allCases.map(\.rawValue),
        "What is counted: graphemes (user-perceived characters), scalars (code points), utf16 (HTML maxlength), bytes (UTF-8).")
    private static let boundParameters = [
        RuleParameter("min", .decimal, required: false, "The smallest allowed value (inclusive), exact decimal text."),
        RuleParameter("max", .decimal, required: false, "The largest allowed value (inclusive), exact decimal text."),
    ]

    private static let prefixParameter = RuleParameter(
        "prefix", .choice, required: false, default: .string(TextFormat.PrefixPolicy.forbidden.rawValue),
        choices: TextFormat.PrefixPolicy.allCases.map(\.rawValue),
        "A prefix length after a slash (`/24`, `/64`, up to 32 or 128): forbidden, allowed or required.")

    private static func prefixPolicy(_ arguments: RuleArguments) -> TextFormat.PrefixPolicy {
        TextFormat.PrefixPolicy(rawValue: arguments.string("prefix") ?? "") ?? .forbidden
    }

    private static func fieldParameter(_ summary: String) -> RuleParameter { RuleParameter("field", .fieldID, summary) }

    private static func builtIn(_ source: String) throws(FormError) -> Pattern {
        do {
            return try PatternCache.shared.pattern(for: source)
        } catch {
            throw .internalError("built-in pattern failed to compile: \(error)")
        }
    }

    private static func length(_ arguments: RuleArguments, _ context: RuleContext, max: Bool) throws(FormError) -> CompiledRule.Check {
        let count = arguments.integer("length") ?? 0
        let unit = LengthUnit(rawValue: arguments.string("unit") ?? "") ?? .graphemes
        let other = context.lengthBound(max: !max, unit: unit)
        let (low, high) = max ? (other, count) : (count, other)
        if let low, let high, low > high {
            throw .invalidArgument("min_length \(low) is greater than max_length \(high) for field '\(context.fieldID)'")
        }
        return .length(max: max, count: count, unit: unit)
    }

    private static func peer(_ arguments: RuleArguments, _ context: RuleContext, rule: String, equal: Bool) throws(FormError) -> CompiledRule.Check {
        let id = arguments.string("field") ?? ""
        return .peer(fieldID: id, position: try context.peer(id, rule: rule), equal: equal)
    }

    private static func condition(
        _ arguments: RuleArguments, _ context: RuleContext, rule: String, _ condition: CompiledRule.Condition
    ) throws(FormError) -> CompiledRule.Check {
        let id = arguments.string("field") ?? ""
        return .condition(condition, fieldID: id, position: try context.peer(id, rule: rule))
    }

    private static func number(_ arguments: RuleArguments, integer: Bool) throws(FormError) -> CompiledRule.Check {
        let kind = integer ? "integer" : "decimal"
        var bounds: [DecimalText?] = []
        for name in ["min", "max"] {
            guard let text = arguments.decimal(name) else { bounds.append(nil); continue }
            guard let bound = DecimalText(text), !integer || bound.isInteger else {
                throw .invalidArgument("\(kind) \(name) '\(text)' is not \(integer ? "an integer" : "a decimal number")")
            }
            bounds.append(bound)
        }
        if let min = bounds[0], let max = bounds[1], max < min {
            throw .invalidArgument("\(kind) min \(arguments.decimal("min") ?? "") is greater than max \(arguments.decimal("max") ?? "")")
        }
        return .number(integer: integer, min: bounds[0], max: bounds[1])
    }
}
