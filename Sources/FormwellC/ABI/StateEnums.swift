import Formwell

/// Where a field is in its interaction cycle.
@c public enum fw_phase: Int32, Sendable {
    /// Waiting for interaction, or left empty and optional.
    case FW_PHASE_IDLE = 0
    /// Being edited: the lenient stage applies (required is not checked, empty is not an error).
    case FW_PHASE_FOCUSED = 1
    /// Not being edited: the strict stage applies.
    case FW_PHASE_INACTIVE = 2
}

/// How the value fares in the current phase. An idle field reads FW_VALIDITY_EMPTY.
@c public enum fw_validity: Int32, Sendable {
    /// Nothing to judge (empty value, or idle field).
    case FW_VALIDITY_EMPTY = 0
    /// Every rule passes.
    case FW_VALIDITY_VALID = 1
    /// A rule fails; fw_field_message gives its message.
    case FW_VALIDITY_INVALID = 2
    /// Every synchronous rule passes and an asynchronous check has not answered yet (fw_form_next_request).
    case FW_VALIDITY_PENDING = 3
}

/// What a view surfaces under the field: nothing until the field is touched.
@c public enum fw_display: Int32, Sendable {
    /// Show nothing: untouched, or touched, empty and optional.
    case FW_DISPLAY_NONE = 0
    /// Show success.
    case FW_DISPLAY_VALID = 1
    /// Show fw_field_display_message.
    case FW_DISPLAY_ERROR = 2
}

/// What a custom validator (fw_validate_fn) returns.
@c public enum fw_verdict: Int32, Sendable {
    /// The value passes.
    case FW_VERDICT_VALID = 0
    /// The value fails; the validator may set *out_message.
    case FW_VERDICT_INVALID = 1
    /// The validator could not decide; the operation fails with FW_ERR_CALLBACK and changes nothing.
    case FW_VERDICT_ERROR = 2
}

extension fw_phase {
    init(_ phase: Phase) {
        switch phase {
        case .idle: self = .FW_PHASE_IDLE
        case .focused: self = .FW_PHASE_FOCUSED
        case .inactive: self = .FW_PHASE_INACTIVE
        }
    }
}

extension fw_validity {
    init(_ validity: Validity) {
        switch validity {
        case .empty: self = .FW_VALIDITY_EMPTY
        case .valid: self = .FW_VALIDITY_VALID
        case .invalid: self = .FW_VALIDITY_INVALID
        case .pending: self = .FW_VALIDITY_PENDING
        }
    }
}

extension fw_display {
    init(_ display: DisplayState) {
        switch display {
        case .none: self = .FW_DISPLAY_NONE
        case .valid: self = .FW_DISPLAY_VALID
        case .error: self = .FW_DISPLAY_ERROR
        }
    }
}

extension fw_validity {
    init(_ kind: StateSummary.ValidityKind) {
        switch kind {
        case .empty: self = .FW_VALIDITY_EMPTY
        case .valid: self = .FW_VALIDITY_VALID
        case .invalid: self = .FW_VALIDITY_INVALID
        case .pending: self = .FW_VALIDITY_PENDING
        }
    }
}

extension fw_display {
    init(_ kind: StateSummary.DisplayKind) {
        switch kind {
        case .none: self = .FW_DISPLAY_NONE
        case .valid: self = .FW_DISPLAY_VALID
        case .error: self = .FW_DISPLAY_ERROR
        }
    }
}
