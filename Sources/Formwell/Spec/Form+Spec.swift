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
    public mutating func load(_ spec: FormSpec) throws(SpecError) {
        var loaded = self
        // A spec's form-level modes apply when it sets them (a spec loaded into a form adds fields).
        if let mode = spec.mode { loaded.setValidationMode(mode) }
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
        for (index, field) in spec.fields.enumerated() {
            for (ruleIndex, rule) in field.rules.enumerated() {
                let path = "fields[\(index)].rules[\(ruleIndex)]"
                let kind: Rule.Kind
                var parameter: String?
                switch rule.kind {
                case .required: kind = .required
                case .email: kind = .email
                case .phone: kind = .phone
                case .minLength(let count): (kind, parameter) = (.minLength(count), "length")
                case .maxLength(let count): (kind, parameter) = (.maxLength(count), "length")
                case .regex(let pattern): (kind, parameter) = (.regex(pattern), "pattern")
                case .matches(let other): (kind, parameter) = (.matches(other), "field")
                case .custom(let name):
                    guard let validator = loaded.namedValidators[name] else {
                        throw SpecError(path: "\(path).name", problem: "no validator named '\(name)' is defined")
                    }
                    kind = .custom(validator)
                case .async(let name, let debounce):
                    do {
                        try loaded.addAsyncRule(AsyncRule(name, debounceMilliseconds: debounce, message: rule.message,
                                                          hint: rule.hint), to: field.id)
                    } catch {
                        throw SpecError(formError: error, at: path, parameter: "name")
                    }
                    continue
                }
                do {
                    try loaded.addRule(Rule(kind, message: rule.message, hint: rule.hint), to: field.id)
                } catch {
                    throw SpecError(formError: error, at: path, parameter: parameter)
                }
            }
        }
        self = loaded
    }

    /// This form's definition as a spec: fields, labels, initial values and rules (not the current
    /// values or states). Fails when a rule is an anonymous custom validator, which has no name to write.
    public func spec() throws(FormError) -> FormSpec {
        var specs: [FieldSpec] = []
        for field in fields {
            var rules: [RuleSpec] = []
            for rule in field.rules {
                let kind: RuleSpec.Kind
                switch rule.source.kind {
                case .required: kind = .required
                case .email: kind = .email
                case .phone: kind = .phone
                case .minLength(let count): kind = .minLength(count)
                case .maxLength(let count): kind = .maxLength(count)
                case .regex(let pattern): kind = .regex(pattern)
                case .matches(let other): kind = .matches(other)
                case .custom(let validator):
                    guard let name = validator.name else {
                        throw .invalidArgument("field '\(field.id)' has an anonymous custom validator, which a spec cannot name")
                    }
                    kind = .custom(name)
                }
                rules.append(RuleSpec(kind, message: rule.source.message, hint: rule.source.hint))
            }
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
        return FormSpec(fields: specs, mode: mode == .twoStage ? nil : mode, errors: errorMode == .first ? nil : errorMode)
    }
}

extension SpecError {
    /// Points at the parameter of the rule the engine refused (its only one), else at the rule.
    init(formError: FormError, at rulePath: String, parameter: String?) {
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
