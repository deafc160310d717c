/// The kind of one fw_rule given to fw_form_add_field_with_rules (the same rules as the
/// fw_field_add_* functions).
@c public enum fw_rule_kind: Int32, Sendable {
    /// fw_field_add_required.
    case FW_RULE_REQUIRED = 0
    /// fw_field_add_email.
    case FW_RULE_EMAIL = 1
    /// fw_field_add_phone.
    case FW_RULE_PHONE = 2
    /// fw_field_add_min_length; reads `length`.
    case FW_RULE_MIN_LENGTH = 3
    /// fw_field_add_max_length; reads `length`.
    case FW_RULE_MAX_LENGTH = 4
    /// fw_field_add_regex; reads `text` (the pattern).
    case FW_RULE_REGEX = 5
    /// fw_field_add_matches; reads `text` (the other field's id).
    case FW_RULE_MATCHES = 6
    /// fw_field_add_custom; reads `validate`, `context` and `destroy`.
    case FW_RULE_CUSTOM = 7
    /// fw_field_add_async_rule; reads `text` (the name), `length` (the debounce in ms, negative: 500)
    /// and `message`. Asynchronous rules are numbered after the field's other rules, in array order.
    case FW_RULE_ASYNC = 8
}
