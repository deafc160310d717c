/// What the host found when it made an asynchronous check (fw_form_resolve).
@c public enum fw_async_verdict: Int32, Sendable {
    /// The value passes the check.
    case FW_ASYNC_VALID = 0
    /// The value fails: the field reads invalid with the rule's own message, else the host's, else
    /// "Invalid value".
    case FW_ASYNC_INVALID = 1
    /// The check could not be made (network down, ...): the field reads invalid with the host's
    /// message, else "Could not check this value", until its value changes.
    case FW_ASYNC_ERROR = 2
}

/// How a submit ends when asynchronous checks may still be running (fw_form_submit).
@c public enum fw_submit_outcome: Int32, Sendable {
    /// Every field taking part is valid.
    case FW_SUBMIT_VALID = 0
    /// Some field taking part fails now.
    case FW_SUBMIT_INVALID = 1
    /// No field fails, but some wait for an asynchronous check (their validity is FW_VALIDITY_PENDING).
    case FW_SUBMIT_PENDING = 2
}
