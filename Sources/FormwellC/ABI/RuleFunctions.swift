import CFormwellTypes
import Formwell

// Every rule function appends one rule to a field; rules run in the order they were added and the
// first failure wins. message: replaces the rule's default message (NULL: the default).

/// Adds a required rule: an empty value is invalid in the strict stage ("This field is required").
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_field_add_required(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ message: UnsafePointer<CChar>?
) -> fw_status {
    addRule(form, field_id, message) { (_: String?) throws(ABIFailure) in .required }
}

/// Adds the e-mail rule: the whole value must match `[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,64}`
/// ("Invalid email format").
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_field_add_email(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ message: UnsafePointer<CChar>?
) -> fw_status {
    addRule(form, field_id, message) { (_: String?) throws(ABIFailure) in .email }
}

/// Adds the phone rule: exactly 10 ASCII digits ("Invalid phone number").
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_field_add_phone(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ message: UnsafePointer<CChar>?
) -> fw_status {
    addRule(form, field_id, message) { (_: String?) throws(ABIFailure) in .phone }
}

/// Adds a minimum length in characters (grapheme clusters, as Swift's String.count: an emoji with
/// joiners or a letter with combining marks counts once) ("Must be at least N characters").
/// Negative, or above an existing max_length of the field: FW_ERR_INVALID_ARGUMENT.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_INVALID_ARGUMENT; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_field_add_min_length(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ min_length: Int32,
    _ message: UnsafePointer<CChar>?
) -> fw_status {
    addRule(form, field_id, message) { (_: String?) throws(ABIFailure) in .minLength(Int(min_length)) }
}

/// Adds a maximum length in characters, counted as fw_field_add_min_length does
/// ("Must be N characters or fewer"). Negative, or below an existing min_length: FW_ERR_INVALID_ARGUMENT.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_INVALID_ARGUMENT; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_field_add_max_length(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ max_length: Int32,
    _ message: UnsafePointer<CChar>?
) -> fw_status {
    addRule(form, field_id, message) { (_: String?) throws(ABIFailure) in .maxLength(Int(max_length)) }
}

/// Adds a PCRE2 pattern (UTF mode) that must match the whole value ("Invalid format"). Each distinct
/// pattern is compiled once and shared. A pattern PCRE2 refuses gives FW_ERR_INVALID_PATTERN with
/// PCRE2's message (fw_last_error_message) and offset (fw_last_error_offset).
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_INVALID_PATTERN (fw_last_error_offset gives the offset); FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_field_add_regex(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ pattern: UnsafePointer<CChar>?,
    _ message: UnsafePointer<CChar>?
) -> fw_status {
    let source = Result { () throws(ABIFailure) in try CStringInput.required(pattern, "pattern") }
    return addRule(form, field_id, message) { (_: String?) throws(ABIFailure) in .regex(try source.get()) }
}

/// Adds a rule requiring the value to equal the value of another field, added earlier (a password
/// confirmation, say; "Must match <label or id>"). Re-checked whenever that other field changes.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD (either field); FW_ERR_INVALID_ARGUMENT (the field itself); FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_field_add_matches(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ other_field_id: UnsafePointer<CChar>?,
    _ message: UnsafePointer<CChar>?
) -> fw_status {
    let other = Result { () throws(ABIFailure) in try CStringInput.required(other_field_id, "other_field_id") }
    return addRule(form, field_id, message) { (_: String?) throws(ABIFailure) in .matches(try other.get()) }
}

/// Adds a custom validator (see fw_validate_fn). On success the form owns context and calls
/// destroy(context) (if destroy is not NULL) when the form is freed; on failure nothing is kept and
/// the caller still owns context.
/// Returns: FW_OK; FW_ERR_UNKNOWN_FIELD; FW_ERR_CALLBACK when this or another validator fails on the current value (the rule is not added and the context is not owned); or a general error (see Conventions).
@c public func fw_field_add_custom(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ validate: fw_validate_fn?,
    _ context: UnsafeMutableRawPointer?, _ destroy: fw_destroy_fn?, _ message: UnsafePointer<CChar>?
) -> fw_status {
    guard let validate else {
        return abiCall { () throws(ABIFailure) in throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'validate' is NULL") }
    }
    let validator = CValidator(validate: validate, context: context, destroy: destroy)
    let status = addRule(form, field_id, message) { (_: String?) throws(ABIFailure) in
        .custom(CustomValidator { value in try validator.check(value) })
    }
    if status == .FW_OK { validator.ownsContext = true }
    return status
}

/// Adds a field and its rules in one step, all or nothing: when any rule is refused (a bad pattern,
/// a bad length, an unknown matches target, a custom validator failing on the initial value) the form
/// is unchanged and the caller keeps every custom rule's context; on success the form owns them.
/// field_id, label, initial_value: as fw_form_add_field. rules: rule_count fw_rule elements (NULL
/// when rule_count is 0), each with size = sizeof(fw_rule); they run in array order. FW_RULE_ASYNC
/// elements are the field's asynchronous rules (see fw_field_add_async_rule), numbered after its
/// other rules, in array order.
/// Returns: FW_OK; the error of the first refused field or rule (nothing is added, no context is owned); or a general error (see Conventions).
@c public func fw_form_add_field_with_rules(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ label: UnsafePointer<CChar>?,
    _ initial_value: UnsafePointer<CChar>?, _ rules: UnsafePointer<fw_rule>?, _ rule_count: UInt
) -> fw_status {
    var validators: [CValidator] = []
    let status = abiCall { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        let label = try CStringInput.optional(label, "label")
        let initial = try CStringInput.optional(initial_value, "initial_value") ?? ""
        let decoded = try RuleDecoder.decode(rules, count: rule_count)
        validators = decoded.validators
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in
                let resolved = try decoded.resolved(in: form)
                try form.addField(id, label: label, initialValue: initial, rules: resolved.rules)
                do throws(FormError) {
                    for rule in resolved.asyncRules { try form.addAsyncRule(rule, to: id) }
                } catch {
                    // Not expected (the names were checked): all or nothing still holds.
                    try? form.removeField(id)
                    throw error
                }
            }
        }
    }
    if status == .FW_OK { for validator in validators { validator.ownsContext = true } }
    return status
}

/// Adds a rule given as JSON, exactly as a rule object of a form spec: any kind of the catalogue
/// with its parameters by name (see fw_rule_kind and fw_rule_catalog), an optional "message" and
/// "hint", e.g. {"rule": "url", "schemes": ["https"]}, {"rule": "min_length", "length": 8,
/// "unit": "utf16"}, {"rule": "required_if", "field": "country", "value": "US"}; a custom rule by
/// the name of a validator defined with fw_form_define_validator; an async rule; or
/// {"rule": "set", "name": ...} for every rule of a set defined with fw_form_define_rule_set. All
/// or nothing.
/// Returns: FW_OK; FW_ERR_INVALID_SPEC (malformed JSON, an unknown kind or parameter, a parameter of the wrong type; the detail names the key); FW_ERR_UNKNOWN_FIELD (the field, or one a parameter names); FW_ERR_INVALID_ARGUMENT (a value the kind refuses, an unknown rule set or validator); FW_ERR_INVALID_PATTERN; FW_ERR_CALLBACK; or a general error (see Conventions).
@c public func fw_field_add_rule_json(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ rule_json: UnsafePointer<CChar>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        let text = try CStringInput.required(rule_json, "rule_json")
        let spec: RuleSpec
        do throws(SpecError) {
            spec = try RuleSpec(json: text)
        } catch {
            throw ABIFailure(error)
        }
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.addRule(spec, to: id) }
        }
    }
}

/// Names a list of rules that fields then add as one with
/// {"rule": "set", "name": name} (fw_field_add_rule_json, FW_RULE_JSON, a spec's rule_sets).
/// rules_json: a JSON array of rule objects as in a spec; sets hold synchronous rules only and do
/// not refer to other sets. Defining a name again replaces its rules for later uses; rules already
/// added stay. A spec export writes a field's rules from a set back as the reference.
/// Returns: FW_OK; FW_ERR_INVALID_SPEC (malformed rules; the detail names the element); FW_ERR_INVALID_ARGUMENT (an empty name, an async rule or a set inside a set); or a general error (see Conventions).
@c public func fw_form_define_rule_set(
    _ form: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ rules_json: UnsafePointer<CChar>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let setName = try CStringInput.required(name, "name")
        let text = try CStringInput.required(rules_json, "rules_json")
        let set: RuleSet
        do throws(SpecError) {
            set = try RuleSet(name: setName, json: text)
        } catch {
            throw ABIFailure(error)
        }
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.defineRuleSet(set) }
        }
    }
}

/// Copies the rule catalogue as JSON into buf (the usual buffer style, see fw_field_value): every
/// kind's name, stable code, fw_rule_kind value, parameters (name, type, required, default,
/// choices), default message and hint templates, so a binding builds its rule constructors from
/// the library it loaded. Needs no form.
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL; FW_ERR_NULL_ARGUMENT for a NULL buf with buf_size > 0.
@c public func fw_rule_catalog(
    _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        try CStringOutput.write(RuleCatalog.json, to: buf, capacity: buf_size, length: out_length)
    }
}

/// Decodes the common arguments and appends the rule under the form's lock.
private func addRule(
    _ form: OpaquePointer?, _ field_id: UnsafePointer<CChar>?, _ message: UnsafePointer<CChar>?,
    _ kind: (String?) throws(ABIFailure) -> Rule.Kind
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let id = try CStringInput.required(field_id, "field_id")
        let text = try CStringInput.optional(message, "message")
        let rule = Rule(try kind(text), message: text)
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.addRule(rule, to: id) }
        }
    }
}
