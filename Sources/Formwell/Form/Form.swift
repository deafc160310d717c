/// A form: fields in registration order, each with a value, ordered rules and a state (seeds 01–03).
///
/// Every mutating operation either succeeds completely or throws and leaves the form as it was:
/// new verdicts are computed first (running validators, which may throw) and stored last.
/// Validators run on events — add, focus, blur, set value, touch, touchAll, validate, reset, and
/// a change of a field that a `matches` rule compares with; queries only read stored verdicts.
///
/// A field's index (registration order, `fieldIndex(of:)`) names it until a field before it is
/// removed (`removeField`): the index-based calls skip the id lookup on hot paths.
///
/// Every event records which fields' observable state it changed (`revision`, `changedFieldIDs`).
public struct Form: Sendable {
    // Internal rather than private: the extensions in other files (Form+Spec, Form+Groups, ...) use them.
    var fields: [Field] = []
    /// Where each id is in `fields`. Every property that holds a field index is brought up to date
    /// in one place when a field is removed (`forgetPosition`).
    var positions: [String: Int] = [:]
    var focusedPosition: Int?
    private(set) var matchContext = MatchContext.default
    /// The form's validation mode (fields may have their own) and error mode.
    var mode: ValidationMode = .twoStage
    var errorMode: ErrorMode = .first
    /// Whole-form submits (`validate()`, `submit(_:)`) since creation or the last reset, and whether
    /// the last one found an invalid field.
    var submits = 0
    var lastSubmitFailed = false
    /// Goes up by one with every event that changes anything observable.
    var changeCount: UInt64 = 0
    /// The host's clock as last told (milliseconds; never goes back): asynchronous rules' debounce.
    var clock: UInt64 = 0
    /// The last asynchronous request id issued (ids start at 1).
    var lastRequestID: UInt64 = 0
    /// Requests handed out and then superseded or cancelled: their results are dropped as stale.
    /// Bounded (`Form.staleMemory`): a result older than that is refused as closed.
    var staleRequests: [UInt64] = []
    var staleResultCount = 0
    /// Custom validators a spec may name (`defineValidator`).
    var namedValidators: [String: CustomValidator] = [:]
    /// Named rule lists (`defineRuleSet`), in definition order, and where each name is in it.
    var ruleSets: [RuleSet] = []
    var ruleSetPositions: [String: Int] = [:]
    /// The language the form's messages and hints are worded in (`setLocale`; English by default).
    var catalog: MessageCatalog = MessageCatalogs.english

    public init() {}

    // MARK: Registration

    /// Adds a field with its rules, all or nothing. Ids are non-empty and unique; `matches` rules
    /// may name fields added earlier. A form holds at most `FormLimits.fieldsPerForm` fields, a
    /// field at most `FormLimits.rulesPerField` rules.
    /// `mode`: the field's own validation mode (nil: the form's); `groups`: named groups (wizard
    /// steps) it belongs to, each non-empty.
    public mutating func addField(
        _ id: String, label: String? = nil, initialValue: String = "", rules: [Rule] = [],
        mode: ValidationMode? = nil, groups: [String] = [], normalizers: [Normalizer] = [], secret: Bool = false
    ) throws(FormError) {
        guard !id.isEmpty else { throw .invalidArgument("a field id must not be empty") }
        guard fields.count < FormLimits.fieldsPerForm else {
            throw .invalidArgument("the form already has \(fields.count) fields, the most a form may have (FW_LIMIT_FIELDS_PER_FORM)")
        }
        guard rules.count <= FormLimits.rulesPerField else {
            throw .invalidArgument("field '\(id)' would have \(rules.count) rules, more than the \(FormLimits.rulesPerField) a field may have (FW_LIMIT_RULES_PER_FIELD)")
        }
        try Normalizer.check(normalizers)
        // C names fields with NUL-terminated strings: an id holding U+0000 could never be named.
        guard !id.utf8.contains(0) else { throw .invalidArgument("a field id must not contain U+0000 (NUL)") }
        guard positions[id] == nil else { throw .duplicateField(id) }
        for group in groups { try Form.checkGroupName(group) }
        var field = Field(id: id, label: label, initialValue: initialValue, normalizers: normalizers)
        field.catalog = catalog
        field.secret = secret
        field.modeOverride = mode
        for group in groups where !field.groups.contains(group) { field.groups.append(group) }
        for rule in rules {
            field.append(try CompiledRule(rule, for: field, in: fieldAndPosition, catalog: catalog))
        }
        let position = fields.count
        var value = field.value
        field.store(try field.evaluation(of: &value, valueAt: currentValue, matchContext: matchContext.pointer,
                                         all: errorMode == .all))
        changeCount &+= 1
        field.changedAt = changeCount
        // Nothing below throws: index the new field's `matches` rules, then add it.
        for target in Form.matchedPositions(field.rules) { fields[target].addDependent(position) }
        positions[id] = position
        fields.append(field)
        // Keep one spare element at the end of the storage: every keystroke writes into it, and the
        // spare keeps whatever the allocator puts next (another form's, in another thread) off the
        // cache lines being written. The storage grows by half at a time (so each add costs
        // amortised constant time, not a copy of every field).
        if fields.capacity == fields.count { fields.reserveCapacity(fields.count + fields.count / 2 + 2) }
    }

    /// Appends a rule to an existing field (after its other rules), all or nothing; refused when the
    /// field has `FormLimits.rulesPerField` rules already.
    /// Only the new rule runs (when it can change the verdict: `verdictChange`), so adding rules
    /// one by one costs constant time each, however many the field has.
    public mutating func addRule(_ rule: Rule, to id: String) throws(FormError) {
        let position = try self.position(of: id)
        try checkRoomForRules(1, at: position)
        // (The field is read in place, never copied out: a copy would share its rules' storage and
        // the append below would copy every rule.)
        let compiled = try CompiledRule(rule, for: fields[position], in: fieldAndPosition, catalog: catalog)
        let change = try verdictChange(at: position, adding: compiled)
        let wasEligible = asyncEligible(position)
        let before = tracking([position])
        // Nothing below throws.
        fields[position].append(compiled)
        switch change {
        case .unchanged: break
        case .requirement(let index): fields[position].conditionalRequirement = index
        case .failure(let evaluation): fields[position].store(evaluation)
        case .later(let message, let code):
            fields[position].moreFailures.append(message)
            fields[position].moreCodes.append(code)
        case .replaced(let evaluation): fields[position].store(evaluation)
        }
        if fields[position].isJudged && fields[position].followsChanges(in: mode) {
            fields[position].rejudge(focused: position == focusedPosition)
        }
        reconcileAsync(position, valueChanged: false, wasEligible: wasEligible)
        record(before)
        for target in Form.matchedPositions([compiled]) { fields[target].addDependent(position) }
    }

    /// Refuses `count` more rules on the field at `position` past `FormLimits.rulesPerField`.
    func checkRoomForRules(_ count: Int, at position: Int) throws(FormError) {
        let has = fields[position].rules.count
        guard count <= FormLimits.rulesPerField - has else {
            throw .invalidArgument("field '\(fields[position].id)' has \(has) rules; \(count) more would pass the \(FormLimits.rulesPerField) a field may have (FW_LIMIT_RULES_PER_FIELD)")
        }
    }

    /// How the verdict stored for a field's rules changes when `rule` is appended to them.
    private enum VerdictChange {
        case unchanged
        /// An empty value: the new rule (at this index) makes the field required for now.
        case requirement(Int)
        /// The value passed every rule and fails the new one.
        case failure(Evaluation)
        /// Error mode `all`: the value failed an earlier rule and fails the new one too.
        case later(message: String, code: String)
        /// Every rule run again (a stored verdict that is not one of the above).
        case replaced(Evaluation)
    }

    /// What running the field's rules with `rule` appended finds, worked out from the verdict
    /// stored for the others (rules run in order; the first failure is the verdict, error mode
    /// `all` collects the later ones; an empty value is judged by `required` and the conditions
    /// only): the new rule runs alone, and only when it can change the verdict.
    private func verdictChange(at position: Int, adding rule: CompiledRule) throws(FormError) -> VerdictChange {
        let index = fields[position].rules.count
        let context = matchContext.pointer
        let peer: (Int) -> PeerValue? = { self.currentValue($0).map(PeerValue.stored) }
        if fields[position].value.isEmpty {
            // An earlier `required` or holding condition decides already.
            if fields[position].requiredRule != nil { return .unchanged }
            let single = [rule].withUnsafeBufferPointer { Field.emptyEvaluation(rules: $0, valueAt: peer) }
            return single.requirement == nil ? .unchanged : .requirement(index)
        }
        let failing = fields[position].failingRule != nil
        if failing && errorMode == .first { return .unchanged }
        guard failing || fields[position].outcome == .valid else {
            var rules = fields[position].rules
            rules.append(rule)
            var value = fields[position].value
            let all = errorMode == .all
            let id = fields[position].id
            let evaluation = try value.withBytes { (bytes) throws(FormError) in
                try rules.withUnsafeBufferPointer { (rules) throws(FormError) in
                    try Field.evaluation(of: Subject(utf8: bytes), rules: rules, id: { id }, valueAt: peer,
                                         matchContext: context, all: all)
                }
            }
            return .replaced(evaluation)
        }
        var value = fields[position].value
        let id = fields[position].id
        let found = try value.withBytes { (bytes) throws(FormError) in
            try [rule].withUnsafeBufferPointer { (rules) throws(FormError) in
                try Field.ruleFailure(of: Subject(utf8: bytes), rule: 0, in: rules, id: { id }, valueAt: peer,
                                      matchContext: context)
            }
        }
        guard let (failure, limited) = found else { return .unchanged }
        guard failing else { return .failure(Evaluation(failure, limitExceeded: limited, rule: index)) }
        switch failure {
        case .own: return .later(message: rule.failureMessage(limitExceeded: limited),
                                 code: limited ? FailureCode.patternLimit : rule.code)
        case .worded(let text): return .later(message: text, code: rule.code)
        }
    }

    private static func matchedPositions(_ rules: [CompiledRule]) -> [Int] {
        rules.compactMap(\.peerPosition)
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
        let before = tracking(previous.map { [$0.0, index] } ?? [index])
        if let (other, evaluation) = previous {
            judge(other, evaluation, touch: true, focused: false)
            fields[other].refreshFrozen(in: mode)
        }
        judge(index, own, touch: false, focused: true)
        fields[index].visited = true
        focusedPosition = index
        record(before)
    }

    /// `blur(_:)` for the field at `index`.
    public mutating func blur(at index: Int) throws(FormError) {
        try checkIndex(index)
        let evaluation = try evaluation(at: index)
        let before = tracking([index])
        judge(index, evaluation, touch: true, focused: false)
        fields[index].refreshFrozen(in: mode)
        if focusedPosition == index { focusedPosition = nil }
        record(before)
    }

    /// `touch(_:)` for the field at `index`.
    public mutating func touch(at index: Int) throws(FormError) {
        try checkIndex(index)
        let evaluation = try evaluation(at: index)
        let before = tracking([index])
        judge(index, evaluation, touch: true, focused: index == focusedPosition)
        fields[index].refreshFrozen(in: mode)
        record(before)
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
        let formMode = mode
        let all = errorMode == .all
        // The revision a change in place is stamped with (a second borrow of the fields to stamp
        // after the pass would cost a uniqueness check and a bounds check).
        let revision = changeCount &+ 1
        // Fields and rules are reached through pointers into storage borrowed for writing (a
        // non-mutating borrow of a stored array makes the compiler copy it, a retain); a field with
        // no dependents is updated in place in the same pass.
        let deferred = try fields.withUnsafeMutableBufferPointer { (buffer) throws(FormError) -> KeystrokeOutcome in
            guard let base = buffer.baseAddress, buffer.indices.contains(index) else {
                throw Form.outOfRange(index, count: buffer.count)
            }
            let field = base + index
            // A field with normalisers judges its normalised value: the general path below.
            guard field.pointee.normalizers.isEmpty else { return .general(nil) }
            // (Closures passed inline: a closure stored in a local is escaping, a heap allocation.)
            let own = try field.pointee.withRules { (rules) throws(FormError) in
                try Field.evaluation(
                    of: Subject(utf8: value.bytes), rules: rules, id: { field.pointee.id },
                    valueAt: { buffer.indices.contains($0) ? .stored(buffer[$0].value) : nil }, matchContext: context,
                    all: all)
            }
            // A field others depend on, or with asynchronous rules, takes the general path below.
            guard field.pointee.dependents.isEmpty && field.pointee.asyncRules.isEmpty else { return .general(own) }
            // A new value is a change by itself; only the same value again needs the comparison.
            // (Through mutating methods: a non-mutating call on `pointee` copies the whole field.
            // Two branches: an optional `Tracked` made for both would cost a copy per keystroke.)
            if !field.pointee.value.equals(value.bytes) {
                field.pointee.value.replace(with: value)
                field.pointee.store(own)
                field.pointee.valueChanged(to: value.bytes)
                if field.pointee.followsChangesInPlace(in: formMode) { field.pointee.rejudge(focused: focused) }
                field.pointee.changedAt = revision
                return .done(changed: true)
            }
            let before = field.pointee.trackedInPlace(in: formMode)
            field.pointee.value.replace(with: value)
            field.pointee.store(own)
            if field.pointee.followsChangesInPlace(in: formMode) { field.pointee.rejudge(focused: focused) }
            let changed = field.pointee.trackedInPlace(in: formMode) != before
            if changed { field.pointee.changedAt = revision }
            return .done(changed: changed)
        }
        let own: Evaluation
        let (newValue, newRaw): (FieldValue, FieldValue?)
        switch deferred {
        case .done(let changed):
            if changed { changeCount = revision }
            return
        case .general(let evaluation?):
            (own, newValue, newRaw) = (evaluation, FieldValue(value), nil)
        case .general(nil):
            (newValue, newRaw) = Field.values(of: FieldValue(value), normalizers: fields[index].normalizers)
            own = try evaluation(at: index, value: newValue)
        }
        let valueAt: (Int) -> FieldValue? = { position in position == index ? newValue : self.currentValue(position) }
        var updates: [(Int, Evaluation)] = []
        for dependent in fields[index].dependents where dependent != index {
            updates.append((dependent, try evaluation(at: dependent, valueAt: valueAt)))
        }
        let before = tracking([index] + updates.map(\.0))
        // A change is a change of what was set (the raw value): typing a space a trimming field
        // drops still changes what the view shows.
        let changed = !FieldValue.same(fields[index].shownValue, newRaw ?? newValue)
        // Asynchronous rules judge the normalised value: an edit the normalisers undo (a space a
        // trimming field drops) keeps their requests and answers.
        let judgedChanged = !FieldValue.same(fields[index].value, newValue)
        let wasEligible = asyncEligible(index)
        fields[index].value = newValue
        fields[index].raw = newRaw
        fields[index].store(own)
        if changed { fields[index].valueChanged(to: value.bytes) }
        reconcileAsync(index, valueChanged: judgedChanged, wasEligible: wasEligible)
        if fields[index].followsChanges(in: formMode) { fields[index].rejudge(focused: index == focusedPosition) }
        for (dependent, evaluation) in updates {
            let dependentWasEligible = asyncEligible(dependent)
            fields[dependent].store(evaluation)
            reconcileAsync(dependent, valueChanged: false, wasEligible: dependentWasEligible)
            if fields[dependent].isJudged && fields[dependent].followsChanges(in: formMode) {
                fields[dependent].rejudge(focused: dependent == focusedPosition)
            }
        }
        record(before)
    }

    /// What the keystroke path did in place: everything (and whether the field's state changed),
    /// or nothing yet, leaving the general path the field's verdict when it could work it out.
    private enum KeystrokeOutcome {
        case done(changed: Bool)
        case general(Evaluation?)
    }

    // MARK: Whole-form events

    /// Marks every field touched and runs every rule; with a group, only that group's fields.
    public mutating func touchAll(group: String? = nil) throws(FormError) {
        _ = try touchAll(members: try positions(in: group), submit: false)
    }

    /// Seed 03's submit: touches every field, applies the strict stage, answers `isValid`.
    /// A focused field keeps its focus (and lenient input state); its display shows the strict verdict.
    /// With a group (a wizard step) only its fields are touched and judged, and the answer is
    /// `isValid(in:)`; a group's validate is not a submit (`submitCount` stays).
    @discardableResult
    public mutating func validate(group: String? = nil) throws(FormError) -> Bool {
        let members = try positions(in: group)
        // A submit does not wait out a debounce.
        for position in members { flushAsync(position) }
        let before = try touchAll(members: members, submit: true)
        if group == nil {
            submits += 1
            lastSubmitFailed = fields.contains(where: \.failsStrictly)
        }
        record(before, formChanged: group == nil)
        return members.allSatisfy { fields[$0].passesStrictly }
    }

    /// Touches and judges the fields at `members`; a submit also marks them submitted. Answers the
    /// tracking taken before (recorded here unless `submit`, whose caller records it).
    private mutating func touchAll(members: [Int], submit: Bool) throws(FormError) -> Tracking {
        let evaluations = try members.map { (index) throws(FormError) in try evaluation(at: index) }
        let before = tracking(members)
        for (index, evaluation) in zip(members, evaluations) {
            judge(index, evaluation, touch: true, focused: index == focusedPosition)
            if submit {
                fields[index].submitted = true
                fields[index].modifiedSinceSubmit = false
            }
            fields[index].refreshFrozen(in: mode)
        }
        if !submit { record(before) }
        return before
    }

    /// A whole submit in one step (what a batch check needs): the given fields take the given values,
    /// the others keep theirs; focus is cleared; every field is touched and judged once in the strict
    /// stage. Answers `isValid`. An unknown id throws before anything changes.
    @discardableResult
    public mutating func submit(_ newValues: [String: String]) throws(FormError) -> Bool {
        var values = fields.map(\.value)
        var raws = fields.map(\.raw)
        var given = Array(repeating: false, count: fields.count)
        for (id, value) in newValues {
            let position = try position(of: id)
            (values[position], raws[position]) = Field.values(of: FieldValue(value), normalizers: fields[position].normalizers)
            given[position] = true
        }
        let evaluations = try evaluations(of: values)
        let before = tracking(Array(fields.indices))
        for index in fields.indices {
            var set = raws[index] ?? values[index]
            let changed = given[index] && !FieldValue.same(fields[index].shownValue, set)
            let judgedChanged = given[index] && !FieldValue.same(fields[index].value, values[index])
            if changed { set.withBytes { fields[index].valueChanged(to: $0) } }
            let wasEligible = asyncEligible(index)
            fields[index].value = values[index]
            fields[index].raw = raws[index]
            fields[index].store(evaluations[index])
            reconcileAsync(index, valueChanged: judgedChanged, wasEligible: wasEligible)
            flushAsync(index)
            fields[index].touched = true
            fields[index].submitted = true
            fields[index].modifiedSinceSubmit = false
            fields[index].rejudge(focused: false)
            fields[index].refreshFrozen(in: mode)
        }
        focusedPosition = nil
        submits += 1
        lastSubmitFailed = fields.contains(where: \.failsStrictly)
        record(before, formChanged: true)
        return isValid
    }

    /// Values back to their initial values; every field idle, untouched, unvisited, unfocused, with
    /// no external error; the submit count back to 0.
    public mutating func reset() throws(FormError) {
        try reset(values: [:])
    }

    /// `reset()` after making the given values the fields' initial values (seed 03's "save" of a
    /// profile edit). An unknown id throws before anything changes.
    public mutating func reset(values newInitials: [String: String]) throws(FormError) {
        var initials = fields.map(\.initialValue)
        for (id, value) in newInitials { initials[try position(of: id)] = value }
        let pairs = fields.indices.map { Field.values(of: FieldValue(initials[$0]), normalizers: fields[$0].normalizers) }
        let values = pairs.map(\.0)
        let evaluations = try evaluations(of: values)
        let before = tracking(Array(fields.indices))
        for index in fields.indices {
            fields[index].initialValue = initials[index]
            fields[index].value = values[index]
            fields[index].raw = pairs[index].1
            fields[index].store(evaluations[index])
            fields[index].phase = .idle
            fields[index].touched = false
            fields[index].visited = false
            fields[index].dirty = false
            fields[index].modifiedSinceSubmit = false
            fields[index].submitted = false
            fields[index].externalError = nil
            fields[index].frozen = nil
            cancelAsync(index)
        }
        focusedPosition = nil
        let formChanged = submits != 0 || lastSubmitFailed
        (submits, lastSubmitFailed) = (0, false)
        record(before, formChanged: formChanged)
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
        let context = MatchContext.shared(for: limits)
        let evaluations = try evaluations(of: fields.map(\.value), matchContext: context)
        matchContext = context
        rejudgeAll(evaluations)
    }

    /// Stores new verdicts of every field (same values) and re-judges the judged ones that follow changes.
    mutating func rejudgeAll(_ evaluations: [Evaluation], formChanged: Bool = false) {
        let before = tracking(Array(fields.indices))
        for (index, evaluation) in evaluations.enumerated() where fields.indices.contains(index) {
            let wasEligible = asyncEligible(index)
            fields[index].store(evaluation)
            reconcileAsync(index, valueChanged: false, wasEligible: wasEligible)
            if fields[index].isJudged && fields[index].followsChanges(in: mode) {
                fields[index].rejudge(focused: index == focusedPosition)
            }
        }
        record(before, formChanged: formChanged)
    }

    // MARK: Queries

    /// Field ids in registration order.
    public var fieldIDs: [String] { fields.map(\.id) }

    /// The number of fields.
    public var fieldCount: Int { fields.count }

    /// The id of the field at `index` (registration order), nil out of range.
    public func fieldID(at index: Int) -> String? { fields.indices.contains(index) ? fields[index].id : nil }

    /// The index (registration order, from 0) of the field with this id.
    public func fieldIndex(of id: String) throws(FormError) -> Int { try position(of: id) }


    /// Every field's current value for submission: normalised (what the rules judged).
    public var values: [String: String] {
        Dictionary(fields.map { ($0.id, $0.value.string) }, uniquingKeysWith: { first, _ in first })
    }

    /// The field's value as it was set (what a view shows; see `normalizedValue(of:)`).
    public func value(of id: String) throws(FormError) -> String {
        fields[try position(of: id)].shownValue.string
    }

    /// The field's value after its normalisers: what its rules judged and `values` holds.
    public func normalizedValue(of id: String) throws(FormError) -> String {
        fields[try position(of: id)].value.string
    }

    public func state(of id: String) throws(FormError) -> FieldState {
        try state(at: position(of: id))
    }

    /// The state of the field at `index` (registration order).
    public func state(at index: Int) throws(FormError) -> FieldState {
        let mode = self.mode
        return try fields.withUnsafeBufferPointer { (buffer) throws(FormError) in
            FieldState(try Form.field(index, in: buffer), formMode: mode)
        }
    }

    /// Reads the state of the field at `index` in place: `body` gets the plain values and the UTF-8
    /// of its texts (message, display message, value, name, initial value, hint), valid only during
    /// the call.
    ///
    /// The state reads are `mutating` (nothing is changed): on a form reached through `inout` or a
    /// pointer (the C layer's handle table), a non-mutating call copies the whole form (a retain of
    /// each member) first, where a mutating one borrows it in place.
    public mutating func readState(at index: Int, _ body: (StateSummary, StateTexts) -> Void) throws(FormError) {
        try withoutActuallyEscaping(body) { (body) throws(FormError) in
            var reader = ClosureStateReader(body: body)
            try readState(at: index, into: &reader)
        }
    }

    /// `readState(at:_:)` handing the state to `reader`: generic, so a library built with
    /// cross-module optimization specializes it for each reader (the C snapshot's writer), with no
    /// closure called through a pointer.
    public mutating func readState<Reader: StateReader>(at index: Int, into reader: inout Reader) throws(FormError) {
        let formMode = mode
        // Borrowed for writing (nothing is written): a read-only borrow of the stored array makes the
        // compiler copy it (a retain) first.
        try fields.withUnsafeMutableBufferPointer { (buffer) throws(FormError) in
            let field = UnsafeMutablePointer(mutating: try Form.field(index, in: UnsafeBufferPointer(buffer)))
            // Form/Field+Display.swift says what the field shows in its mode. A live view
            // (every mode once it follows changes) is read as plain values, its texts copied from
            // where the field keeps them; a kept copy (modes on_blur, on_touched) is read as it is.
            let (live, strict) = field.pointee.showsLiveInPlace(in: formMode)
            guard live else {
                let shown = field.pointee.shownInPlace(in: formMode)
                let summary = Form.keptSummary(of: field, formMode: formMode, shown)
                withUnsafePointer(to: shown) { kept in
                    Field.withUTF8(shown.message) { message in
                        Field.withUTF8(shown.displayMessage) { displayMessage in
                            Field.withUTF8(shown.hint) { hint in
                                Form.readTexts(of: field, summary, message, displayMessage, hint,
                                               StateFailures(field: field, kept: kept), &reader)
                            }
                        }
                    }
                }
                return
            }
            let view = field.pointee.liveViewInPlace(strict: strict)
            let (summary, moreCount) = Form.liveSummary(of: field, formMode: formMode, view)
            // The codes are read only when asked, in place, from the view's sources (plain values: a
            // struct of strings captured here would be copied, retained, at every closure level).
            let failures = StateFailures(field: field, source: view.source, shownSource: view.shownSource,
                                         carriesMore: moreCount > 0)
            // No message (a valid or empty value: most keystrokes): the message, the displayed
            // message and the hint are empty, with no look-up of where they are kept.
            let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
            if view.source == .none && view.shownSource == .none {
                Form.readTexts(of: field, summary, none, none, none, failures, &reader)
                return
            }
            // The failing rule's own message (an invalid value: typed into a field not yet touched,
            // or shown as its error): its message, hint, code and parameters in one borrow.
            if view.source == .outcome && (view.shownSource == .none || view.shownSource == .outcome) {
                let read: Bool? = Field.withOwnFailure(of: field) { message, hint, code, params in
                    let shown = view.shownSource == .none ? none : message
                    let shownHint = view.display == .error && view.shownSource != .none ? hint : none
                    Form.readTexts(of: field, summary, message, shown, shownHint,
                                   failures.with(sourceCode: code, params: params), &reader)
                    return true
                }
                if read != nil { return }
            }
            // Nothing shown yet (an invalid value typed into a field not yet touched): one look-up.
            if view.shownSource == .none {
                Field.withMessage(of: field, view.source) { message in
                    Form.readTexts(of: field, summary, message, none, none, failures, &reader)
                }
                return
            }
            // (The closures capture plain values only: a captured array is retained at every level.)
            Field.withMessage(of: field, view.source) { message in
                Field.withMessage(of: field, view.shownSource) { displayMessage in
                    Field.withHint(of: field, view.display == .error ? view.shownSource : .none) { hint in
                        Form.readTexts(of: field, summary, message, displayMessage, hint, failures, &reader)
                    }
                }
            }
        }
    }

    /// The plain part of `readState` alone, no text read (the C ABI's single-member queries).
    public mutating func readSummary(at index: Int) throws(FormError) -> StateSummary {
        let formMode = mode
        return try fields.withUnsafeMutableBufferPointer { (buffer) throws(FormError) -> StateSummary in
            let field = UnsafeMutablePointer(mutating: try Form.field(index, in: UnsafeBufferPointer(buffer)))
            let (live, strict) = field.pointee.showsLiveInPlace(in: formMode)
            guard live else { return Form.keptSummary(of: field, formMode: formMode, field.pointee.shownInPlace(in: formMode)) }
            return Form.liveSummary(of: field, formMode: formMode, field.pointee.liveViewInPlace(strict: strict)).summary
        }
    }

    /// The summary of a kept shown state (modes on_blur, on_touched).
    @inline(__always)
    private static func keptSummary(
        of field: UnsafeMutablePointer<Field>, formMode: ValidationMode, _ shown: ShownState
    ) -> StateSummary {
        Form.summary(of: field, formMode: formMode, validity: shown.validity, display: shown.display,
                     failingRule: shown.failingRule, errorCount: shown.validity == .invalid ? 1 + shown.moreErrors.count : 0)
    }

    /// The summary of the live view, and how many messages follow the first (error mode `all`).
    @inline(__always)
    private static func liveSummary(
        of field: UnsafeMutablePointer<Field>, formMode: ValidationMode, _ view: Field.LiveView
    ) -> (summary: StateSummary, moreCount: Int) {
        let moreCount = view.carriesMoreFailures ? field.pointee.moreFailures.count : 0
        let summary = Form.summary(of: field, formMode: formMode, validity: view.validity, display: view.display,
                                   failingRule: view.failingRule, errorCount: view.validity == .invalid ? 1 + moreCount : 0)
        return (summary, moreCount)
    }

    /// The plain part of a field's state once what it shows is known.
    private static func summary(
        of field: UnsafeMutablePointer<Field>, formMode: ValidationMode, validity: StateSummary.ValidityKind,
        display: StateSummary.DisplayKind, failingRule: Int?, errorCount: Int
    ) -> StateSummary {
        let phase = field.pointee.phase
        return StateSummary(
            phase: phase, validity: validity, display: display, touched: field.pointee.touched,
            limitExceeded: field.pointee.limitExceeded, failingRule: failingRule,
            visited: field.pointee.visited, dirty: field.pointee.dirty,
            modifiedSinceSubmit: field.pointee.modifiedSinceSubmit, externalError: field.pointee.externalError != nil,
            mode: field.pointee.modeOverride ?? formMode, tint: Tint(phase: phase, validity: validity),
            labelRaised: !(phase == .idle && field.pointee.shownIsEmpty), emphasized: phase == .focused,
            errorCount: errorCount, revision: field.pointee.changedAt, secret: field.pointee.secret)
    }

    /// Hands `reader` the summary and every text, the name, initial value and value borrowed in place.
    @inline(__always)
    private static func readTexts<Reader: StateReader>(
        of field: UnsafeMutablePointer<Field>, _ summary: StateSummary, _ message: UnsafeBufferPointer<UInt8>,
        _ displayMessage: UnsafeBufferPointer<UInt8>, _ hint: UnsafeBufferPointer<UInt8>,
        _ failures: StateFailures, _ reader: inout Reader
    ) {
        Field.withNameAndInitial(of: field) { name, initial in
            Field.withValueBytes(of: field) { normalized, value in
                reader.read(summary, StateTexts(message: message, displayMessage: displayMessage, value: value,
                                         normalized: normalized, name: name, initial: initial, hint: hint,
                                         failures: failures))
            }
        }
    }

    /// The field at `index` as a pointer into `buffer` (a borrow, no copy), or the out-of-range error.
    /// Inlined, the error built out of line: every state read passes here.
    @inline(__always)
    static func field(_ index: Int, in buffer: UnsafeBufferPointer<Field>) throws(FormError) -> UnsafePointer<Field> {
        guard let base = buffer.baseAddress, buffer.indices.contains(index) else {
            throw outOfRange(index, count: buffer.count)
        }
        return base + index
    }

    @inline(never)
    static func outOfRange(_ index: Int, count: Int) -> FormError {
        .invalidArgument("field index \(index) is out of range (\(count) fields)")
    }

    /// Every field's state, in registration order.
    public var states: [FieldState] {
        let mode = self.mode
        return fields.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [] }
            return buffer.indices.map { FieldState(base + $0, formMode: mode) }
        }
    }

    /// True when every field passes its strict rules on its current value, touched or not, and has
    /// no external error: what a submit button's enabled state needs (whatever the modes show).
    public var isValid: Bool { fields.allSatisfy(\.passesStrictly) }

    /// The first field in registration order that fails its strict rules (where focus goes on submit).
    public var firstInvalidFieldID: String? { fields.first(where: \.failsStrictly)?.id }

    /// The focused field's id, if any.
    public var focusedFieldID: String? { focusedPosition.map { fields[$0].id } }

    /// The focused field's index, if any.
    public var focusedFieldIndex: Int? { focusedPosition }

    // MARK: Helpers

    /// Brings every index the form keeps up to date after the field at `removed` left `fields`:
    /// the id index, the rules' and the dependency index's peer positions, and focus. Every stored
    /// property that holds a field index is adjusted here, beside the others.
    mutating func forgetPosition(_ removed: Int) {
        for position in fields.indices {
            fields[position].rules = fields[position].rules.map { $0.afterRemoving(position: removed) }
            fields[position].dependents = fields[position].dependents.compactMap { dependent in
                dependent == removed ? nil : (dependent > removed ? dependent - 1 : dependent)
            }
        }
        positions = Dictionary(fields.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        if let focused = focusedPosition {
            focusedPosition = focused == removed ? nil : (focused > removed ? focused - 1 : focused)
        }
    }

    func position(of id: String) throws(FormError) -> Int {
        guard let position = positions[id] else { throw .unknownField(id) }
        return position
    }

    private func checkIndex(_ index: Int) throws(FormError) {
        guard fields.indices.contains(index) else {
            throw Form.outOfRange(index, count: fields.count)
        }
    }

    private func fieldAndPosition(_ id: String) -> (position: Int, field: Field)? {
        positions[id].map { ($0, fields[$0]) }
    }

    func currentValue(_ position: Int) -> FieldValue? {
        fields.indices.contains(position) ? fields[position].value : nil
    }

    /// The verdict of the field at `index` on `value` (its current value by default).
    func evaluation(at index: Int, value: FieldValue? = nil) throws(FormError) -> Evaluation {
        try evaluation(at: index, value: value, valueAt: currentValue)
    }

    func evaluation(
        at index: Int, value: FieldValue? = nil, valueAt: (Int) -> FieldValue?, matchContext: MatchContext? = nil
    ) throws(FormError) -> Evaluation {
        var subject = value ?? fields[index].value
        return try fields[index].evaluation(of: &subject, valueAt: valueAt,
                                            matchContext: (matchContext ?? self.matchContext).pointer,
                                            all: errorMode == .all)
    }

    /// Every field's verdict when the fields hold `values` (one per field, in order).
    func evaluations(of values: [FieldValue], matchContext: MatchContext? = nil) throws(FormError) -> [Evaluation] {
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
    mutating func judge(_ index: Int, _ evaluation: Evaluation, touch: Bool, focused: Bool) {
        let wasEligible = asyncEligible(index)
        fields[index].store(evaluation)
        reconcileAsync(index, valueChanged: false, wasEligible: wasEligible)
        if touch { fields[index].touched = true }
        fields[index].rejudge(focused: focused)
    }
}
