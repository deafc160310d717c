/// A form: fields in registration order, each with a value, ordered rules and a state (seeds 01–03).
///
/// Every mutating operation either succeeds completely or throws and leaves the form as it was:
/// new field states are computed first (running validators, which may throw) and stored last.
/// Validators run on events — add, focus, blur, set value, touch, touchAll, validate, reset, and
/// a change of a field that a `matches` rule compares with; queries only read stored verdicts.
public struct Form: Sendable {
    // Internal rather than private: Form+Spec.swift reads them.
    private(set) var fields: [Field] = []
    private var positions: [String: Int] = [:]
    private var focusedPosition: Int?
    private var matchContext = MatchContext.default
    /// Custom validators a spec may name (`defineValidator`).
    var namedValidators: [String: CustomValidator] = [:]

    public init() {}

    // MARK: Registration

    /// Adds a field. Ids are non-empty and unique; `matches` rules may name fields added earlier.
    public mutating func addField(
        _ id: String, label: String? = nil, initialValue: String = "", rules: [Rule] = []
    ) throws(FormError) {
        guard !id.isEmpty else { throw .invalidArgument("a field id must not be empty") }
        guard positions[id] == nil else { throw .duplicateField(id) }
        var field = Field(id: id, label: label, initialValue: initialValue)
        for rule in rules {
            field.rules.append(try CompiledRule(rule, for: field, in: fieldNamed))
        }
        field = try field.reevaluated(valueOf: currentValue, matchContext: matchContext)
        positions[id] = fields.count
        fields.append(field)
    }

    /// Appends a rule to an existing field (after its other rules).
    public mutating func addRule(_ rule: Rule, to id: String) throws(FormError) {
        let position = try self.position(of: id)
        var field = fields[position]
        field.rules.append(try CompiledRule(rule, for: field, in: fieldNamed))
        field = try field.reevaluated(valueOf: currentValue, matchContext: matchContext)
        if field.isJudged { field.input = field.inputState(focused: position == focusedPosition) }
        fields[position] = field
    }

    // MARK: Events
    //
    // Each operation computes its changes in a non-mutating step, where closures over `self` may
    // live, and stores them afterwards: the field array is then uniquely referenced and updated in
    // place instead of being copied on every keystroke.

    /// The field gains focus (stage 1). A form has one focus: the field that had it is blurred.
    public mutating func focus(_ id: String) throws(FormError) {
        let position = try self.position(of: id)
        var changes = FieldChanges()
        if let previous = focusedPosition, previous != position {
            changes.add(try blurred(fields[previous]), at: previous)
        }
        changes.add(try judged(fields[position], touch: false, focused: true), at: position)
        store(changes)
        focusedPosition = position
    }

    /// The field loses focus (stage 2) and counts as touched.
    public mutating func blur(_ id: String) throws(FormError) {
        let position = try self.position(of: id)
        let field = try blurred(fields[position])
        fields[position] = field
        if focusedPosition == position { focusedPosition = nil }
    }

    /// Sets a value, typed or programmatic: the lenient stage if the field is focused, else the strict
    /// one. Fields whose `matches` rule names this one are re-checked (never-judged idle ones stay idle).
    public mutating func setValue(_ value: String, for id: String) throws(FormError) {
        let changes = try valueChanges(value, for: try position(of: id))
        store(changes)
    }

    /// Marks the field touched and runs its rules (seed 03's `touch(fieldId:)`).
    public mutating func touch(_ id: String) throws(FormError) {
        let position = try self.position(of: id)
        fields[position] = try judged(fields[position], touch: true, focused: position == focusedPosition)
    }

    /// Marks every field touched and runs every rule.
    public mutating func touchAll() throws(FormError) {
        var changes = FieldChanges()
        for (position, field) in fields.enumerated() {
            changes.add(try judged(field, touch: true, focused: position == focusedPosition), at: position)
        }
        store(changes)
    }

    /// Seed 03's submit: touches every field, applies the strict stage, answers `isValid`.
    /// A focused field keeps its focus (and lenient input state); its display shows the strict verdict.
    @discardableResult
    public mutating func validate() throws(FormError) -> Bool {
        try touchAll()
        return isValid
    }

    /// A whole submit in one step (what a batch check needs): the given fields take the given values,
    /// the others keep theirs; focus is cleared; every field is touched and judged once in the strict
    /// stage. Answers `isValid`. An unknown id throws before anything changes.
    @discardableResult
    public mutating func submit(_ newValues: [String: String]) throws(FormError) -> Bool {
        let changes = try submitChanges(newValues)
        store(changes)
        focusedPosition = nil
        return isValid
    }

    /// Values back to their initial values; every field idle, untouched, unfocused.
    public mutating func reset() throws(FormError) {
        let changes = try resetChanges()
        store(changes)
        focusedPosition = nil
    }

    private func valueChanges(_ value: String, for position: Int) throws(FormError) -> FieldChanges {
        let id = fields[position].id
        let valueOf: (String) -> String? = { other in other == id ? value : self.currentValue(other) }
        var changes = FieldChanges()
        var field = fields[position]
        field.value = value
        field = try field.reevaluated(valueOf: valueOf, matchContext: matchContext)
        field.input = field.inputState(focused: position == focusedPosition)
        changes.add(field, at: position)
        for (index, dependent) in fields.enumerated() where index != position && dependent.dependsOn(id) {
            var updated = try dependent.reevaluated(valueOf: valueOf, matchContext: matchContext)
            if updated.isJudged { updated.input = updated.inputState(focused: index == focusedPosition) }
            changes.add(updated, at: index)
        }
        return changes
    }

    private func submitChanges(_ newValues: [String: String]) throws(FormError) -> FieldChanges {
        for id in newValues.keys where positions[id] == nil { throw .unknownField(id) }
        let valueOf: (String) -> String? = { id in newValues[id] ?? self.currentValue(id) }
        var changes = FieldChanges()
        for (position, field) in fields.enumerated() {
            var updated = field
            if let value = newValues[field.id] { updated.value = value }
            updated = try updated.reevaluated(valueOf: valueOf, matchContext: matchContext)
            updated.touched = true
            updated.input = updated.inputState(focused: false)
            changes.add(updated, at: position)
        }
        return changes
    }

    private func resetChanges() throws(FormError) -> FieldChanges {
        let initial: (String) -> String? = { id in self.fieldNamed(id)?.initialValue }
        var changes = FieldChanges()
        for (position, field) in fields.enumerated() {
            var updated = field
            updated.value = field.initialValue
            updated = try updated.reevaluated(valueOf: initial, matchContext: matchContext)
            updated.input = .idle
            updated.touched = false
            changes.add(updated, at: position)
        }
        return changes
    }

    // MARK: Limits

    /// The PCRE2 limits every pattern rule of this form matches under (`MatchLimits.default` at first).
    public var matchLimits: MatchLimits { matchContext.limits }

    /// Changes the limits and re-runs every field's rules under them; phases and touched flags stay.
    /// Every limit must be at least 1.
    public mutating func setMatchLimits(_ limits: MatchLimits) throws(FormError) {
        guard limits.matchLimit > 0, limits.depthLimit > 0, limits.heapLimitKiB > 0 else {
            throw .invalidArgument("match limits must be at least 1 (got match \(limits.matchLimit), "
                + "depth \(limits.depthLimit), heap \(limits.heapLimitKiB) KiB)")
        }
        var updated = self
        updated.matchContext = limits == .default ? .default : MatchContext(limits)
        var changes = FieldChanges()
        for (position, field) in fields.enumerated() {
            var refreshed = try field.reevaluated(valueOf: currentValue, matchContext: updated.matchContext)
            if refreshed.isJudged { refreshed.input = refreshed.inputState(focused: position == focusedPosition) }
            changes.add(refreshed, at: position)
        }
        updated.store(changes)
        self = updated
    }

    // MARK: Queries

    /// Field ids in registration order.
    public var fieldIDs: [String] { fields.map(\.id) }

    /// Every field's current value.
    public var values: [String: String] {
        Dictionary(fields.map { ($0.id, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    public func value(of id: String) throws(FormError) -> String {
        fields[try position(of: id)].value
    }

    public func state(of id: String) throws(FormError) -> FieldState {
        let field = fields[try position(of: id)]
        return FieldState(id: field.id, label: field.label, value: field.value, input: field.input,
                          display: field.display, touched: field.touched, limitExceeded: field.limitExceeded)
    }

    /// True when every field passes its strict rules on its current value, touched or not:
    /// what a submit button's enabled state needs.
    public var isValid: Bool { fields.allSatisfy(\.passesStrictly) }

    /// The first field in registration order that fails its strict rules (where focus goes on submit).
    public var firstInvalidFieldID: String? { fields.first { !$0.passesStrictly }?.id }

    /// The focused field's id, if any.
    public var focusedFieldID: String? { focusedPosition.map { fields[$0].id } }

    // MARK: Helpers

    private func position(of id: String) throws(FormError) -> Int {
        guard let position = positions[id] else { throw .unknownField(id) }
        return position
    }

    private func fieldNamed(_ id: String) -> Field? { positions[id].map { fields[$0] } }

    private func currentValue(_ id: String) -> String? { fieldNamed(id)?.value }

    private func blurred(_ field: Field) throws(FormError) -> Field {
        try judged(field, touch: true, focused: false)
    }

    /// The field with its rules re-run on its value, touched if asked, in the given stage.
    private func judged(_ field: Field, touch: Bool, focused: Bool) throws(FormError) -> Field {
        var updated = try field.reevaluated(valueOf: currentValue, matchContext: matchContext)
        if touch { updated.touched = true }
        updated.input = updated.inputState(focused: focused)
        return updated
    }

    /// The only place computed states are written: after every one of them was computed.
    private mutating func store(_ changes: FieldChanges) {
        for (position, field) in zip(changes.positions, changes.fields) { fields[position] = field }
    }
}
