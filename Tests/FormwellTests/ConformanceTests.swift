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
            try apply(step, to: &form, label)
            #expect(Set(step.expect.fields.keys) == Set(form.fieldIDs), "\(label): expect.fields must list every field")
            for (id, want) in step.expect.fields {
                let got = try form.state(of: id)
                #expect(ExpectedField(got) == want, "\(label): field '\(id)'")
            }
            #expect(form.isValid == step.expect.valid, "\(label): valid")
            #expect(form.firstInvalidFieldID == step.expect.firstInvalid, "\(label): first_invalid")
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

    private func apply(_ step: Step, to form: inout Form, _ label: String) throws {
        switch step.event {
        case "focus": try form.focus(try step.requireField())
        case "blur": try form.blur(try step.requireField())
        case "touch": try form.touch(try step.requireField())
        case "type", "set_value": try form.setValue(step.value ?? "", for: try step.requireField())
        case "touch_all": try form.touchAll()
        case "validate":
            let result = try form.validate()
            #expect(result == step.returns, "\(label): validate() returned \(result)")
        case "reset": try form.reset()
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
    let expect: Expectation

    func requireField() throws -> String {
        guard let field else { throw VectorError.missingField(event) }
        return field
    }
}

private enum VectorError: Error { case missingField(String) }

private struct Expectation: Decodable {
    let fields: [String: ExpectedField]
    let valid: Bool
    let firstInvalid: String?

    enum CodingKeys: String, CodingKey {
        case fields, valid
        case firstInvalid = "first_invalid"
    }
}

private struct ExpectedField: Decodable, Equatable, CustomStringConvertible {
    let phase: String
    let validity: String
    let message: String
    let display: String
    let displayMessage: String
    let touched: Bool
    /// `failing_rule` (optional in a vector: null or the rule's index); compared only when both
    /// sides have it.
    let failingRule: Int?
    let hasFailingRule: Bool

    enum CodingKeys: String, CodingKey {
        case phase, validity, message, display, touched
        case displayMessage = "display_message"
        case failingRule = "failing_rule"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        phase = try container.decode(String.self, forKey: .phase)
        validity = try container.decode(String.self, forKey: .validity)
        message = try container.decode(String.self, forKey: .message)
        display = try container.decode(String.self, forKey: .display)
        displayMessage = try container.decode(String.self, forKey: .displayMessage)
        touched = try container.decode(Bool.self, forKey: .touched)
        hasFailingRule = container.contains(.failingRule)
        failingRule = try container.decodeIfPresent(Int.self, forKey: .failingRule)
    }

    static func == (lhs: ExpectedField, rhs: ExpectedField) -> Bool {
        lhs.phase == rhs.phase && lhs.validity == rhs.validity && lhs.message == rhs.message
            && lhs.display == rhs.display && lhs.displayMessage == rhs.displayMessage && lhs.touched == rhs.touched
            && (!lhs.hasFailingRule || !rhs.hasFailingRule || lhs.failingRule == rhs.failingRule)
    }

    init(_ state: FieldState) {
        phase = ["idle", "focused", "inactive"][Int(state.phase.rawValue)]
        switch state.validity {
        case .empty: validity = "empty"
        case .valid: validity = "valid"
        case .invalid: validity = "invalid"
        }
        message = state.message ?? ""
        switch state.display {
        case .none: display = "none"
        case .valid: display = "valid"
        case .error: display = "error"
        }
        displayMessage = state.display.message ?? ""
        touched = state.touched
        failingRule = state.failingRule
        hasFailingRule = true
    }

    var description: String {
        "\(phase)/\(validity) \"\(message)\" display \(display) \"\(displayMessage)\" touched \(touched)"
            + (hasFailingRule ? " failing_rule \(failingRule.map(String.init) ?? "null")" : "")
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
