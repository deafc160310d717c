import Foundation
import Testing
@testable import Formwell

/// Runs the shared conformance vectors (Tests/Conformance/*.json) against the engine. The C runner,
/// the Python tests and the command-line tool run the same files; see Tests/Conformance/README.md.
@Suite struct ConformanceTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Conformance")

    static var vectorFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    /// seed 02's example custom rule, as every runner defines it.
    static let startsWithPlus = CustomValidator { value in
        value.hasPrefix("+") ? .valid : .invalid("Number must start with '+'")
    }

    @Test func thereAreVectors() {
        #expect(!Self.vectorFiles.isEmpty)
    }

    @Test(arguments: vectorFiles)
    func vector(_ file: String) throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(file))
        let vector = try JSONDecoder().decode(Vector.self, from: data)
        let specJSON = String(decoding: try JSONSerialization.data(withJSONObject: vector.spec.value), as: UTF8.self)
        let pristine = try Form(spec: FormSpec(json: specJSON), validators: ["starts_with_plus": Self.startsWithPlus])
        var form = pristine
        var requests: [String: UInt64] = [:]  // `take` labels
        for (index, step) in vector.steps.enumerated() {
            let label = "\(file) step \(index) (\(step.event) \(step.field ?? ""))"
            let revision = form.revision
            if let status = step.error {
                let before = form.states
                do {
                    try self.apply(step, to: &form, label, requests: &requests)
                    Issue.record("\(label): must fail with \(status)")
                } catch let error as FormError {
                    #expect(Self.statusName(error) == status, "\(label): failed with \(error), expected \(status)")
                }
                #expect(form.states == before, "\(label): a failed event must change nothing")
            } else {
                try apply(step, to: &form, label, requests: &requests)
            }
            #expect(Set(step.expect.fields.keys) == Set(form.fieldIDs), "\(label): expect.fields must list every field")
            for (id, want) in step.expect.fields {
                let got = Self.observed(try form.state(of: id))
                for (key, value) in want {
                    #expect(got[key] != nil, "\(label): field '\(id)': unknown key '\(key)'")
                    if let actual = got[key] {
                        #expect(Self.same(actual, value.value), "\(label): field '\(id)' \(key): got \(actual), expected \(value.value)")
                    }
                }
            }
            #expect(form.isValid == step.expect.valid, "\(label): valid")
            #expect(form.firstInvalidFieldID == step.expect.firstInvalid, "\(label): first_invalid")
            if let want = step.expect.dirtyFields { #expect(form.dirtyFieldIDs == want, "\(label): dirty_fields") }
            if let want = step.expect.submitCount { #expect(form.submitCount == want, "\(label): submit_count") }
            if let want = step.expect.submitFailed { #expect(form.submitFailed == want, "\(label): submit_failed") }
            if let want = step.expect.announcement { #expect(form.announcement == want, "\(label): announcement") }
            if let want = step.expect.pendingFields { #expect(form.pendingFieldIDs == want, "\(label): pending_fields") }
            if let want = step.expect.staleResults { #expect(form.staleResults == want, "\(label): stale_results") }
            if step.expect.hasNextDue { #expect(form.nextDueTime == step.expect.nextDue, "\(label): next_due") }
            if let want = step.expect.changed {
                #expect(form.changedFieldIDs(since: revision) == want, "\(label): changed")
            }
            if let want = step.expect.values {
                // Compared as UTF-8 bytes: String's == would take canonically equivalent texts as equal.
                let got = form.values.mapValues { Array($0.utf8) }
                #expect(got == want.mapValues { Array($0.utf8) }, "\(label): values: got \(form.values), expected \(want)")
            }
            for (group, want) in step.expect.validIn ?? [:] {
                #expect(try form.isValid(in: group) == want, "\(label): valid_in \(group)")
            }
            for (group, want) in step.expect.firstInvalidIn ?? [:] {
                #expect(try form.firstInvalidFieldID(in: group) == want, "\(label): first_invalid_in \(group)")
            }
        }
        for (index, record) in (vector.records ?? []).enumerated() {
            var submitted = pristine
            let valid = try submitted.submit(record.values)
            #expect(valid == record.valid, "\(file) record \(index): valid")
            var errors: [String: String] = [:]
            for id in submitted.fieldIDs {
                if case .error(let message) = try submitted.state(of: id).display { errors[id] = message }
            }
            #expect(errors == record.errors, "\(file) record \(index): errors")
            if let want = record.codes {
                var codes: [String: String] = [:]
                for id in submitted.fieldIDs {
                    let state = try submitted.state(of: id)
                    if case .error = state.display { codes[id] = state.displayCode }
                }
                #expect(codes == want, "\(file) record \(index): codes")
            }
        }
        // The same records through the batch path, on the form as the steps left it (a batch reads
        // the rules and initial values, never the form's state) and on the pristine form.
        let records = vector.records ?? []
        if !records.isEmpty {
            let stepped = try form.checkMany(records.map(\.values), threads: 0)
            let fresh = try pristine.checkMany(records.map(\.values), threads: 1)
            for (index, record) in records.enumerated() {
                var errors: [String: String] = [:]
                for (field, message) in stepped.errors(record: index) { errors[form.fieldIDs[field]] = message }
                #expect(stepped.isValid(record: index) == record.valid, "\(file) record \(index): checkMany valid")
                #expect(errors == record.errors, "\(file) record \(index): checkMany errors")
                if let want = record.codes {
                    var codes: [String: String] = [:]
                    for field in form.fieldIDs.indices {
                        if let code = stepped.code(record: index, field: field) { codes[form.fieldIDs[field]] = code }
                    }
                    #expect(codes == want, "\(file) record \(index): checkMany codes")
                }
                #expect(fresh.isValid(record: index) == record.valid, "\(file) record \(index): checkMany valid (pristine)")
                #expect(fresh.errors(record: index).map(\.message) == stepped.errors(record: index).map(\.message),
                        "\(file) record \(index): checkMany on the pristine form")
            }
            #expect(stepped.invalidCount == records.filter { !$0.valid }.count, "\(file): checkMany invalidCount")
        }
        // Single-value checks (no form).
        for (index, check) in (vector.checks ?? []).enumerated() {
            let label = "\(file) check \(index)"
            let rulesJSON = String(decoding: try JSONSerialization.data(withJSONObject: check.rules.value), as: UTF8.self)
            let spec = try FormSpec(json: #"{"formwell": 1, "fields": [{"id": "value", "rules": "# + rulesJSON + "}]}")
            let verdict = try ValueCheck.check(check.value, against: spec.fields[0].rules.map { Rule($0.kind, message: $0.message, hint: $0.hint) }, locale: check.locale ?? "en")
            let validity: String
            switch verdict.validity {
            case .empty: validity = "empty"
            case .valid: validity = "valid"
            case .invalid: validity = "invalid"
            case .pending: validity = "pending"
            }
            #expect(validity == check.validity, "\(label): validity \(validity)")
            #expect((verdict.message ?? "") == check.message, "\(label): message \(verdict.message ?? "")")
            #expect(verdict.code == check.code, "\(label): code \(verdict.code)")
            #expect(Self.same(Self.parsedJSON(verdict.params), check.params.value), "\(label): params \(verdict.params)")
        }
    }

    /// The vector format's status name of an engine error.
    static func statusName(_ error: FormError) -> String {
        switch error {
        case .unknownField: return "unknown_field"
        case .duplicateField: return "duplicate_field"
        case .invalidArgument: return "invalid_argument"
        case .invalidPattern: return "invalid_pattern"
        case .callbackFailed: return "callback"
        case .internalError: return "internal"
        case .unknownRequest: return "unknown_request"
        case .requestClosed: return "request_closed"
        }
    }

    /// A field state under the vector format's keys (Tests/Conformance/README.md).
    static func observed(_ state: FieldState) -> [String: Any] {
        let validity: String
        switch state.validity {
        case .empty: validity = "empty"
        case .valid: validity = "valid"
        case .invalid: validity = "invalid"
        case .pending: validity = "pending"
        }
        let display: String
        switch state.display {
        case .none: display = "none"
        case .valid: display = "valid"
        case .error: display = "error"
        }
        return [
            "phase": "\(state.phase)",
            "validity": validity, "message": state.message ?? "", "display": display,
            "display_message": state.display.message ?? "", "touched": state.touched,
            "failing_rule": state.failingRule.map { $0 as Any } ?? NSNull(),
            "visited": state.visited, "dirty": state.dirty, "modified_since_submit": state.modifiedSinceSubmit,
            "errors": state.errors, "external_error": state.externalError, "tint": state.tint.name,
            "label_raised": state.labelRaised, "emphasized": state.emphasized, "hint": state.accessibilityHint,
            "value": state.value, "normalized": state.normalizedValue, "secret": state.secret,
            "code": state.code, "params": parsedJSON(state.params), "display_code": state.displayCode,
            "error_codes": state.errorCodes,
        ]
    }

    /// A JSON text (a failure's parameters) as the vector parser reads JSON, for `same`.
    static func parsedJSON(_ text: String) -> Any {
        (try? JSONDecoder().decode(AnyJSON.self, from: Data(text.utf8)))?.value ?? "not JSON: \(text)"
    }

    /// JSON equality of a computed value and a parsed one.
    static func same(_ actual: Any, _ expected: Any) -> Bool {
        switch (actual, expected) {
        case (is NSNull, is NSNull): return true
        case (let a as Bool, let b as Bool): return a == b
        case (let a as Int, let b as Int): return a == b
        // Strings by their UTF-8 bytes: String's == takes canonically equivalent texts as equal, and the
        // normalisers' vectors tell a decomposed value from its NFC form.
        case (let a as String, let b as String): return a.utf8.elementsEqual(b.utf8)
        case (let a as [String], let b as [Any]): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (let a as [Any], let b as [Any]): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (let a as [String: Any], let b as [String: Any]):
            return Set(a.keys) == Set(b.keys) && a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
        default: return false
        }
    }

    private func apply(_ step: Step, to form: inout Form, _ label: String, requests: inout [String: UInt64]) throws {
        switch step.event {
        case "focus": try form.focus(try step.requireField())
        case "blur": try form.blur(try step.requireField())
        case "touch": try form.touch(try step.requireField())
        case "type", "set_value":
            if let now = step.now { form.tick(now) }
            try form.setValue(step.value ?? "", for: try step.requireField())
        case "tick": form.tick(step.now ?? 0)
        case "take":
            let request = form.nextRequest(now: step.now ?? 0)
            switch (request, step.expectRequest) {
            case (nil, nil): break
            case (let got?, let want?):
                #expect(got.fieldID == want.field && got.value == want.value && got.rule == want.rule,
                        "\(label): took \(got), expected \(want)")
                if let name = step.as { requests[name] = got.id }
            default: Issue.record("\(label): took \(String(describing: request)), expected \(String(describing: step.expectRequest))")
            }
        case "resolve":
            let id: UInt64
            switch step.request {
            case .label(let name)?:
                guard let known = requests[name] else { Issue.record("\(label): no request labelled \(name)"); return }
                id = known
            case .id(let raw)?: id = raw
            case nil: Issue.record("\(label): resolve without a request"); return
            }
            let verdict: AsyncVerdict
            switch step.verdict {
            case "valid": verdict = .valid
            case "invalid": verdict = .invalid(step.message)
            default: verdict = .error(step.message)
            }
            let outcome = try form.resolve(id, verdict)
            #expect((outcome == .applied ? "applied" : "stale") == step.returnsText, "\(label): resolve returned \(outcome)")
        case "submit":
            let outcome = try form.submit(group: step.group)
            let name: String
            switch outcome {
            case .valid: name = "valid"
            case .invalid: name = "invalid"
            case .pending: name = "pending"
            }
            #expect(name == step.returnsText, "\(label): submit returned \(outcome)")
        case "touch_all": try form.touchAll(group: step.group)
        case "validate":
            let result = try form.validate(group: step.group)
            #expect(result == step.returnsBool, "\(label): validate() returned \(result)")
        case "reset":
            if let values = step.values { try form.reset(values: values) } else { try form.reset() }
        case "set_error": try form.setError(step.message ?? "", for: try step.requireField())
        case "clear_error": try form.clearError(for: try step.requireField())
        case "clear_errors": form.clearErrors()
        case "remove_field": try form.removeField(try step.requireField())
        default: Issue.record("\(label): unknown event '\(step.event)'")
        }
    }
}

// MARK: The vector format

private struct Vector: Decodable {
    let name: String
    let spec: AnyJSON
    let steps: [Step]
    let records: [Record]?
    let checks: [Check]?
}

/// A single-value check (`ValueCheck`): rules in spec syntax, a value, the verdict.
private struct Check: Decodable {
    let rules: AnyJSON
    let value: String
    let locale: String?
    let validity: String
    let message: String
    let code: String
    let params: AnyJSON
}

private struct Step: Decodable {
    let event: String
    let field: String?
    let value: String?
    let returnsBool: Bool?
    let returnsText: String?
    let group: String?
    let message: String?
    let values: [String: String]?
    /// The event must fail (a status name) and change nothing.
    let error: String?
    let now: UInt64?
    let `as`: String?
    let expectRequest: ExpectedRequest?
    let request: RequestName?
    let verdict: String?
    let expect: Expectation

    enum CodingKeys: String, CodingKey {
        case event, field, value, returns, group, message, values, error, now, `as`, request, verdict, expect
        case expectRequest = "expect_request"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        event = try container.decode(String.self, forKey: .event)
        field = try container.decodeIfPresent(String.self, forKey: .field)
        value = try container.decodeIfPresent(String.self, forKey: .value)
        returnsBool = try? container.decodeIfPresent(Bool.self, forKey: .returns)
        returnsText = try? container.decodeIfPresent(String.self, forKey: .returns)
        group = try container.decodeIfPresent(String.self, forKey: .group)
        message = try container.decodeIfPresent(String.self, forKey: .message)
        values = try container.decodeIfPresent([String: String].self, forKey: .values)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        now = try container.decodeIfPresent(UInt64.self, forKey: .now)
        `as` = try container.decodeIfPresent(String.self, forKey: .as)
        expectRequest = try container.decodeIfPresent(ExpectedRequest.self, forKey: .expectRequest)
        request = try container.decodeIfPresent(RequestName.self, forKey: .request)
        verdict = try container.decodeIfPresent(String.self, forKey: .verdict)
        expect = try container.decode(Expectation.self, forKey: .expect)
    }

    func requireField() throws -> String {
        guard let field else { throw VectorError.missingField(event) }
        return field
    }
}

private enum VectorError: Error { case missingField(String) }

private struct ExpectedRequest: Decodable, CustomStringConvertible {
    let field: String
    let value: String
    let rule: String
    var description: String { "\(field)=\"\(value)\" by \(rule)" }
}

/// A `take` label, or a raw request id.
private enum RequestName: Decodable {
    case label(String)
    case id(UInt64)

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let raw = try? container.decode(UInt64.self) { self = .id(raw) } else { self = .label(try container.decode(String.self)) }
    }
}

private struct Expectation: Decodable {
    let fields: [String: [String: AnyJSON]]
    let valid: Bool
    let firstInvalid: String?
    let dirtyFields: [String]?
    let submitCount: Int?
    let submitFailed: Bool?
    let announcement: String?
    let validIn: [String: Bool]?
    let firstInvalidIn: [String: String?]?
    let changed: [String]?
    let pendingFields: [String]?
    let staleResults: Int?
    let nextDue: UInt64?
    let hasNextDue: Bool
    /// Vectors 60-63: the values for submission (`Form.values`: normalised), by field id.
    let values: [String: String]?

    enum CodingKeys: String, CodingKey {
        case fields, valid, announcement, changed, values
        case pendingFields = "pending_fields"
        case staleResults = "stale_results"
        case nextDue = "next_due"
        case firstInvalid = "first_invalid"
        case dirtyFields = "dirty_fields"
        case submitCount = "submit_count"
        case submitFailed = "submit_failed"
        case validIn = "valid_in"
        case firstInvalidIn = "first_invalid_in"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fields = try container.decode([String: [String: AnyJSON]].self, forKey: .fields)
        valid = try container.decode(Bool.self, forKey: .valid)
        firstInvalid = try container.decodeIfPresent(String.self, forKey: .firstInvalid)
        dirtyFields = try container.decodeIfPresent([String].self, forKey: .dirtyFields)
        submitCount = try container.decodeIfPresent(Int.self, forKey: .submitCount)
        submitFailed = try container.decodeIfPresent(Bool.self, forKey: .submitFailed)
        announcement = try container.decodeIfPresent(String.self, forKey: .announcement)
        validIn = try container.decodeIfPresent([String: Bool].self, forKey: .validIn)
        firstInvalidIn = try container.decodeIfPresent([String: String?].self, forKey: .firstInvalidIn)
        changed = try container.decodeIfPresent([String].self, forKey: .changed)
        pendingFields = try container.decodeIfPresent([String].self, forKey: .pendingFields)
        staleResults = try container.decodeIfPresent(Int.self, forKey: .staleResults)
        hasNextDue = container.contains(.nextDue)
        nextDue = try container.decodeIfPresent(UInt64.self, forKey: .nextDue)
        values = try container.decodeIfPresent([String: String].self, forKey: .values)
    }
}

private struct Record: Decodable {
    let values: [String: String]
    let valid: Bool
    let errors: [String: String]
    let codes: [String: String]?
}

/// Any JSON, kept as Foundation objects so the spec can be handed to the engine as text again.
private struct AnyJSON: Decodable {
    let value: Any

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { value = NSNull() }
        else if let bool = try? container.decode(Bool.self) { value = bool }
        else if let int = try? container.decode(Int.self) { value = int }
        else if let double = try? container.decode(Double.self) { value = double }
        else if let string = try? container.decode(String.self) { value = string }
        else if let array = try? container.decode([AnyJSON].self) { value = array.map(\.value) }
        else { value = try container.decode([String: AnyJSON].self).mapValues(\.value) }
    }
}
