import CFormwellTypes
import Formwell

// Messages as codes + parameters + locales. Every failure has a stable code and
// parameters (fw_snapshot version 4, fw_form_rule_code / fw_form_rule_params for batch cells);
// its text comes from the form's message catalogue, chosen with fw_form_set_locale.

/// Words the form's messages and hints in the catalogue `locale` names ("fr", "fr-CA", "en_GB"):
/// matched case-insensitively with `_` read as `-`, then by dropping subtags ("fr-CA" → "fr").
/// Every field is judged again so its state speaks the new language (what the modes
/// FW_MODE_ON_BLUR and FW_MODE_ON_TOUCHED show is re-worded as it stands; external errors and a
/// validator's own words stay as they were given); codes and parameters do not change. The library ships "en" (the default) and "fr";
/// fw_add_message_catalog adds more.
/// Returns: FW_OK; FW_ERR_INVALID_ARGUMENT for a locale no catalogue matches (the form is unchanged); FW_ERR_CALLBACK when a custom validator fails (nothing changes); or a general error (see Conventions).
@c public func fw_form_set_locale(_ form: OpaquePointer?, _ locale: UnsafePointer<CChar>?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let tag = try CStringInput.required(locale, "locale")
        try withForm(form) { (form: inout Form) throws(ABIFailure) in
            try engine { () throws(FormError) in try form.setLocale(tag) }
        }
    }
}

/// Copies the tag of the form's message catalogue ("en" unless set) into buf (see fw_field_value
/// for the buffer style).
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL; or a general error (see Conventions).
@c public func fw_form_locale(
    _ form: OpaquePointer?, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    let status = abiCall { () throws(ABIFailure) in
        let tag = try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in form.pointee.locale }
        try CStringOutput.write(tag, to: buf, capacity: buf_size, length: out_length)
    }
    return clearedOnFailure(status, buf, buf_size)
}

/// Copies the tags of every available catalogue, as a JSON array of strings sorted
/// (["en","fr"]), into buf. Needs no form.
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL; FW_ERR_NULL_ARGUMENT for a NULL buf with buf_size > 0.
@c public func fw_locales(
    _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let list = JSONWriter.write(.array(MessageCatalogs.locales.map(JSONValue.string)))
        try CStringOutput.write(list, to: buf, capacity: buf_size, length: out_length)
    }
}

/// Copies the catalogue `locale` names as JSON into buf: its tag, language, plural rule, unit nouns,
/// list separator, announcement and every failure code's message and hint templates (the format
/// of a catalogue file; see "Message catalogues" in docs/rules-and-messages.md). A view that words its own
/// messages from codes and parameters reads its templates here. Needs no form.
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL; FW_ERR_INVALID_ARGUMENT for a locale no catalogue matches; or a general error (see Conventions).
@c public func fw_message_catalog(
    _ locale: UnsafePointer<CChar>?, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt,
    _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    let status = abiCall { () throws(ABIFailure) in
        let tag = try CStringInput.required(locale, "locale")
        guard let catalog = MessageCatalogs.catalog(for: tag) else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "no message catalogue for locale '\(tag)' (available: \(MessageCatalogs.locales.joined(separator: ", ")))")
        }
        try CStringOutput.write(catalog.json, to: buf, capacity: buf_size, length: out_length)
    }
    return clearedOnFailure(status, buf, buf_size)
}

/// Adds (or replaces) a message catalogue for the whole process from its JSON text, in the format
/// of the shipped files: {"locale": "de", "plurals": "one_is_1", "failures": {"required":
/// {"message": "...", "hint": "..."}, ...}, ...}. What it leaves out, the catalogue of its parent
/// tag gives ("fr" for "fr-CA"), else English. Forms already using a replaced catalogue keep it
/// until their locale is set again. The shipped catalogues ("en", "fr") cannot be replaced.
/// Returns: FW_OK; FW_ERR_INVALID_SPEC for malformed JSON, an unknown key, failure code or plural rule, a placeholder the failure has no value for, a text holding U+0000, or a shipped locale (the detail names the JSON path); or a general error (see Conventions).
@c public func fw_add_message_catalog(_ catalog_json: UnsafePointer<CChar>?) -> fw_status {
    abiCall { () throws(ABIFailure) in
        let text = try CStringInput.required(catalog_json, "catalog_json")
        do throws(SpecError) {
            try MessageCatalogs.add(json: text)
        } catch {
            throw ABIFailure(error)
        }
    }
}

/// Copies the failure code of rule rule_index of the field at field_index ("min_length") into buf:
/// with fw_form_check_batch's failing rule indices, the code of each failing cell (a cell flagged
/// FW_CELL_LIMIT_EXCEEDED has code "pattern_limit").
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL; FW_ERR_INVALID_ARGUMENT for a field or rule index out of range; or a general error (see Conventions).
@c public func fw_form_rule_code(
    _ form: OpaquePointer?, _ field_index: UInt, _ rule_index: UInt, _ buf: UnsafeMutablePointer<CChar>?,
    _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    ruleFailure(form, field_index, rule_index, buf, buf_size, out_length) { $0.code }
}

/// Copies the parameters of rule rule_index of the field at field_index, as a JSON object with
/// keys sorted ({"length":8,"unit":"graphemes"}; "{}" for none), into buf.
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL; FW_ERR_INVALID_ARGUMENT for a field or rule index out of range; or a general error (see Conventions).
@c public func fw_form_rule_params(
    _ form: OpaquePointer?, _ field_index: UInt, _ rule_index: UInt, _ buf: UnsafeMutablePointer<CChar>?,
    _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    ruleFailure(form, field_index, rule_index, buf, buf_size, out_length) { $0.params }
}

/// Checks one value against rules without a form: rules_json
/// is one rule object as in a form spec or an array of them ([{"rule": "required"}, {"rule":
/// "min_length", "length": 8}]), run in order in the strict stage (as when a field is left):
/// an empty value is invalid only under a required rule, else FW_VALIDITY_EMPTY; the first failing
/// rule decides. locale: a catalogue tag, NULL for English. Rules that compare with another field
/// (matches, not_equal, required_if, required_with, required_without), custom and async rules
/// need a form and are refused. Fills *verdict and copies its texts into buf (see fw_check_result).
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL (members filled); FW_ERR_INVALID_SPEC for malformed rules (the detail names the JSON path); FW_ERR_INVALID_ARGUMENT for an unknown locale, a refused rule or a bad result size; FW_ERR_INVALID_PATTERN; FW_ERR_INVALID_UTF8; or a general error (see Conventions).
@c public func fw_check_value(
    _ rules_json: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?, _ locale: UnsafePointer<CChar>?,
    _ verdict: UnsafeMutablePointer<fw_check_result>?, _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt
) -> fw_status {
    abiCall { () throws(ABIFailure) in
        guard let verdict else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'verdict' is NULL") }
        guard Int(bitPattern: verdict) % MemoryLayout<fw_check_result>.alignment == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "verdict is not aligned for an fw_check_result")
        }
        let size = verdict.pointee.size
        guard size >= formwell_check_result_v1_size(), size <= Int(Int32.max) else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                             "verdict size \(size) is not sizeof(fw_check_result) (\(formwell_check_result_v1_size()) or more)")
        }
        let rulesText = try CStringInput.required(rules_json, "rules_json")
        let text = try CStringInput.required(value, "value")
        let tag = try CStringInput.optional(locale, "locale") ?? "en"
        var texts = try SnapshotWriter.TextBuffer(buf, buf_size)
        let rules: [Rule]
        do throws(SpecError) {
            rules = try ValueCheck.rules(json: rulesText)
        } catch {
            throw ABIFailure(error)
        }
        let result = try engine { () throws(FormError) in try ValueCheck.check(text, against: rules, locale: tag) }
        switch result.validity {
        case .empty, .pending: verdict.pointee.validity = fw_validity.FW_VALIDITY_EMPTY.rawValue
        case .valid: verdict.pointee.validity = fw_validity.FW_VALIDITY_VALID.rawValue
        case .invalid: verdict.pointee.validity = fw_validity.FW_VALIDITY_INVALID.rawValue
        }
        verdict.pointee.failing_rule = Int32(clamping: result.failingRule ?? -1)
        verdict.pointee.limit_exceeded = result.limitExceeded
        let message = result.message ?? ""
        verdict.pointee.message_length = message.utf8.count
        verdict.pointee.code_length = result.code.utf8.count
        verdict.pointee.params_length = result.params.utf8.count
        verdict.pointee.message = SnapshotWriter.withUTF8(message) { texts.append($0) }
        verdict.pointee.code = SnapshotWriter.withUTF8(result.code) { texts.append($0) }
        verdict.pointee.params = SnapshotWriter.withUTF8(result.params) { texts.append($0) }
        verdict.pointee.text_size = texts.needed
        if texts.overflowed {
            throw ABIFailure(.FW_ERR_BUFFER_TOO_SMALL, "buffer holds \(buf_size) bytes; \(texts.needed) needed for the verdict's texts")
        }
    }
}

/// A rule's code or parameters, written into the caller's buffer.
private func ruleFailure(
    _ form: OpaquePointer?, _ field_index: UInt, _ rule_index: UInt, _ buf: UnsafeMutablePointer<CChar>?,
    _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?, _ part: ((code: String, params: String)) -> String
) -> fw_status {
    let status = abiCall { () throws(ABIFailure) in
        let failure = try withFormPointer(form) { (form: UnsafeMutablePointer<Form>) throws(ABIFailure) in
            try engine { () throws(FormError) in
                try form.pointee.ruleFailure(field: Int(clamping: field_index), rule: Int(clamping: rule_index))
            }
        }
        try CStringOutput.write(part(failure), to: buf, capacity: buf_size, length: out_length)
    }
    return clearedOnFailure(status, buf, buf_size)
}
