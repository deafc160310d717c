// libFuzzer harness: form specs (fw_form_load_spec), the one structured text the library parses.
//
// The whole input is the spec text (a NUL-terminated copy: an embedded NUL ends it). Invariants:
// a spec is loaded whole or not at all (the form's existing field survives a refusal, and a refusal
// carries a non-empty detail); a loaded spec exports, the export loads into a fresh form, and exporting
// that gives the same text (load -> export -> load is stable); submitting every field afterwards keeps
// every answer known and consistent. Custom rules may name the validator "v", defined on each form.
// The same text is also read as a single-value check's rules (fw_check_value: a rule object or an
// array of them, the spec's rule syntax): refused with a detail, or a verdict whose members agree.
import FormwellC
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private let alwaysValid: fw_validate_fn = { _, _, _, _ in 0 }

private func formWithValidator() -> OpaquePointer? {
    var form: OpaquePointer? = nil
    check(fw_form_create(&form) == .FW_OK, "fw_form_create failed")
    check(fw_form_define_validator(form, "v", alwaysValid, nil, nil) == .FW_OK, "fw_form_define_validator failed")
    return form
}

private func fieldCount(_ form: OpaquePointer?) -> UInt {
    var count: UInt = 0
    check(fw_form_field_count(form, &count) == .FW_OK, "fw_form_field_count failed")
    return count
}

private func export(_ form: OpaquePointer?, _ what: String) -> [UInt8]? {
    readString(what) { buf, size, length in fw_form_export_spec(form, buf, size, length) }
}

/// Values a check is run on, one picked by the input's length (empty, short, each kind's shape).
private let checkedValues = ["", "a", "abc@example.com", "12345", "+14155552671", "https://example.com", "Ab3!efgh", "é"]

/// `bytes` as fw_check_value's rules on one of `checkedValues`, in English or French.
private func checkValueOfRules(_ bytes: [UInt8]) {
    var result = fw_check_result()
    result.size = MemoryLayout<fw_check_result>.size
    let capacity = 256
    let text = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    defer { text.deallocate() }
    let value = checkedValues[bytes.count % checkedValues.count]
    let locale: String? = bytes.count % 3 == 0 ? "fr" : nil
    let status = withCString(bytes) { rules in
        if let locale { return fw_check_value(rules, value, locale, &result, text, UInt(capacity)) }
        return fw_check_value(rules, value, nil, &result, text, UInt(capacity))
    }
    checkLastError(status, "fw_check_value")
    switch status {
    case .FW_OK, .FW_ERR_BUFFER_TOO_SMALL:
        let validity = result.validity
        check((0...2).contains(validity), "fw_check_value validity \(validity)")
        let invalid = validity == fw_validity.FW_VALIDITY_INVALID.rawValue
        check(invalid == (result.failing_rule >= 0), "validity \(validity) but failing_rule \(result.failing_rule)")
        check(invalid == (result.code_length > 0), "validity \(validity) but a code of \(result.code_length) bytes")
        check(result.text_size == result.message_length + result.code_length + result.params_length + 3,
              "text_size \(result.text_size) for lengths \(result.message_length)/\(result.code_length)/\(result.params_length)")
        check((status == .FW_OK) == (result.text_size <= capacity), "status \(status.rawValue) for text_size \(result.text_size)")
        if status == .FW_OK, let code = result.code, let params = result.params, let message = result.message {
            check(strlen(message) == result.message_length && strlen(code) == result.code_length
                  && strlen(params) == result.params_length, "a verdict text's length is not its strlen")
            check(params[0] == CChar(UInt8(ascii: "{")) && params[result.params_length - 1] == CChar(UInt8(ascii: "}")),
                  "params is not a JSON object: \(String(cString: params))")
        }
    case .FW_ERR_INVALID_SPEC, .FW_ERR_INVALID_ARGUMENT, .FW_ERR_INVALID_PATTERN, .FW_ERR_INVALID_UTF8:
        check(!lastErrorMessage().isEmpty, "a refused check has no detail")
    default:
        fail("fw_check_value returned \(status.rawValue)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func formwellSpecJSONFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    beginInput(data, size)
    defer { endInput() }
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let form = formWithValidator()
    check(fw_form_add_field(form, "pre-existing", nil, "kept") == .FW_OK, "adding the first field failed")
    checkValueOfRules(bytes)
    let status = withCString(bytes) { fw_form_load_spec(form, $0) }
    checkLastError(status, "fw_form_load_spec")
    let text = cView(bytes)
    switch status {
    case .FW_OK:
        break
    case .FW_ERR_INVALID_SPEC, .FW_ERR_INVALID_UTF8:
        check(status == .FW_ERR_INVALID_UTF8 || isValidUTF8(text), "invalid UTF-8 reported as a spec error")
        check(!lastErrorMessage().isEmpty, "a refused spec has no detail")
        check(fieldCount(form) == 1, "a refused spec left fields behind")
        check(fw_form_free(form) == .FW_OK, "fw_form_free failed")
        return 0
    default:
        fail("fw_form_load_spec returned \(status.rawValue)")
    }
    check(isValidUTF8(text), "a spec with invalid UTF-8 was accepted")

    // Round trip: export, load into a fresh form, export again.
    guard let first = export(form, "fw_form_export_spec") else { fail("exporting a loaded spec failed") }
    let fresh = formWithValidator()
    let reload = withCString(first) { fw_form_load_spec(fresh, $0) }
    check(reload == .FW_OK, "the exported spec does not load (\(reload.rawValue)): \(show(first))")
    guard let second = export(fresh, "fw_form_export_spec (reloaded)") else { fail("re-export failed") }
    check(first == second, "load -> export -> load is not stable:\n\(show(first))\n---\n\(show(second))")
    check(fieldCount(fresh) == fieldCount(form), "the reloaded form has a different number of fields")

    // Every field of the loaded form answers consistently after a submit.
    var valid = false
    let validated = fw_form_validate(form, &valid)
    checkLastError(validated, "fw_form_validate")
    check(validated == .FW_OK, "fw_form_validate on a loaded spec returned \(validated.rawValue)")
    if let snap = snapshot(form) { checkConsistent(snap) }
    check(fw_form_free(fresh) == .FW_OK && fw_form_free(form) == .FW_OK, "fw_form_free failed")
    check(fw_form_live_count() == 0, "forms leaked: \(fw_form_live_count()) live")
    return 0
}
