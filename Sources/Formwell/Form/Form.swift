/// A form: fields in registration order, each with a value, ordered rules and a state (seeds 01–03).
///
/// Every mutating operation either succeeds completely or throws and leaves the form as it was:
/// new verdicts are computed first (running validators, which may throw) and stored last.
/// Validators run on events — add, focus, blur, set value, touch, touchAll, validate, reset, and
/// a change of a field that a `matches` rule compares with; queries only read stored verdicts.
///
/// Fields are never removed, so a field's index (registration order, `fieldIndex(of:)`) names it
/// for the form's whole life: the index-based calls skip the id lookup on hot paths.
public struct Form: Sendable {
    // Internal rather than private: Form+Spec.swift reads them.
    private(set) var fields: [Field] = []
    private var positions: [String: Int] = [:]
    private var focusedPosition: Int?
    private(set) var matchContext = MatchContext.default
    /// Custom validators a spec may name (`defineValidator`).
    var namedValidators: [String: CustomValidator] = [:]

    public init() {}

    // MARK: Registration

    /// Adds a field with its rules, all or nothing. Ids are non-empty and unique; `matches` rules
    /// may name fields added earlier.
    public mutating func addField(
        _ id: String, label: String? = nil, initialValue: String = "", rules: [Rule] = []
    ) throws(FormError) {
        guard !id.isEmpty else { throw .invalidArgument("a field id must not be empty") }
        // C names fields with NUL-terminated strings: an id holding U+0000 could never be named.
        guard !id.utf8.contains(0) else { throw .invalidArgument("a field id must not contain U+0000 (NUL)") }
        guard positions[id] == nil else { throw .duplicateField(id) }
        var field = Field(id: id, label: label, initialValue: initialValue)
        for rule in rules {
            field.append(try CompiledRule(rule, for: field, in: fieldAndPosition))
        }
        let position = fields.count
        var value = field.value
        field.store(try field.evaluation(of: &value, valueAt: currentValue, matchContext: matchContext.pointer))
        // Nothing below throws: index the new field's `matches` rules, then add it.
        for target in Form.matchedPositions(field.rules) { fields[target].dependents.append(position) }
        positions[id] = position
        fields.append(field)
        // Keep one spare element at the end of the storage: every keystroke writes into it, and the
        // spare keeps whatever the allocator puts next (another form's, in another thread) off the
        // cache lines being written.
        if fields.capacity == fields.count { fields.reserveCapacity(fields.count + 1) }
    }

    /// Appends a rule to an existing field (after its other rules).
    public mutating func addRule(_ rule: Rule, to id: String) throws(FormError) {
        let position = try self.position(of: id)
        var field = fields[position]
        let compiled = try CompiledRule(rule, for: field, in: fieldAndPosition)
        field.append(compiled)
        var value = field.value
        field.store(try field.evaluation(of: &value, valueAt: currentValue, matchContext: matchContext.pointer))
        if field.isJudged { field.rejudge(focused: position == focusedPosition) }
        fields[position] = field
        for target in Form.matchedPositions([compiled]) where !fields[target].dependents.contains(position) {
            fields[target].dependents.append(position)
        }
    }

    private static func matchedPositions(_ rules: [CompiledRule]) -> [Int] {
        rules.compactMap { rule in
            if case .matches(_, let position, _) = rule.check { return position }
            return nil
        }
    }

    // MARK: Events by id

    /// The field gains focus (stage 1). A form has one focus: the field that had it is blurred.
    public mutating func focus(_ id: String) throws(FormError) { try focus(at: position(of: id)) }

    /// The field loses focus (stage 2) and counts as touched.
    public mutating func blur(_ id: String) throws(FormError) { try blur(at: position(of: id)) }

    /// Sets a value, typed or programmatic: the lenient stage if the field is focused, else the strict
    /// one. Fields whose `matches` rule names this one are re-checked (never-judged idle ones stay idle).
    public mutating func setValue(_ value: String, for id: String) throws(FormError) {
        try setValue(value, at: position(of: id))
    }

    /// Marks the field touched and runs its rules (seed 03's `touch(fieldId:)`).
    public mutating func touch(_ id: String) throws(FormError) { try touch(at: position(of: id)) }

    // MARK: Events by index

    /// `focus(_:)` for the field at `index` (registration order).
    public mutating func focus(at index: Int) throws(FormError) {
        try checkIndex(index)
        var previous: (Int, Evaluation)?
        if let other = focusedPosition, other != index { previous = (other, try evaluation(at: other)) }
        let own = try evaluation(at: index)
        if let (other, evaluation) = previous { judge(other, evaluation, touch: true, focused: false) }
        judge(index, own, touch: false, focused: true)
        focusedPosition = index
    }

    /// `blur(_:)` for the field at `index`.
    public mutating func blur(at index: Int) throws(FormError) {
        try checkIndex(index)
        judge(index, try evaluation(at: index), touch: true, focused: false)
        if focusedPosition == index { focusedPosition = nil }
    }

    /// `touch(_:)` for the field at `index`.
    public mutating func touch(at index: Int) throws(FormError) {
        try checkIndex(index)
        judge(index, try evaluation(at: index), touch: true, focused: index == focusedPosition)
    }

    /// `setValue(_:for:)` for the field at `index`: re-judges that field and its dependents only.
    public mutating func setValue(_ value: String, at index: Int) throws(FormError) {
        var text = value
        let result = text.withUTF8 { (bytes) -> Result<Void, FormError> in
            // A Swift string is valid UTF-8; the check cannot fail.
            guard let valid = ValidUTF8(validating: bytes) else {
                return .failure(.internalError("a Swift string was not valid UTF-8"))
            }
            return Result { () throws(FormError) in try setValue(valid, at: index) }
        }
        try result.get()
    }

    /// `setValue(_:at:)` with the value as UTF-8 bytes, checked once by `ValidUTF8`: the keystroke
    /// path of the C ABI. The bytes are copied into the field's own storage, reused across values.
    public mutating func setValue(_ value: ValidUTF8, at index: Int) throws(FormError) {
        let context = matchContext.pointer
        let focused = index == focusedPosition
        // Fields and rules are reached through pointers into storage borrowed for writing (a
        // non-mutating borrow of a stored array made the compiler copy it, a retain); a field with
        // no dependents is updated in place in the same pass.
        let deferred = try fields.withUnsafeMutableBufferPointer { (buffer) throws(FormError) -> Evaluation? in
            guard let base = buffer.baseAddress, buffer.indices.contains(index) else {
                throw .invalidArgument("field index \(index) is out of range (\(buffer.count) fields)")
            }
            let field = base + index
            // (Closures passed inline: a closure stored in a local is escaping, a heap allocation.)
            let own = try field.pointee.withRules { (rules) throws(FormError) in
                try Field.evaluation(
                    of: Subject(utf8: value.bytes), rules: rules, id: { field.pointee.id },
                    valueAt: { buffer.indices.contains($0) ? .stored(buffer[$0].value) : nil }, matchContext: context)
            }
            guard field.pointee.dependents.isEmpty else { return own }
            field.pointee.value.replace(with: value)
            field.pointee.store(own)
            field.pointee.rejudge(focused: focused)
            return nil
        }
        guard let own = deferred else { return }
        let newValue = FieldValue(value)
        let valueAt: (Int) -> FieldValue? = { position in position == index ? newValue : self.currentValue(position) }
        var updates: [(Int, Evaluation)] = []
        for dependent in fields[index].dependents where dependent != index {
            updates.append((dependent, try evaluation(at: dependent, valueAt: valueAt)))
        }
        fields[index].value = newValue
        fields[index].store(own)
        fields[index].rejudge(focused: index == focusedPosition)
        for (dependent, evaluation) in updates {
            fields[dependent].store(evaluation)
            if fields[dependent].isJudged {
                fields[dependent].rejudge(focused: dependent == focusedPosition)
            }
        }
    }

    // MARK: Whole-form events

    /// Marks every field touched and runs every rule.
    public mutating func touchAll() throws(FormError) {
        let evaluations = try fields.indices.map { (index) throws(FormError) in try evaluation(at: index) }
        for (index, evaluation) in evaluations.enumerated() {
            judge(index, evaluation, touch: true, focused: index == focusedPosition)
        }
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
        var values = fields.map(\.value)
        for (id, value) in newValues { values[try position(of: id)] = FieldValue(value) }
        let evaluations = try evaluations(of: values)
        for index in fields.indices {
            fields[index].value = values[index]
            fields[index].store(evaluations[index])
            fields[index].touched = true
            fields[index].rejudge(focused: false)
        }
        focusedPosition = nil
        return isValid
    }

    /// Values back to their initial values; every field idle, untouched, unfocused.
    public mutating func reset() throws(FormError) {
        let evaluations = try evaluations(of: fields.map { FieldValue($0.initialValue) })
        for index in fields.indices {
            fields[index].value = FieldValue(fields[index].initialValue)
            fields[index].store(evaluations[index])
            fields[index].phase = .idle
            fields[index].touched = false
        }
        focusedPosition = nil
    }

    // MARK: Limits

    /// The PCRE2 limits every pattern rule of this form matches under (`MatchLimits.default` at first).
    public var matchLimits: MatchLimits { matchContext.limits }

    /// Changes the limits and re-runs every field's rules under them; phases and touched flags stay.
    /// Every limit must be at least 1.
    public mutating func setMatchLimits(_ limits: MatchLimits) throws(FormError) {
        guard limits.matchLimit > 0, limits.depthLimit > 0, limits.heapLimitKiB > 0, limits.timeLimitMicroseconds > 0 else {
            throw .invalidArgument("match limits must be at least 1 (got match \(limits.matchLimit), "
                + "depth \(limits.depthLimit), heap \(limits.heapLimitKiB) KiB, time \(limits.timeLimitMicroseconds) µs)")
        }
        let context = limits == .default ? MatchContext.default : MatchContext(limits)
        let evaluations = try evaluations(of: fields.map(\.value), matchContext: context)
        matchContext = context
        for (index, evaluation) in evaluations.enumerated() {
            fields[index].store(evaluation)
            if fields[index].isJudged { fields[index].rejudge(focused: index == focusedPosition) }
        }
    }

    // MARK: Queries

    /// Field ids in registration order.
    public var fieldIDs: [String] { fields.map(\.id) }

    /// The number of fields.
    public var fieldCount: Int { fields.count }

    /// The index (registration order, from 0) of the field with this id.
    public func fieldIndex(of id: String) throws(FormError) -> Int { try position(of: id) }

    /// `fieldIndex(of:)` through a pointer, without copying the form (see `readState(of:at:_:)`).
    public static func fieldIndex(of id: String, in form: UnsafePointer<Form>) throws(FormError) -> Int {
        guard let position = form.pointee.positions[id] else { throw .unknownField(id) }
        return position
    }

    /// Every field's current value.
    public var values: [String: String] {
        Dictionary(fields.map { ($0.id, $0.value.string) }, uniquingKeysWith: { first, _ in first })
    }

    public func value(of id: String) throws(FormError) -> String {
        fields[try position(of: id)].value.string
    }

    public func state(of id: String) throws(FormError) -> FieldState {
        try state(at: position(of: id))
    }

    /// The state of the field at `index` (registration order).
    public func state(at index: Int) throws(FormError) -> FieldState {
        try fields.withUnsafeBufferPointer { (buffer) throws(FormError) in FieldState(try Form.field(index, in: buffer)) }
    }

    /// Reads the state of the field at `index` in place: `body` gets the plain values and the UTF-8
    /// of its message (input validity), display message and value, valid only during the call.
    /// Nothing is copied on the way (the C ABI's snapshot path).
    ///
    /// Static over a pointer: calling an instance method on a form reached through `inout` or a
    /// pointer made the compiler copy the whole form (a retain of each member) first.
    /// Not generic (a generic public function runs unspecialized from another module): `body`
    /// stores what it needs.
    public static func readState(
        of form: UnsafeMutablePointer<Form>, at index: Int,
        _ body: (StateSummary, _ message: UnsafeBufferPointer<UInt8>, _ displayMessage: UnsafeBufferPointer<UInt8>,
                 _ value: UnsafeBufferPointer<UInt8>) -> Void
    ) throws(FormError) {
        // Borrowed for writing (nothing is written): a read-only borrow of the stored array made the
        // compiler copy it (a retain) first.
        try form.pointee.fields.withUnsafeMutableBufferPointer { (buffer) throws(FormError) in
            let field = UnsafeMutablePointer(mutating: try Form.field(index, in: UnsafeBufferPointer(buffer)))
            let touched = field.pointee.touched
            let phase = field.pointee.phase
            let empty = field.pointee.value.isEmpty
            let isRequired = field.pointee.requiredRule != nil
            let outcome: StateSummary.ValidityKind
            switch field.pointee.outcome {  // no payload bound: nothing copied
            case .empty: outcome = .empty
            case .valid: outcome = .valid
            case .invalid: outcome = .invalid
            }
            // Seeds 01–03's rules (Validation/TwoStageValidation.swift) say which message to show;
            // only that string is copied out of the field.
            let (validity, source) = Field.inputValidity(phase: phase, isEmpty: empty, outcome: outcome,
                                                         isRequired: isRequired)
            let (display, shownSource) = Field.display(touched: touched, isEmpty: empty, outcome: outcome,
                                                       isRequired: isRequired)
            func text(_ source: Field.MessageSource) -> String {
                switch source {
                case .none: return ""
                case .required: return field.pointee.requiredMessage ?? ""
                case .outcome:
                    if case .invalid(let text) = field.pointee.outcome { return text }
                    return ""
                }
            }
            var message = text(source)
            var shown = shownSource == source ? message : text(shownSource)
            let failing = Field.failingRule(source: source, requiredRule: field.pointee.requiredRule,
                                            failingRule: field.pointee.failingRule)
            let summary = StateSummary(phase: phase, validity: validity, display: display,
                                       touched: touched, limitExceeded: field.pointee.limitExceeded,
                                       failingRule: failing)
            message.withUTF8 { message in
                shown.withUTF8 { shown in
                    // The value's bytes, borrowed in place.
                    field.pointee.value.withBytes { value in body(summary, message, shown, value) }
                }
            }
        }
    }

    /// The field at `index` as a pointer into `buffer` (a borrow, no copy), or the out-of-range error.
    static func field(_ index: Int, in buffer: UnsafeBufferPointer<Field>) throws(FormError) -> UnsafePointer<Field> {
        guard let base = buffer.baseAddress, buffer.indices.contains(index) else {
            throw .invalidArgument("field index \(index) is out of range (\(buffer.count) fields)")
        }
        return base + index
    }

    /// Every field's state, in registration order.
    public var states: [FieldState] {
        fields.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [] }
            return buffer.indices.map { FieldState(base + $0) }
        }
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

    private func checkIndex(_ index: Int) throws(FormError) {
        guard fields.indices.contains(index) else {
            throw .invalidArgument("field index \(index) is out of range (\(fields.count) fields)")
        }
    }

    private func fieldAndPosition(_ id: String) -> (position: Int, field: Field)? {
        positions[id].map { ($0, fields[$0]) }
    }

    private func currentValue(_ position: Int) -> FieldValue? {
        fields.indices.contains(position) ? fields[position].value : nil
    }

    /// The verdict of the field at `index` on `value` (its current value by default).
    private func evaluation(at index: Int, value: FieldValue? = nil) throws(FormError) -> Evaluation {
        try evaluation(at: index, value: value, valueAt: currentValue)
    }

    private func evaluation(
        at index: Int, value: FieldValue? = nil, valueAt: (Int) -> FieldValue?, matchContext: MatchContext? = nil
    ) throws(FormError) -> Evaluation {
        var subject = value ?? fields[index].value
        return try fields[index].evaluation(of: &subject, valueAt: valueAt,
                                            matchContext: (matchContext ?? self.matchContext).pointer)
    }

    /// Every field's verdict when the fields hold `values` (one per field, in order).
    private func evaluations(of values: [FieldValue], matchContext: MatchContext? = nil) throws(FormError) -> [Evaluation] {
        let valueAt: (Int) -> FieldValue? = { values.indices.contains($0) ? values[$0] : nil }
        var result: [Evaluation] = []
        result.reserveCapacity(values.count)
        for index in fields.indices {
            let value = values.indices.contains(index) ? values[index] : fields[index].value
            result.append(try evaluation(at: index, value: value, valueAt: valueAt, matchContext: matchContext))
        }
        return result
    }

    /// Stores a computed verdict and re-derives the input state in the given stage.
    private mutating func judge(_ index: Int, _ evaluation: Evaluation, touch: Bool, focused: Bool) {
        fields[index].store(evaluation)
        if touch { fields[index].touched = true }
        fields[index].rejudge(focused: focused)
    }
}
