/// Bits of the per-cell flags fw_form_check_batch can write (out_cell_flags).
@c public enum fw_cell_flag: Int32, Sendable {
    /// The field's failing pattern stopped at its match limits or work bound: its code is
    /// "pattern_limit" and its message the form's catalogue's for that code ("This value is too
    /// complex to check" in English; fw_message_catalog), not the rule's.
    case FW_CELL_LIMIT_EXCEEDED = 1
    /// The message is not the failing rule's fixed one (fw_form_rule_message) but a custom
    /// validator's own words: ask fw_form_batch_message for it.
    case FW_CELL_OWN_MESSAGE = 2
}
