import CFormwellTypes
import Formwell

/// Reads an array of fw_rule structs into engine rules, checking every member the kind uses.
enum RuleDecoder {
    struct Decoded {
        var rules: [Rule] = []
        /// The custom rules' C validators, which take ownership of their contexts only on success.
        var validators: [CValidator] = []
    }

    static func decode(_ rules: UnsafePointer<fw_rule>?, count: UInt) throws(ABIFailure) -> Decoded {
        var decoded = Decoded()
        guard count > 0 else { return decoded }
        guard let rules else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'rules' is NULL but rule_count is \(count)") }
        guard Int(bitPattern: rules) % MemoryLayout<fw_rule>.alignment == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "rules is not aligned for an fw_rule")
        }
        guard count <= 65_536 else { throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "rule_count \(count) is above 65536") }
        let expected = MemoryLayout<fw_rule>.size
        let stride = rules.pointee.size
        guard stride >= expected, stride <= 65_536, stride % MemoryLayout<fw_rule>.alignment == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "rules[0].size \(stride) is not sizeof(fw_rule) (\(expected))")
        }
        let base = UnsafeRawPointer(rules)
        for index in 0..<Int(count) {
            let rule = (base + index * stride).assumingMemoryBound(to: fw_rule.self).pointee
            guard rule.size == stride else {
                throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "rules[\(index)].size differs from rules[0].size (\(stride))")
            }
            let message = try CStringInput.optional(rule.message, "rules[\(index)].message")
            let kind: Rule.Kind
            switch fw_rule_kind(rawValue: rule.kind) {
            case .FW_RULE_REQUIRED: kind = .required
            case .FW_RULE_EMAIL: kind = .email
            case .FW_RULE_PHONE: kind = .phone
            case .FW_RULE_MIN_LENGTH: kind = .minLength(Int(rule.length))
            case .FW_RULE_MAX_LENGTH: kind = .maxLength(Int(rule.length))
            case .FW_RULE_REGEX: kind = .regex(try CStringInput.required(rule.text, "rules[\(index)].text"))
            case .FW_RULE_MATCHES: kind = .matches(try CStringInput.required(rule.text, "rules[\(index)].text"))
            case .FW_RULE_CUSTOM:
                guard let validate = rule.validate else {
                    throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "rules[\(index)].validate is NULL")
                }
                let validator = CValidator(validate: validate, context: rule.context, destroy: rule.destroy)
                decoded.validators.append(validator)
                kind = .custom(CustomValidator { value in try validator.check(value) })
            case nil:
                throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "rules[\(index)].kind \(rule.kind) is not an fw_rule_kind")
            }
            decoded.rules.append(Rule(kind, message: message))
        }
        return decoded
    }
}
