import Formwell

/// A normaliser (fw_field_set_normalizers): normalisers run in the order given on every value the
/// field takes, before its rules. The field keeps what was set (fw_field_value, a snapshot's
/// `value`) and the normalised value (fw_field_normalized_value, a snapshot's `normalized`): the
/// rules judge the normalised one, and submissions and batches use it.
@c public enum fw_normalizer: Int32, Sendable {
    /// White space (Unicode White_Space) removed at both ends; white space only becomes empty, so
    /// a required field fails on it.
    case FW_NORMALIZE_TRIM = 0
    /// Every run of white space replaced by one space (at the ends too: trim first to drop them).
    case FW_NORMALIZE_COLLAPSE_WHITESPACE = 1
    /// Unicode lowercase (full case mapping, locale-independent).
    case FW_NORMALIZE_LOWERCASE = 2
    /// Unicode Normalization Form C.
    case FW_NORMALIZE_NFC = 3
    /// Only the ASCII digits 0-9 are kept ("(555) 123-4567" becomes "5551234567").
    case FW_NORMALIZE_DIGITS_ONLY = 4
}

extension fw_normalizer {
    init(_ normalizer: Normalizer) {
        switch normalizer {
        case .trim: self = .FW_NORMALIZE_TRIM
        case .collapseWhitespace: self = .FW_NORMALIZE_COLLAPSE_WHITESPACE
        case .lowercase: self = .FW_NORMALIZE_LOWERCASE
        case .nfc: self = .FW_NORMALIZE_NFC
        case .digitsOnly: self = .FW_NORMALIZE_DIGITS_ONLY
        }
    }

    /// The engine's normaliser (every C value names one; Optional for the callers' guard).
    var normalizer: Normalizer? {
        switch self {
        case .FW_NORMALIZE_TRIM: return .trim
        case .FW_NORMALIZE_COLLAPSE_WHITESPACE: return .collapseWhitespace
        case .FW_NORMALIZE_LOWERCASE: return .lowercase
        case .FW_NORMALIZE_NFC: return .nfc
        case .FW_NORMALIZE_DIGITS_ONLY: return .digitsOnly
        }
    }
}
