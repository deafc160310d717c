// Shared by the BatchColumns and ArrowStructs harnesses: the small form a fuzz input describes
// (or the registration spec), decoded once and built as often as a harness needs it.
import FormwellC
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

let registrationSpec = """
{"formwell": 1, "fields": [
 {"id": "name", "rules": [{"rule": "required", "message": "Name is required"}]},
 {"id": "email", "rules": [{"rule": "required"}, {"rule": "email"}]},
 {"id": "username", "rules": [{"rule": "required"}, {"rule": "min_length", "length": 3, "message": "At least 3 characters"},
   {"rule": "max_length", "length": 20, "message": "20 characters maximum"},
   {"rule": "regex", "pattern": "^[a-z0-9_]+$", "message": "Lowercase letters, numbers, and underscores only"}]},
 {"id": "password", "rules": [{"rule": "required"}, {"rule": "min_length", "length": 8},
   {"rule": "regex", "pattern": ".*[A-Z].*", "message": "Must contain an uppercase letter"},
   {"rule": "regex", "pattern": ".*[0-9].*", "message": "Must contain a number"}]},
 {"id": "confirm", "rules": [{"rule": "required", "message": "Please confirm your password"},
   {"rule": "matches", "field": "password", "message": "Passwords don't match"}]}
]}
"""

let fuzzPatterns = ["[a-z]*", ".*[0-9].*", "(a+)+b", "\u{e9}+", "[^x]{2,5}", "a|ab|abc"]
let fuzzInitials = ["", "a", "ab1", "x@y.co", "\u{e9}\u{e9}", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaacb"]

/// The custom rule: a value containing "x" is invalid, with its own words (used unless the rule has a
/// message). Deterministic and stateless, as a batch may call it for any record in any order.
let noX: fw_validate_fn = { _, value, length, message in
    guard let value else { return 2 }
    let bytes = UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self)
    check(bytes[Int(length)] == 0, "a custom validator's value is not NUL-terminated at its length")
    for i in 0..<Int(length) where bytes[i] == UInt8(ascii: "x") {
        message?.pointee = UnsafeRawPointer(ownWords).assumingMemoryBound(to: CChar.self)
        return 1
    }
    return 0
}
nonisolated(unsafe) let ownWords: UnsafeMutablePointer<CChar> = {
    let text = Array("has an x \u{2014} own words".utf8CString)
    let p = UnsafeMutablePointer<CChar>.allocate(capacity: text.count)
    p.initialize(from: text, count: text.count)
    return p
}()

/// A small form as decoded from the input, so that it can be built twice (batch and reference).
struct FormPlan {
    struct Rule { var kind: UInt8; var number: Int32; var message: Bool }
    var registration = true
    var ids: [String] = []
    var initial: [String?] = []
    var rules: [[Rule]] = []
    var limits: (UInt32, UInt32, UInt32)? = nil

    func build() -> OpaquePointer? {
        var form: OpaquePointer? = nil
        check(fw_form_create(&form) == .FW_OK, "fw_form_create failed")
        shortenTimeLimit(form)
        if registration {
            check(fw_form_load_spec(form, registrationSpec) == .FW_OK, "the registration spec does not load")
        } else {
            for (f, id) in ids.enumerated() {
                let added = fw_form_add_field(form, id, nil, initial[f])
                check(added == .FW_OK, "fw_form_add_field(\(id)) returned \(added.rawValue)")
                for rule in rules[f] {
                    let message: String? = rule.message ? "rule \(rule.kind) of \(id)" : nil
                    let status: fw_status
                    switch rule.kind {
                    case 0: status = fw_field_add_required(form, id, message)
                    case 1: status = fw_field_add_email(form, id, message)
                    case 2: status = fw_field_add_phone(form, id, message)
                    case 3: status = fw_field_add_min_length(form, id, rule.number, message)
                    case 4: status = fw_field_add_max_length(form, id, rule.number, message)
                    case 5: status = fw_field_add_regex(form, id, fuzzPatterns[Int(rule.number) % fuzzPatterns.count], message)
                    case 6: status = fw_field_add_matches(form, id, ids[Int(rule.number)], message)
                    default: status = fw_field_add_custom(form, id, noX, nil, nil, message)
                    }
                    checkKnown(status, "adding rule \(rule.kind) to \(id)")  // contradictory bounds are refused
                }
            }
        }
        if let (m, d, h) = limits { check(fw_form_set_match_limits(form, m, d, h) == .FW_OK, "fw_form_set_match_limits failed") }
        return form
    }
}

func decodePlan(_ reader: inout ByteReader) -> FormPlan {
    var plan = FormPlan()
    let mode = reader.byte()
    plan.registration = mode & 1 == 0
    if !plan.registration {
        let count = 1 + Int(reader.byte() % 4)
        for f in 0..<count {
            plan.ids.append("f\(f)")
            let ib = reader.byte()
            plan.initial.append(ib & 0x80 != 0 ? fuzzInitials[Int(ib) % fuzzInitials.count] : nil)
            var rules: [FormPlan.Rule] = []
            for _ in 0..<Int(reader.byte() % 4) {
                let kb = reader.byte(), nb = reader.byte()
                var kind = kb % 8
                if kind == 6 && f == 0 { kind = 0 }  // matches names an earlier field
                let number: Int32 = kind == 6 ? Int32(Int(nb) % f) : kind == 3 || kind == 4 ? Int32(nb % 10) : Int32(nb)
                rules.append(.init(kind: kind, number: number, message: kb & 0x80 != 0))
            }
            plan.rules.append(rules)
        }
    }
    if mode & 2 != 0 { plan.limits = (UInt32(reader.byte()) + 1, UInt32(reader.byte()) + 1, 16384) }
    return plan
}

/// The registration form the batch functions run on, built once per process: those functions must not
/// change a form (each harness checks its snapshot before and after), so inputs can share it, saving a
/// spec load per input. Not with match limits (they change the form) nor with
/// FORMWELL_FUZZ_FULL_SNAPSHOTS=1 (a form per input, as before).
nonisolated(unsafe) private var sharedRegistration: OpaquePointer? = nil

extension FormPlan {
    /// The form to check batches on: the shared registration form when the plan allows, else a new one.
    func buildTarget() -> OpaquePointer? {
        guard registration && limits == nil && !fullSnapshotsAlways else { return build() }
        if sharedRegistration == nil { sharedRegistration = build() }
        return sharedRegistration
    }

    /// Frees a form from `buildTarget` (the shared one stays).
    func release(_ form: OpaquePointer?) {
        if form != nil && form == sharedRegistration { return }
        check(fw_form_free(form) == .FW_OK, "fw_form_free failed")
    }
}

/// The forms that may be live between inputs (the shared registration form).
func formsKeptBetweenInputs() -> UInt { sharedRegistration == nil ? 0 : 1 }
