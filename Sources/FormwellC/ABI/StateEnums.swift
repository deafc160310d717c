import Formwell

// The engine's enums carry no C values: the inits below map them (a snapshot write inlines them).

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

/// When a field's shown state (validity, messages, display, tint, hint) follows its value. Whatever
/// the mode, fw_form_is_valid and fw_form_first_invalid judge the current values.
@c public enum fw_mode: Int32, Sendable {
    /// Only as a field's mode (fw_field_set_mode): the field follows the form's mode, also when that
    /// changes later.
    case FW_MODE_FORM = -1
    /// The default: lenient while focused (an empty value is not an error, required is not checked),
    /// strict otherwise; shown on every change.
    case FW_MODE_TWO_STAGE = 0
    /// Strict on every change, focused or not (errors still surface once touched).
    case FW_MODE_ON_CHANGE = 1
    /// The shown state is refreshed only by a blur (also when focus moves on), a touch, a touch-all, a
    /// validate, fw_field_set_error and fw_field_clear_error; nothing is shown before the first.
    case FW_MODE_ON_BLUR = 2
    /// As FW_MODE_ON_BLUR until the field is touched, then as FW_MODE_ON_CHANGE.
    case FW_MODE_ON_TOUCHED = 3
    /// Nothing shown until the field takes part in a validate (whole form or one of its groups),
    /// then as FW_MODE_ON_CHANGE.
    case FW_MODE_ON_SUBMIT = 4
}

/// Which failures a field reports (fw_form_set_error_mode).
@c public enum fw_error_mode: Int32, Sendable {
    /// The default: the first failing rule's message.
    case FW_ERRORS_FIRST = 0
    /// Every failing rule's message, in rule order (the snapshot's `errors`); the message is the first.
    case FW_ERRORS_ALL = 1
}

/// The colour role of a field's input state (the snapshot's `tint`); a host maps roles to its palette.
@c public enum fw_tint: Int32, Sendable {
    /// Idle, or inactive and empty.
    case FW_TINT_NEUTRAL = 0
    /// Focused and not invalid, or inactive and valid.
    case FW_TINT_ACCENT = 1
    /// Invalid (focused or not).
    case FW_TINT_ERROR = 2
}

extension fw_phase {
    @inline(__always)
    init(_ phase: Phase) {
        switch phase {
        case .idle: self = .FW_PHASE_IDLE
        case .focused: self = .FW_PHASE_FOCUSED
        case .inactive: self = .FW_PHASE_INACTIVE
        }
    }
}

extension fw_validity {
    @inline(__always)
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
    @inline(__always)
    init(_ kind: StateSummary.DisplayKind) {
        switch kind {
        case .none: self = .FW_DISPLAY_NONE
        case .valid: self = .FW_DISPLAY_VALID
        case .error: self = .FW_DISPLAY_ERROR
        }
    }
}

extension fw_mode {
    @inline(__always)
    init(_ mode: ValidationMode) {
        switch mode {
        case .twoStage: self = .FW_MODE_TWO_STAGE
        case .onChange: self = .FW_MODE_ON_CHANGE
        case .onBlur: self = .FW_MODE_ON_BLUR
        case .onTouched: self = .FW_MODE_ON_TOUCHED
        case .onSubmit: self = .FW_MODE_ON_SUBMIT
        }
    }

    /// The engine's mode; nil for FW_MODE_FORM.
    var validationMode: ValidationMode? {
        switch self {
        case .FW_MODE_FORM: return nil
        case .FW_MODE_TWO_STAGE: return .twoStage
        case .FW_MODE_ON_CHANGE: return .onChange
        case .FW_MODE_ON_BLUR: return .onBlur
        case .FW_MODE_ON_TOUCHED: return .onTouched
        case .FW_MODE_ON_SUBMIT: return .onSubmit
        }
    }
}

extension fw_error_mode {
    @inline(__always)
    init(_ mode: ErrorMode) {
        switch mode {
        case .first: self = .FW_ERRORS_FIRST
        case .all: self = .FW_ERRORS_ALL
        }
    }

    var errorMode: ErrorMode {
        switch self {
        case .FW_ERRORS_FIRST: return .first
        case .FW_ERRORS_ALL: return .all
        }
    }
}

extension fw_tint {
    @inline(__always)
    init(_ tint: Tint) {
        switch tint {
        case .neutral: self = .FW_TINT_NEUTRAL
        case .accent: self = .FW_TINT_ACCENT
        case .error: self = .FW_TINT_ERROR
        }
    }
}
