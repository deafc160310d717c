import Formwell

/// Validates records as submits on copies of one pristine form, and notes (once each) record keys
/// that are not fields of the spec.
struct RecordChecker {
    private let pristine: Form
    /// Field ids in spec order.
    let fieldIDs: [String]
    private let known: Set<String>
    private var notedKeys: Set<String> = []
    private let note: (String) -> Void

    init(form: Form, note: @escaping (String) -> Void) {
        pristine = form
        fieldIDs = form.fieldIDs
        known = Set(fieldIDs)
        self.note = note
    }

    /// The verdict on one record: valid, or the invalid fields with their messages.
    struct Outcome {
        var isValid: Bool
        /// (position in `fieldIDs`, message), in spec order.
        var errors: [(field: Int, message: String)]
    }

    /// Fields the record does not name keep their initial values. Throws only when the engine
    /// refuses the submit (which valid specs without custom rules never cause).
    mutating func check(_ values: [(key: String, value: String)]) throws(FormError) -> Outcome {
        var submitted: [String: String] = [:]
        submitted.reserveCapacity(values.count)
        for (key, value) in values {
            if known.contains(key) {
                submitted[key] = value
            } else if notedKeys.insert(key).inserted {
                note("key '\(key)' is not a field of the spec; ignored")
            }
        }
        var form = pristine
        let isValid = try form.submit(submitted)
        var errors: [(field: Int, message: String)] = []
        for (position, id) in fieldIDs.enumerated() {
            if case .error(let message) = try form.state(of: id).display {
                errors.append((position, message))
            }
        }
        return Outcome(isValid: isValid && errors.isEmpty, errors: errors)
    }
}
