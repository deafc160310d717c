/// Shorthands for the catalogue's kinds (Swift callers; every surface can also name a kind
/// generically, so a new kind needs no shorthand to be usable).
extension RuleCall {
    public static let required = RuleCall("required")
    public static let email = RuleCall("email")
    public static let phone = RuleCall("phone")
    public static let htmlEmail = RuleCall("html_email")
    public static let e164 = RuleCall("e164")

    public static func minLength(_ count: Int, unit: LengthUnit? = nil) -> RuleCall {
        RuleCall("min_length", lengthArguments(count, unit))
    }
    public static func maxLength(_ count: Int, unit: LengthUnit? = nil) -> RuleCall {
        RuleCall("max_length", lengthArguments(count, unit))
    }
    public static func regex(_ pattern: String) -> RuleCall { RuleCall("regex", ["pattern": .string(pattern)]) }
    public static func matches(_ fieldID: String) -> RuleCall { RuleCall("matches", ["field": .string(fieldID)]) }
    public static func notEqual(_ fieldID: String) -> RuleCall { RuleCall("not_equal", ["field": .string(fieldID)]) }
    /// A validator given directly.
    public static func custom(_ validator: CustomValidator) -> RuleCall {
        RuleCall("custom", validator.name.map { ["name": .string($0)] } ?? [:], validator: validator)
    }
    /// A validator the form defined under `name` (`Form.defineValidator`).
    public static func custom(named name: String) -> RuleCall { RuleCall("custom", ["name": .string(name)]) }
    public static func async(_ name: String, debounceMilliseconds: UInt64 = AsyncRule.defaultDebounceMilliseconds) -> RuleCall {
        RuleCall("async", ["name": .string(name), "debounce_ms": .integer(Int(clamping: debounceMilliseconds))])
    }
    public static func url(schemes: [String]? = nil) -> RuleCall {
        RuleCall("url", schemes.map { ["schemes": .strings($0)] } ?? [:])
    }
    public static func passwordStrength(minScore: Int? = nil) -> RuleCall {
        RuleCall("password_strength", minScore.map { ["min_score": .integer($0)] } ?? [:])
    }
    /// `min` / `max`: decimal text (`"-5"`, `"10"`).
    public static func integer(min: String? = nil, max: String? = nil) -> RuleCall {
        RuleCall("integer", bounds(min, max))
    }
    public static func decimal(min: String? = nil, max: String? = nil) -> RuleCall {
        RuleCall("decimal", bounds(min, max))
    }
    public static func oneOf(_ values: [String]) -> RuleCall { RuleCall("one_of", ["values": .strings(values)]) }
    public static func noneOf(_ values: [String]) -> RuleCall { RuleCall("none_of", ["values": .strings(values)]) }
    public static func requiredIf(_ fieldID: String, equals value: String) -> RuleCall {
        RuleCall("required_if", ["field": .string(fieldID), "value": .string(value)])
    }
    public static func requiredWith(_ fieldID: String) -> RuleCall { RuleCall("required_with", ["field": .string(fieldID)]) }
    public static func requiredWithout(_ fieldID: String) -> RuleCall {
        RuleCall("required_without", ["field": .string(fieldID)])
    }
    public static let hostname = RuleCall("hostname")
    public static let luhn = RuleCall("luhn")
    /// `version`: 1 to 8, or nil for any.
    public static func uuid(version: Int? = nil) -> RuleCall {
        RuleCall("uuid", version.map { ["version": .integer($0)] } ?? [:])
    }
    /// `prefix`: "forbidden" (the default), "allowed" or "required".
    public static func ip(prefix: String? = nil) -> RuleCall { RuleCall("ip", prefixArguments(prefix)) }
    public static func ipv4(prefix: String? = nil) -> RuleCall { RuleCall("ipv4", prefixArguments(prefix)) }
    public static func ipv6(prefix: String? = nil) -> RuleCall { RuleCall("ipv6", prefixArguments(prefix)) }

    private static func prefixArguments(_ prefix: String?) -> [String: RuleArgument] {
        prefix.map { ["prefix": .string($0)] } ?? [:]
    }

    private static func lengthArguments(_ count: Int, _ unit: LengthUnit?) -> [String: RuleArgument] {
        var arguments: [String: RuleArgument] = ["length": .integer(count)]
        if let unit { arguments["unit"] = .string(unit.rawValue) }
        return arguments
    }

    private static func bounds(_ min: String?, _ max: String?) -> [String: RuleArgument] {
        var arguments: [String: RuleArgument] = [:]
        if let min { arguments["min"] = .decimal(min) }
        if let max { arguments["max"] = .decimal(max) }
        return arguments
    }
}
