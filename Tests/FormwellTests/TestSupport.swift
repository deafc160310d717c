import Synchronization
import Testing
@testable import Formwell

/// What one field should look like after a step: its input state (seeds 01/02), its display state
/// (seed 03) and its touched flag.
struct Look: Equatable, Sendable, CustomStringConvertible {
    var input: InputState
    var display: DisplayState
    var touched: Bool

    init(_ input: InputState, _ display: DisplayState = .none, touched: Bool = false) {
        self.input = input
        self.display = display
        self.touched = touched
    }

    init(_ state: FieldState) {
        self.init(state.input, state.display, touched: state.touched)
    }

    var description: String { "input: \(input), display: \(display), touched: \(touched)" }

    /// Never interacted with (or reset).
    static let untouched = Look(.idle)
    /// Blurred / touched, left empty and optional.
    static let touchedIdle = Look(.idle, .none, touched: true)
    /// Blurred / touched and passing.
    static let blurredValid = Look(.inactive(.valid), .valid, touched: true)
    /// Blurred / touched and failing with `message`.
    static func blurredInvalid(_ message: String) -> Look {
        Look(.inactive(.invalid(message)), .error(message), touched: true)
    }
    /// Focused, not yet touched: seed 03 surfaces nothing.
    static func typing(_ validity: Validity) -> Look { Look(.focused(validity)) }
    /// Focused again after being touched: the display shows the strict verdict.
    static func retyping(_ validity: Validity, _ display: DisplayState) -> Look {
        Look(.focused(validity), display, touched: true)
    }
}

/// Asserts the look of every field of `form` at once. `expected` must name every field.
func expectLooks(
    _ form: Form, _ expected: [String: Look], _ step: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(Set(expected.keys) == Set(form.fieldIDs), "the expectation must name every field",
            sourceLocation: sourceLocation)
    for id in form.fieldIDs {
        guard let want = expected[id] else { continue }
        do {
            let got = Look(try form.state(of: id))
            #expect(got == want, "field '\(id)' \(step.map { "after \($0)" } ?? "")",
                    sourceLocation: sourceLocation)
        } catch {
            Issue.record(error, "state(of: \"\(id)\")", sourceLocation: sourceLocation)
        }
    }
}

/// A snapshot of everything observable about a form, to prove a failed operation changed nothing.
struct Snapshot: Equatable {
    let fieldIDs: [String]
    let states: [FieldState]
    let values: [String: String]
    let focused: String?
    let isValid: Bool
    let firstInvalid: String?

    init(_ form: Form) throws {
        fieldIDs = form.fieldIDs
        states = try form.fieldIDs.map { try form.state(of: $0) }
        values = form.values
        focused = form.focusedFieldID
        isValid = form.isValid
        firstInvalid = form.firstInvalidFieldID
    }
}

/// Types `text` into a focused field one character at a time, as a keyboard would.
func type(_ text: String, into id: String, of form: inout Form, after prefix: String = "") throws {
    var typed = prefix
    for character in text {
        typed.append(character)
        try form.setValue(typed, for: id)
    }
}

/// The error a custom validator throws in these tests.
struct ValidatorExploded: Error, CustomStringConvertible {
    var description: String { "validator exploded" }
}

/// A switch that makes a custom validator throw once turned on (shared safely with @Sendable closures).
final class Tripwire: Sendable {
    private let armed = Atomic<Bool>(false)
    var isArmed: Bool { armed.load(ordering: .relaxed) }
    func arm() { armed.store(true, ordering: .relaxed) }
    func disarm() { armed.store(false, ordering: .relaxed) }

    /// A custom rule that passes, or throws while armed.
    var rule: Rule {
        Rule.custom { [self] _ in
            if isArmed { throw ValidatorExploded() }
            return .valid
        }
    }
}
