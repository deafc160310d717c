extension FormSpec {
    /// Parses spec JSON (see `FormSpec`).
    public init(json: String) throws(SpecError) {
        self = try SpecReader.read(json)
    }

    /// The spec as JSON: pretty-printed, keys sorted, stable across load → export → load.
    public var json: String { SpecWriter.write(self) }
}

extension Form {
    /// A form built from a spec; `validators` are the custom validators its `custom` rules name.
    public init(spec: FormSpec, validators: [String: CustomValidator] = [:]) throws(SpecError) {
        self.init()
        for (name, validator) in validators {
            namedValidators[name] = validator.named(name)
        }
        try load(spec)
    }

    /// Makes a custom validator available to specs loaded later under `name` (replacing one of the
    /// same name for future loads; rules already added keep theirs).
    public mutating func defineValidator(_ name: String, _ validator: CustomValidator) throws(FormError) {
        guard !name.isEmpty else { throw .invalidArgument("a validator name must not be empty") }
        namedValidators[name] = validator.named(name)
    }

    /// Adds the spec's fields (after any the form has), then their rules, so `matches` may name a
    /// field defined later in the spec. All or nothing: on error the form is unchanged.
    /// A spec is refused before anything is built when the form would pass `FormLimits.fieldsPerForm`
    /// fields, a field `FormLimits.rulesPerField` rules, or the spec `FormLimits.rulesPerSpec`
    /// rules with its rule sets expanded; the time a load takes grows with that expanded size.
    public mutating func load(_ spec: FormSpec) throws(SpecError) {
        try checkSize(of: spec)
        var loaded = self
        // A spec's form-level modes apply when it sets them (a spec loaded into a form adds fields).
        if let mode = spec.mode { loaded.setValidationMode(mode) }
        if let locale = spec.locale {
            do {
                try loaded.setLocale(locale)
            } catch {
                throw SpecError(path: "locale", problem: error.description)
            }
        }
        if let errors = spec.errors {
            do {
                try loaded.setErrorReporting(errors)
            } catch {
                throw SpecError(path: "errors", problem: error.description)
            }
        }
        for (index, field) in spec.fields.enumerated() {
            do {
                try loaded.addField(field.id, label: field.label, initialValue: field.initial ?? "",
                                    mode: field.mode, groups: field.groups, normalizers: field.normalize, secret: field.secret)
            } catch {
                throw SpecError(path: "fields[\(index)].id", problem: error.description)
            }
        }
        for set in spec.ruleSets {
            do {
                try loaded.defineRuleSet(set)
            } catch {
                throw SpecError(path: "rule_sets.\(set.name)", problem: error.description)
            }
        }
        for (index, field) in spec.fields.enumerated() {
            for (ruleIndex, rule) in field.rules.enumerated() {
                let path = "fields[\(index)].rules[\(ruleIndex)]"
                if let name = rule.ruleSetName {
                    // A set's rules are reported where the set defines them.
                    let members = loaded.ruleSet(named: name)?.rules ?? []
                    for (memberIndex, member) in members.enumerated() {
                        do {
                            let resolved = try loaded.resolve(member)
                            for rule in resolved.rules {
                                try loaded.addRule(Rule(rule.kind, message: rule.message, hint: rule.hint, ruleSet: name), to: field.id)
                            }
                        } catch {
                            var located = SpecError(formError: error, at: "rule_sets.\(name)[\(memberIndex)]", kind: member.kind)
                            located = SpecError(path: located.path, problem: "field '\(field.id)': \(located.problem)",
                                                patternOffset: located.patternOffset)
                            throw located
                        }
                    }
                    continue
                }
                do {
                    try loaded.addRule(rule, to: field.id)
                } catch {
                    throw SpecError(formError: error, at: path, kind: rule.kind)
                }
            }
        }
        self = loaded
    }

    /// Refuses a spec that would pass the form's limits (`FormLimits`), counting each rule-set
    /// reference as the rules of its set (the spec's own definition, else the form's).
    func checkSize(of spec: FormSpec) throws(SpecError) {
        guard spec.fields.count <= FormLimits.fieldsPerForm - fields.count else {
            throw SpecError(path: "fields", problem: "the spec has \(spec.fields.count) fields; with the form's \(fields.count) that is more than the \(FormLimits.fieldsPerForm) a form may have (FW_LIMIT_FIELDS_PER_FORM)")
        }
        var setSizes: [String: Int] = [:]
        for set in ruleSets { setSizes[set.name] = set.rules.count }
        for set in spec.ruleSets { setSizes[set.name] = set.rules.count }
        var total = 0
        for (index, field) in spec.fields.enumerated() {
            var count = 0
            for rule in field.rules {
                // Sets hold at most the rules a field may have: the sum stays far from overflow.
                count += rule.ruleSetName.map { Swift.min(setSizes[$0] ?? 0, FormLimits.rulesPerField + 1) } ?? 1
                guard count <= FormLimits.rulesPerField else {
                    throw SpecError(path: "fields[\(index)].rules", problem: "field '\(field.id)' expands to more than the \(FormLimits.rulesPerField) rules a field may have (FW_LIMIT_RULES_PER_FIELD)")
                }
            }
            total += count
            guard total <= FormLimits.rulesPerSpec else {
                throw SpecError(path: "fields", problem: "the spec expands to more than the \(FormLimits.rulesPerSpec) rules a spec may have, rule sets counted as their rules (FW_LIMIT_RULES_PER_SPEC; reached at fields[\(index)])")
            }
        }
    }

    /// This form's definition as a spec: fields, labels, initial values and rules (not the current
    /// values or states). Fails when a rule is an anonymous custom validator, which has no name to write.
    public func spec() throws(FormError) -> FormSpec {
        var specs: [FieldSpec] = []
        for field in fields {
            var rules = try ruleSpecs(of: field)
            for rule in field.asyncRules {
                rules.append(RuleSpec(.async(rule.name, debounceMilliseconds: rule.debounceMilliseconds),
                                      message: rule.message, hint: rule.hint))
            }
            // A secret field's initial value stays out of every export.
            specs.append(FieldSpec(id: field.id, label: field.label,
                                   initial: field.initialValue.isEmpty || field.secret ? nil : field.initialValue, rules: rules,
                                   mode: field.modeOverride, groups: field.groups, normalize: field.normalizers,
                                   secret: field.secret))
        }
        // Only the sets some field uses (a spec lists what it needs).
        let used = Set(specs.flatMap { $0.rules.compactMap(\.ruleSetName) })
        return FormSpec(fields: specs, mode: mode == .twoStage ? nil : mode, errors: errorMode == .first ? nil : errorMode,
                        ruleSets: ruleSets.filter { used.contains($0.name) },
                        locale: catalog === MessageCatalogs.english ? nil : catalog.locale)
    }
}

extension SpecError {
    /// Points at the parameter of the rule the engine refused (the field it names, its pattern,
    /// else its first parameter), or at the rule when it has none.
    init(formError: FormError, at rulePath: String, kind: RuleCall) {
        let parameters = kind.descriptor?.parameters.map(\.name) ?? []
        var parameter = parameters.first
        switch formError {
        case .unknownField: parameter = parameters.contains("field") ? "field" : parameter
        case .invalidPattern: parameter = "pattern"
        case .invalidArgument where parameters.contains("field"):
            // A kind naming another field refuses only that (the field itself) once the reader
            // has checked the parameters' types.
            parameter = "field"
        default: break
        }
        let path = parameter.map { "\(rulePath).\($0)" } ?? rulePath
        switch formError {
        case .invalidPattern(let pattern):
            self.init(path: path, problem: pattern.description, patternOffset: pattern.offset)
        case .unknownField(let id):
            self.init(path: path, problem: "no field with id '\(id)'")
        default:
            self.init(path: path, problem: formError.description)
        }
    }
}
