/// Asynchronous rules as a protocol between the engine and its host (no threads, no timers here):
/// a value change that passes every synchronous rule schedules a request per asynchronous rule, due
/// after its debounce on the host's clock; the host takes due requests, checks them however it likes
/// and resolves them by id. A request is tied to the value it was made for: a new value replaces a
/// request not yet handed out (debounce) and makes one handed out stale, so a late result can never
/// overwrite a newer one, whatever order results arrive in.
///
/// Initial values are taken as checked: only a value set or typed after the field was added (or
/// reset) is sent to the host.
extension Form {
    /// How many stale request ids the form remembers (results for older ones are refused as closed).
    static let staleMemory = 1024

    // MARK: Registration

    /// Adds an asynchronous rule to a field (after its other asynchronous rules). Its failures are
    /// numbered after the field's synchronous rules (`FieldState.failingRule`).
    public mutating func addAsyncRule(_ rule: AsyncRule, to id: String) throws(FormError) {
        guard !rule.name.isEmpty else { throw .invalidArgument("an asynchronous rule needs a name") }
        guard !rule.name.utf8.contains(0) else { throw .invalidArgument("a rule name must not contain U+0000 (NUL)") }
        let position = try position(of: id)
        guard fields[position].asyncRules.count < FormLimits.rulesPerField else {
            throw .invalidArgument("field '\(id)' already has \(FormLimits.rulesPerField) asynchronous rules, the most a field may have (FW_LIMIT_RULES_PER_FIELD)")
        }
        fields[position].asyncRules.append(rule)
        fields[position].asyncStatus.append(.idle)
    }

    /// The field's asynchronous rules, in order of addition.
    public func asyncRules(of id: String) throws(FormError) -> [AsyncRule] { fields[try position(of: id)].asyncRules }

    // MARK: The host's clock

    /// The host's monotonic time in milliseconds, as last told (`tick`, `nextRequest(now:)`).
    public var now: UInt64 { clock }

    /// Tells the form the host's time (milliseconds, monotonic). A time before the last one told is
    /// ignored: the clock never goes back.
    public mutating func tick(_ now: UInt64) {
        if now > clock { clock = now }
    }

    /// When the next scheduled request falls due (to set a timer), nil when none is scheduled.
    public var nextDueTime: UInt64? {
        var earliest: UInt64?
        for field in fields {
            for case .scheduled(_, let due) in field.asyncStatus { earliest = min(earliest ?? due, due) }
        }
        return earliest
    }

    // MARK: Requests

    /// Ticks to `now` and hands out the request that fell due first (lowest id among equals), or nil.
    /// A request is handed out once.
    public mutating func nextRequest(now: UInt64) -> AsyncRequest? {
        tick(now)
        var best: (field: Int, rule: Int, id: UInt64, due: UInt64)?
        for (position, field) in fields.enumerated() {
            for (rule, status) in field.asyncStatus.enumerated() {
                guard case .scheduled(let id, let due) = status, due <= clock else { continue }
                if let current = best, (current.due, current.id) <= (due, id) { continue }
                best = (position, rule, id, due)
            }
        }
        guard let best else { return nil }
        fields[best.field].asyncStatus[best.rule] = .inFlight(id: best.id, due: best.due)
        return request(field: best.field, rule: best.rule, id: best.id, due: best.due)
    }

    /// The request `nextRequest(now:)` would hand out, without handing it out or ticking (a host
    /// sizing its buffer first), or nil when none would be due.
    public func peekRequest(now: UInt64) -> AsyncRequest? {
        let time = max(clock, now)
        var best: (field: Int, rule: Int, id: UInt64, due: UInt64)?
        for (position, field) in fields.enumerated() {
            for (rule, status) in field.asyncStatus.enumerated() {
                guard case .scheduled(let id, let due) = status, due <= time else { continue }
                if let current = best, (current.due, current.id) <= (due, id) { continue }
                best = (position, rule, id, due)
            }
        }
        guard let best else { return nil }
        return request(field: best.field, rule: best.rule, id: best.id, due: best.due)
    }

    /// Every request due at `now`, handed out at once, in the order `nextRequest` would give them.
    public mutating func dueRequests(now: UInt64) -> [AsyncRequest] {
        var requests: [AsyncRequest] = []
        while let request = nextRequest(now: now) { requests.append(request) }
        return requests
    }

    /// Requests scheduled or handed out and not yet resolved, in id order (handed-out ones included).
    public var openRequests: [AsyncRequest] {
        var requests: [AsyncRequest] = []
        for (position, field) in fields.enumerated() {
            for (rule, status) in field.asyncStatus.enumerated() {
                switch status {
                case .scheduled(let id, let due), .inFlight(let id, let due):
                    requests.append(request(field: position, rule: rule, id: id, due: due))
                default: continue
                }
            }
        }
        return requests.sorted { $0.id < $1.id }
    }

    private func request(field position: Int, rule: Int, id: UInt64, due: UInt64) -> AsyncRequest {
        let field = fields[position]
        return AsyncRequest(id: id, fieldID: field.id, fieldIndex: position, value: field.value.string,
                            rule: field.asyncRules[rule].name, due: due)
    }

    // MARK: Results

    /// Applies the host's verdict for request `id`. A request superseded or cancelled since it was
    /// handed out is dropped and answered `.stale`. An id never issued throws `unknownRequest`; one
    /// already resolved (or cancelled too long ago) throws `requestClosed`; one not yet handed out
    /// throws `invalidArgument`. The form is unchanged by any of those.
    @discardableResult
    public mutating func resolve(_ id: UInt64, _ verdict: AsyncVerdict) throws(FormError) -> ResolveOutcome {
        if let stale = staleRequests.firstIndex(of: id) {
            staleRequests.remove(at: stale)
            staleResultCount += 1
            return .stale
        }
        for position in fields.indices {
            for rule in fields[position].asyncStatus.indices {
                switch fields[position].asyncStatus[rule] {
                case .inFlight(let current, _) where current == id:
                    apply(verdict, field: position, rule: rule)
                    return .applied
                case .scheduled(let current, _) where current == id:
                    throw .invalidArgument("asynchronous request \(id) is scheduled and has not been handed out yet")
                default: continue
                }
            }
        }
        guard id > 0, id <= lastRequestID else { throw .unknownRequest(id) }
        throw .requestClosed(id)
    }

    private mutating func apply(_ verdict: AsyncVerdict, field position: Int, rule: Int) {
        let before = tracking([position])
        let own = fields[position].asyncRules[rule].message
        switch verdict {
        case .valid: fields[position].asyncStatus[rule] = .valid
        case .invalid(let message): fields[position].asyncStatus[rule] = .invalid(own ?? message ?? fields[position].catalog.asyncMessage)
        case .error(let message): fields[position].asyncStatus[rule] = .failed(message ?? fields[position].catalog.asyncErrorMessage)
        }
        if fields[position].isJudged && fields[position].followsChanges(in: mode) {
            fields[position].rejudge(focused: position == focusedPosition)
        }
        // A shown copy waiting for this result takes it (else it would read pending until the next blur).
        if fields[position].frozen?.validity == .pending { fields[position].refreshFrozen(in: mode) }
        record(before)
    }

    /// Results dropped as stale since the form was created.
    public var staleResults: Int { staleResultCount }

    /// The fields waiting for an asynchronous check, in registration order (whatever their modes show).
    public var pendingFieldIDs: [String] { pendingFieldIndices.map { fields[$0].id } }

    /// Indices of `pendingFieldIDs`.
    public var pendingFieldIndices: [Int] { fields.indices.filter { fields[$0].strictVerdict == .pending } }

    /// Seed 03's submit with asynchronous rules: `validate(group:)`, whose debounced requests are due
    /// at once (a submit does not wait out a debounce), answered as valid, invalid (some field fails
    /// now), or pending (none fails, some wait for a check).
    public mutating func submit(group: String? = nil) throws(FormError) -> SubmitOutcome {
        let members = try positions(in: group)
        _ = try validate(group: group)
        if members.contains(where: { fields[$0].failsStrictly }) { return .invalid }
        let pending = members.filter { fields[$0].strictVerdict == .pending }.map { fields[$0].id }
        return pending.isEmpty ? .valid : .pending(pending)
    }

    // MARK: Engine side

    /// Makes the field's scheduled requests due now.
    mutating func flushAsync(_ position: Int) {
        for rule in fields[position].asyncStatus.indices {
            if case .scheduled(let id, _) = fields[position].asyncStatus[rule] {
                fields[position].asyncStatus[rule] = .scheduled(id: id, due: clock)
            }
        }
    }

    /// Whether the field's asynchronous rules may run on its value: non-empty and every
    /// synchronous rule passing.
    func asyncEligible(_ position: Int) -> Bool {
        !fields[position].value.isEmpty && fields[position].outcome == .valid
    }

    /// After a new verdict was stored: a changed value (or a value no longer eligible) cancels the
    /// field's requests and results; an eligible value that changed, or became eligible, is scheduled.
    mutating func reconcileAsync(_ position: Int, valueChanged: Bool, wasEligible: Bool) {
        guard fields.indices.contains(position), !fields[position].asyncRules.isEmpty else { return }
        let eligible = asyncEligible(position)
        if valueChanged || !eligible { cancelAsync(position) }
        guard eligible, valueChanged || !wasEligible else { return }
        for rule in fields[position].asyncStatus.indices where fields[position].asyncStatus[rule] == .idle {
            lastRequestID &+= 1
            let (due, overflow) = clock.addingReportingOverflow(fields[position].asyncRules[rule].debounceMilliseconds)
            fields[position].asyncStatus[rule] = .scheduled(id: lastRequestID, due: overflow ? .max : due)
        }
    }

    /// Every request of the field goes: scheduled ones silently, handed-out ones become stale.
    mutating func cancelAsync(_ position: Int) {
        for rule in fields[position].asyncStatus.indices {
            if case .inFlight(let id, _) = fields[position].asyncStatus[rule] { rememberStale(id) }
            fields[position].asyncStatus[rule] = .idle
        }
    }

    private mutating func rememberStale(_ id: UInt64) {
        staleRequests.append(id)
        if staleRequests.count > Form.staleMemory { staleRequests.removeFirst(staleRequests.count - Form.staleMemory) }
    }
}
