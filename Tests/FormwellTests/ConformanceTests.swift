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
        for (index, step) in vector.steps.enumerated() {
            let label = "\(file) step \(index) (\(step.event) \(step.field ?? ""))"
            let revision = form.revision
            if let status = step.error {
                let before = form.states
                #expect(throws: FormError.self, "\(label): must fail with \(status)") { try self.apply(step, to: &form, label) }
                #expect(form.states == before, "\(label): a failed event must change nothing")
            } else {
                try apply(step, to: &form, label)
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
            if let want = step.expect.changed {
                #expect(form.changedFieldIDs(since: revision) == want, "\(label): changed")
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
                #expect(fresh.isValid(record: index) == record.valid, "\(file) record \(index): checkMany valid (pristine)")
                #expect(fresh.errors(record: index).map(\.message) == stepped.errors(record: index).map(\.message),
                        "\(file) record \(index): checkMany on the pristine form")
            }
            #expect(stepped.invalidCount == records.filter { !$0.valid }.count, "\(file): checkMany invalidCount")
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
            "phase": ["idle", "focused", "inactive"][Int(state.phase.rawValue)],
            "validity": validity, "message": state.message ?? "", "display": display,
            "display_message": state.display.message ?? "", "touched": state.touched,
            "failing_rule": state.failingRule.map { $0 as Any } ?? NSNull(),
            "visited": state.visited, "dirty": state.dirty, "modified_since_submit": state.modifiedSinceSubmit,
            "errors": state.errors, "external_error": state.externalError, "tint": state.tint.name,
            "label_raised": state.labelRaised, "emphasized": state.emphasized, "hint": state.accessibilityHint,
        ]
    }

    /// JSON equality of a computed value and a parsed one.
    static func same(_ actual: Any, _ expected: Any) -> Bool {
        switch (actual, expected) {
        case (is NSNull, is NSNull): return true
        case (let a as Bool, let b as Bool): return a == b
        case (let a as Int, let b as Int): return a == b
        case (let a as String, let b as String): return a == b
        case (let a as [String], let b as [Any]): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        default: return false
        }
    }

    private func apply(_ step: Step, to form: inout Form, _ label: String) throws {
        switch step.event {
        case "focus": try form.focus(try step.requireField())
        case "blur": try form.blur(try step.requireField())
        case "touch": try form.touch(try step.requireField())
        case "type", "set_value": try form.setValue(step.value ?? "", for: try step.requireField())
        case "touch_all": try form.touchAll(group: step.group)
        case "validate":
            let result = try form.validate(group: step.group)
            #expect(result == step.returns, "\(label): validate() returned \(result)")
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
}

private struct Step: Decodable {
    let event: String
    let field: String?
    let value: String?
    let returns: Bool?
    let group: String?
    let message: String?
    let values: [String: String]?
    /// The event must fail (a status name) and change nothing.
    let error: String?
    let expect: Expectation

    func requireField() throws -> String {
        guard let field else { throw VectorError.missingField(event) }
        return field
    }
}

private enum VectorError: Error { case missingField(String) }

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

    enum CodingKeys: String, CodingKey {
        case fields, valid, announcement, changed
        case firstInvalid = "first_invalid"
        case dirtyFields = "dirty_fields"
        case submitCount = "submit_count"
        case submitFailed = "submit_failed"
        case validIn = "valid_in"
        case firstInvalidIn = "first_invalid_in"
    }
}

private struct Record: Decodable {
    let values: [String: String]
    let valid: Bool
    let errors: [String: String]
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
