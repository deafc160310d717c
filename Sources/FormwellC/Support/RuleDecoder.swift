import CFormwellTypes
import Formwell

/// Reads an array of fw_rule structs into engine rules, checking every member the kind uses.
enum RuleDecoder {
    struct Decoded {
        /// In array order: rules ready to add, or rules given as data (FW_RULE_JSON and the kinds
        /// added after the struct's first version), resolved against the form under its lock.
        var items: [Item] = []
        /// The custom rules' C validators, which take ownership of their contexts only on success.
        var validators: [CValidator] = []
        /// The FW_RULE_ASYNC elements, in array order (added after the field's other rules).
        var asyncRules: [AsyncRule] = []

        enum Item {
            case rule(Rule)
            case spec(RuleSpec)
        }

        /// The synchronous and asynchronous rules, given as data resolved against `form`.
        func resolved(in form: Form) throws(FormError) -> (rules: [Rule], asyncRules: [AsyncRule]) {
            var rules: [Rule] = []
            var more = asyncRules
            for item in items {
                switch item {
                case .rule(let rule): rules.append(rule)
                case .spec(let spec):
                    let resolved = try form.resolve(spec)
                    rules += resolved.rules
                    more += resolved.asyncRules
                }
            }
            return (rules, more)
        }
    }

    /// The first version's struct (up to `destroy`): the smallest `size` a caller may declare.
    static let minimumSize = MemoryLayout<fw_rule>.offset(of: \.hint) ?? MemoryLayout<fw_rule>.size

    /// The second version's struct (up to `hint`): a size at least this has its `hint` read.
    static let secondVersionSize = (MemoryLayout<fw_rule>.offset(of: \.hint) ?? MemoryLayout<fw_rule>.size)
        + MemoryLayout<UnsafePointer<CChar>?>.size

    static func decode(_ rules: UnsafePointer<fw_rule>?, count: UInt) throws(ABIFailure) -> Decoded {
        var decoded = Decoded()
        guard count > 0 else { return decoded }
        guard let rules else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'rules' is NULL but rule_count is \(count)") }
        guard Int(bitPattern: rules) % MemoryLayout<fw_rule>.alignment == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "rules is not aligned for an fw_rule")
        }
        guard count <= 65_536 else { throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "rule_count \(count) is above 65536") }
        let expected = minimumSize
        let stride = rules.pointee.size
        guard stride >= expected, stride <= 65_536, stride % MemoryLayout<fw_rule>.alignment == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                             "rules[0].size \(stride) is not sizeof(fw_rule) (\(expected) or more, a multiple of \(MemoryLayout<fw_rule>.alignment))")
        }
        let readsHint = stride >= secondVersionSize
        let base = UnsafeRawPointer(rules)
        // Every element's size first: an array whose sizes disagree is refused before any of its
        // pointers is followed (rules[0] declaring a larger size than the caller's elements would
        // otherwise have its `hint` read from the next element's bytes).
        for index in 1..<Int(count) {
            guard (base + index * stride).load(as: Int.self) == stride else {
                throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "rules[\(index)].size differs from rules[0].size (\(stride))")
            }
        }
        for index in 0..<Int(count) {
            // Member by member through the pointer: a copy of the whole struct would read past an
            // element of the first version's size.
            let rule = (base + index * stride).assumingMemoryBound(to: fw_rule.self)
            let message = try CStringInput.optional(rule.pointee.message, "rules[\(index)].message")
            let hint = readsHint ? try CStringInput.optional(rule.pointee.hint, "rules[\(index)].hint") : nil
            let kind: Rule.Kind
            if let spec = try dataRule(rule.pointee.kind, rule.pointee.text, index: index, message: message, hint: hint) {
                decoded.items.append(.spec(spec))
                continue
            }
            switch fw_rule_kind(rawValue: rule.pointee.kind) {
            case .FW_RULE_REQUIRED: kind = .required
            case .FW_RULE_EMAIL: kind = .email
            case .FW_RULE_PHONE: kind = .phone
            case .FW_RULE_MIN_LENGTH: kind = .minLength(Int(rule.pointee.length))
            case .FW_RULE_MAX_LENGTH: kind = .maxLength(Int(rule.pointee.length))
            case .FW_RULE_REGEX: kind = .regex(try CStringInput.required(rule.pointee.text, "rules[\(index)].text"))
            case .FW_RULE_MATCHES: kind = .matches(try CStringInput.required(rule.pointee.text, "rules[\(index)].text"))
            case .FW_RULE_CUSTOM:
                guard let validate = rule.pointee.validate else {
                    throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "rules[\(index)].validate is NULL")
                }
                let validator = CValidator(validate: validate, context: rule.pointee.context, destroy: rule.pointee.destroy)
                decoded.validators.append(validator)
                kind = .custom(CustomValidator { value in try validator.check(value) })
            case .FW_RULE_ASYNC:
                let name = try CStringInput.required(rule.pointee.text, "rules[\(index)].text")
                guard !name.isEmpty else {
                    throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "rules[\(index)].text: an asynchronous rule needs a name")
                }
                let length = rule.pointee.length
                let debounce = length < 0 ? AsyncRule.defaultDebounceMilliseconds : UInt64(length)
                decoded.asyncRules.append(AsyncRule(name, debounceMilliseconds: debounce, message: message, hint: hint))
                continue
            default:
                throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "rules[\(index)].kind \(rule.pointee.kind) is not an fw_rule_kind")
            }
            decoded.items.append(.rule(Rule(kind, message: message, hint: hint)))
        }
        return decoded
    }

    /// The kinds of the struct's first version (0 to 8) read its members; FW_RULE_JSON reads `text`
    /// as a whole rule object; every later kind reads `text` as the JSON object of its parameters
    /// (NULL: none). Nil for a first-version kind.
    private static func dataRule(
        _ kind: Int32, _ text: UnsafePointer<CChar>?, index: Int, message: String?, hint: String?
    ) throws(ABIFailure) -> RuleSpec? {
        let member = "rules[\(index)].text"
        if kind == RuleCatalog.jsonKindCValue {
            let json = try CStringInput.required(text, member)
            do throws(SpecError) {
                var spec = try RuleSpec(json: json)
                if let message { spec.message = message }
                if let hint { spec.hint = hint }
                return spec
            } catch {
                throw ABIFailure(.FW_ERR_INVALID_SPEC, "\(member): \(error.description)")
            }
        }
        guard kind > fw_rule_kind.FW_RULE_ASYNC.rawValue, let descriptor = RuleCatalog.descriptor(cValue: kind) else { return nil }
        let parameters = try CStringInput.optional(text, member)
        do throws(SpecError) {
            return try RuleSpec(kind: descriptor.name, parametersJSON: parameters, message: message, hint: hint)
        } catch {
            throw ABIFailure(.FW_ERR_INVALID_SPEC, "\(member): \(error.description)")
        }
    }
}
