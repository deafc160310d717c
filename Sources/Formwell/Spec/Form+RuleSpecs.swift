/// Rules given as data (`RuleSpec`: a spec's rule objects, the C ABI's rule JSON) turned into the
/// form's rules: custom validators found by name, rule sets expanded, asynchronous rules set apart.
extension Form {
    /// A rule spec resolved against this form: the synchronous rules it stands for (several for a
    /// rule set) and the asynchronous ones.
    public func resolve(_ spec: RuleSpec) throws(FormError) -> (rules: [Rule], asyncRules: [AsyncRule]) {
        if let name = spec.ruleSetName {
            guard let set = ruleSet(named: name) else {
                throw .invalidArgument("no rule set named '\(name)' is defined")
            }
            var rules: [Rule] = []
            for member in set.rules {
                let resolved = try resolve(member)
                rules += resolved.rules.map { Rule($0.kind, message: $0.message, hint: $0.hint, ruleSet: name) }
            }
            return (rules, [])
        }
        guard let descriptor = spec.kind.descriptor else {
            throw .invalidArgument("unknown rule '\(spec.kind.name)'")
        }
        if descriptor.isAsync {
            let arguments = try RuleArguments(spec.kind.arguments, for: descriptor)
            let debounce = arguments.integer("debounce_ms") ?? Int(AsyncRule.defaultDebounceMilliseconds)
            return ([], [AsyncRule(arguments.string("name") ?? "", debounceMilliseconds: UInt64(clamping: debounce),
                                   message: spec.message, hint: spec.hint)])
        }
        var kind = spec.kind
        if descriptor.name == "custom", kind.validator == nil, case .string(let name)? = kind.arguments["name"] {
            guard let validator = namedValidators[name] else {
                throw .invalidArgument("no validator named '\(name)' is defined")
            }
            kind = .custom(validator)
        }
        return ([Rule(kind, message: spec.message, hint: spec.hint)], [])
    }

    /// Appends a rule given as data (any kind, a rule set reference, `async`) to a field, all or nothing.
    public mutating func addRule(_ spec: RuleSpec, to id: String) throws(FormError) {
        let resolved = try resolve(spec)
        // One rule (most calls): added in place, all or nothing by itself (a copy of the form to
        // change would make the add copy the field's every rule).
        if resolved.asyncRules.isEmpty, resolved.rules.count == 1, let rule = resolved.rules.first {
            try addRule(rule, to: id)
            return
        }
        try checkRoomForRules(resolved.rules.count, at: position(of: id))
        var changed = self
        for rule in resolved.rules { try changed.addRule(rule, to: id) }
        for rule in resolved.asyncRules { try changed.addAsyncRule(rule, to: id) }
        self = changed
    }

    /// Names a list of rules that fields can then add as one (`{"rule": "set", "name": …}`).
    /// Redefining a name replaces its rules for later uses. Sets hold synchronous rules only and do
    /// not refer to other sets.
    public mutating func defineRuleSet(_ set: RuleSet) throws(FormError) {
        guard !set.name.isEmpty else { throw .invalidArgument("a rule set name must not be empty") }
        for (index, rule) in set.rules.enumerated() {
            if rule.ruleSetName != nil {
                throw .invalidArgument("rule set '\(set.name)': rule \(index) refers to a rule set (sets do not nest)")
            }
            guard let descriptor = rule.kind.descriptor else {
                throw .invalidArgument("rule set '\(set.name)': rule \(index): unknown rule '\(rule.kind.name)'")
            }
            if descriptor.isAsync {
                throw .invalidArgument("rule set '\(set.name)': rule \(index): an async rule cannot be part of a rule set")
            }
            do {
                _ = try RuleArguments(rule.kind.arguments, for: descriptor)
            } catch {
                throw .invalidArgument("rule set '\(set.name)': rule \(index): \(error.description)")
            }
        }
        if let index = ruleSetPositions[set.name], ruleSets.indices.contains(index) {
            ruleSets[index] = set
        } else {
            ruleSetPositions[set.name] = ruleSets.count
            ruleSets.append(set)
        }
    }

    /// The rule set defined under `name`, if any (one look-up, however many sets are defined).
    func ruleSet(named name: String) -> RuleSet? {
        guard let index = ruleSetPositions[name], ruleSets.indices.contains(index) else { return nil }
        return ruleSets[index]
    }

    /// The rule sets defined on this form.
    public var definedRuleSets: [RuleSet] { ruleSets }

    /// A field's rules as rule specs: a run of rules added from a rule set that still matches its
    /// definition is written back as the reference.
    func ruleSpecs(of field: Field) throws(FormError) -> [RuleSpec] {
        var specs: [RuleSpec] = []
        var index = 0
        while index < field.rules.count {
            let source = field.rules[index].source
            if let name = source.ruleSet, let set = ruleSet(named: name), !set.rules.isEmpty,
               index + set.rules.count <= field.rules.count,
               zip(set.rules, field.rules[index..<index + set.rules.count]).allSatisfy({ member, rule in
                   rule.source.ruleSet == name && member.kind.name == rule.source.kind.name
                       && member.message == rule.source.message && member.hint == rule.source.hint
               }) {
                specs.append(RuleSpec(.ruleSet(name)))
                index += set.rules.count
                continue
            }
            var kind = source.kind
            if kind.name == "custom" {
                guard let name = kind.validator?.name ?? { if case .string(let n)? = kind.arguments["name"] { return n } else { return nil } }() else {
                    throw .invalidArgument("field '\(field.id)' has an anonymous custom validator, which a spec cannot name")
                }
                kind = .custom(named: name)
            }
            specs.append(RuleSpec(kind, message: source.message, hint: source.hint))
            index += 1
        }
        return specs
    }
}
