/// A parameter's value, as a spec, the C ABI or Swift code gives it.
public enum RuleArgument: Equatable, Sendable {
    case integer(Int)
    case string(String)
    case strings([String])
    /// A decimal number's exact text (`"0.10"`, `"-3"`), never converted to a binary float.
    case decimal(String)
}

/// A rule's arguments after checking against its kind's parameters: every value has its declared
/// type, required ones are present, defaults are filled in.
struct RuleArguments: Sendable {
    let values: [String: RuleArgument]

    func integer(_ name: String) -> Int? {
        if case .integer(let value)? = values[name] { return value }
        return nil
    }

    func string(_ name: String) -> String? {
        if case .string(let value)? = values[name] { return value }
        return nil
    }

    func strings(_ name: String) -> [String]? {
        if case .strings(let value)? = values[name] { return value }
        return nil
    }

    func decimal(_ name: String) -> String? {
        if case .decimal(let value)? = values[name] { return value }
        return nil
    }

    /// Checks `given` against `descriptor`'s parameters (unknown names, types, ranges, choices).
    /// `field`: the id of the field the rule is for, named in errors.
    init(_ given: [String: RuleArgument], for descriptor: RuleDescriptor, field: String? = nil) throws(FormError) {
        // (The names are sorted only when one is unknown, so the error names the same one every time.)
        if given.keys.contains(where: { descriptor.parameter($0) == nil }),
           let unknown = given.keys.filter({ descriptor.parameter($0) == nil }).sorted().first {
            let known = descriptor.parameters.map(\.name)
            throw .invalidArgument("rule '\(descriptor.name)' has no parameter '\(unknown)'"
                + (known.isEmpty ? " (it takes none)" : " (it takes: \(known.joined(separator: ", ")))"))
        }
        var values: [String: RuleArgument] = [:]
        for parameter in descriptor.parameters {
            guard let value = given[parameter.name] ?? parameter.defaultValue else {
                if parameter.isRequired {
                    throw .invalidArgument("rule '\(descriptor.name)' needs parameter '\(parameter.name)'")
                }
                continue
            }
            if case .integer(let number) = value, number < 0, let field {
                throw .invalidArgument("\(parameter.name) \(number) for field '\(field)' is negative")
            }
            values[parameter.name] = try RuleArguments.check(value, parameter, rule: descriptor.name)
        }
        self.values = values
    }

    static func check(_ value: RuleArgument, _ parameter: RuleParameter, rule: String) throws(FormError) -> RuleArgument {
        let what = "\(rule) \(parameter.name)"
        switch (parameter.type, value) {
        case (.integer, .integer(let number)):
            guard number >= 0, number <= Int(Int32.max) else {
                throw .invalidArgument("\(what) \(number) is out of range (0 to \(Int32.max))")
            }
            return value
        case (.string, .string), (.pattern, .string):
            return value
        case (.fieldID, .string):
            return value  // the form checks that it names a field (an empty id names none)
        case (.choice, .string(let choice)):
            guard parameter.choices.contains(choice) else {
                throw .invalidArgument("\(what) '\(choice)' is not one of: \(parameter.choices.joined(separator: ", "))")
            }
            return value
        case (.stringList, .strings):
            return value
        case (.decimal, .decimal(let text)), (.decimal, .string(let text)):
            guard DecimalText(text) != nil else {
                throw .invalidArgument("\(what) '\(text)' is not a decimal number (digits, an optional sign and fraction, no exponent)")
            }
            return .decimal(text)
        case (.decimal, .integer(let number)):
            return .decimal(String(number))
        default:
            throw .invalidArgument("\(what) must be \(parameter.type.article)")
        }
    }
}

extension RuleParameter.ValueType {
    /// How an error message names a value of this type.
    var article: String {
        switch self {
        case .integer: return "an integer"
        case .string, .pattern: return "a string"
        case .stringList: return "an array of strings"
        case .decimal: return "a decimal number"
        case .fieldID: return "a field id"
        case .choice: return "a string"
        }
    }
}
