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
                try form.addField(id, label: label, initialValue: initial, rules: decoded.rules)
                do throws(FormError) {
                    for rule in decoded.asyncRules { try form.addAsyncRule(rule, to: id) }
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
