/// Validation modes and the error mode (see `ValidationMode`, `ErrorMode`).
extension Form {
    /// The form's validation mode; fields without their own follow it.
    public var validationMode: ValidationMode { mode }

    /// The form's error mode: the first failing rule's message, or every failing rule's.
    public var errorReporting: ErrorMode { errorMode }

    /// Sets the form's mode. Fields that follow it show what the new mode shows from now on.
    public mutating func setValidationMode(_ newMode: ValidationMode) {
        guard newMode != mode else { return }
        let before = tracking(Array(fields.indices))
        mode = newMode
        record(before, formChanged: true)
    }

    /// Sets one field's own mode (nil: follow the form's).
    public mutating func setValidationMode(_ newMode: ValidationMode?, for id: String) throws(FormError) {
        let position = try position(of: id)
        let before = tracking([position])
        fields[position].modeOverride = newMode
        record(before)
    }

    /// The field's own mode, nil when it follows the form's.
    public func ownValidationMode(of id: String) throws(FormError) -> ValidationMode? {
        fields[try position(of: id)].modeOverride
    }

    /// Sets the error mode and re-runs every field's rules (error mode `all` runs the rules after
    /// the first failure too).
    public mutating func setErrorReporting(_ newMode: ErrorMode) throws(FormError) {
        guard newMode != errorMode else { return }
        let previous = errorMode
        errorMode = newMode
        let evaluations: [Evaluation]
        do {
            evaluations = try self.evaluations(of: fields.map(\.value))
        } catch {
            errorMode = previous
            throw error
        }
        // The error mode is part of the form's state (fw_form_info): its change always counts.
        rejudgeAll(evaluations, formChanged: true)
    }
}
