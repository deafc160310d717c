#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One language's messages and hints, read from a catalogue file (Messages/Catalogues/*.json, the
/// format in docs/rules-and-messages.md): a template per failure code, the nouns of the
/// length units, the list separator, the form's announcement and the language's plural rule.
///
/// Immutable and shared: a form holds its catalogue by reference. A catalogue added at run time
/// may leave failures out; English's templates stand in for them.
public final class MessageCatalog: Sendable {
    /// The BCP 47 tag the catalogue is registered under ("en", "fr").
    public let locale: String
    /// The language's own name for itself ("Français").
    public let language: String
    let plurals: PluralRule
    let messages: [String: [String]]
    let hints: [String: [String]]
    let units: [String: String]
    let listSeparator: String
    let announcementTemplate: String
    /// Used for what this catalogue leaves out (nil for English itself).
    let fallback: MessageCatalog?
    /// `messages`, `hints`, `units` and the announcement read once (`MessageTemplate.Compiled`):
    /// every rule added fills its kind's templates.
    private let compiledMessages: [String: [MessageTemplate.Compiled]]
    private let compiledHints: [String: [MessageTemplate.Compiled]]
    private let compiledUnits: [String: MessageTemplate.Compiled]
    private let compiledAnnouncement: MessageTemplate.Compiled

    // Texts of failures that are not a rule's, rendered once.
    let requiredMessage: String
    let requiredHint: String
    let patternLimitMessage: String
    let patternLimitHint: String
    let asyncMessage: String
    let asyncHint: String
    let asyncErrorMessage: String
    let externalHint: String

    /// Reads a catalogue; the error names the JSON path and the problem.
    init(_ root: JSONValue, fallback: MessageCatalog?) throws(SpecError) {
        guard case .object(let members) = root else {
            throw SpecError(path: "", problem: "a message catalogue is a JSON object, found \(root.kindName)")
        }
        let allowed: Set<String> = ["locale", "language", "plurals", "units", "list_separator", "announcement", "failures", "$schema", "description"]
        if let unknown = members.first(where: { !allowed.contains($0.key) }) {
            throw SpecError(path: unknown.key, problem: "unknown key (expected one of: \(allowed.sorted().joined(separator: ", ")))")
        }
        guard case .string(let locale)? = root["locale"], let canonical = MessageCatalogs.canonicalTag(locale) else {
            throw SpecError(path: "locale", problem: "expected a language tag such as \"en\" or \"fr-CA\"")
        }
        self.locale = canonical
        language = try MessageCatalog.string(root["language"], "language") ?? fallback?.language ?? canonical
        var rule = fallback?.plurals ?? .oneIs1
        if let name = try MessageCatalog.string(root["plurals"], "plurals") {
            guard let named = PluralRule(rawValue: name) else {
                throw SpecError(path: "plurals", problem: "unknown plural rule '\(name)' (expected one of: \(PluralRule.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            rule = named
        }
        plurals = rule
        var units = fallback?.units ?? [:]
        if let value = root["units"] {
            guard case .object(let entries) = value else { throw SpecError(path: "units", problem: "expected an object") }
            for (unit, template) in entries {
                guard LengthUnit(rawValue: unit) != nil else {
                    throw SpecError(path: "units.\(unit)", problem: "unknown unit (expected one of: \(LengthUnit.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                guard let text = try MessageCatalog.string(template, "units.\(unit)") else { continue }
                if let name = MessageTemplate.placeholders(text).first(where: { $0 != "count" }) {
                    throw SpecError(path: "units.\(unit)", problem: "{\(name)} is not a value of a unit noun (it has: count)")
                }
                units[unit] = text
            }
        }
        self.units = units
        listSeparator = try MessageCatalog.string(root["list_separator"], "list_separator") ?? fallback?.listSeparator ?? ", "
        announcementTemplate = try MessageCatalog.string(root["announcement"], "announcement") ?? fallback?.announcementTemplate ?? ""
        if let name = MessageTemplate.placeholders(announcementTemplate).first(where: { $0 != "count" && $0 != "fields" }) {
            throw SpecError(path: "announcement", problem: "{\(name)} is not a value of the announcement (it has: count, fields)")
        }
        var messages = fallback?.messages ?? [:]
        var hints = fallback?.hints ?? [:]
        if let value = root["failures"] {
            guard case .object(let entries) = value else { throw SpecError(path: "failures", problem: "expected an object") }
            for (code, entry) in entries {
                let path = "failures.\(code)"
                guard FailureCode.all.contains(code) else {
                    throw SpecError(path: path, problem: "unknown failure code (expected one of: \(FailureCode.all.sorted().joined(separator: ", ")))")
                }
                guard case .object(let parts) = entry else { throw SpecError(path: path, problem: "expected an object with \"message\" and \"hint\"") }
                if let unknown = parts.first(where: { $0.key != "message" && $0.key != "hint" }) {
                    throw SpecError(path: "\(path).\(unknown.key)", problem: "unknown key (expected message or hint)")
                }
                if let list = try MessageCatalog.templates(entry["message"], "\(path).message") {
                    try MessageCatalog.checkPlaceholders(list, code: code, "\(path).message")
                    messages[code] = list
                }
                if let list = try MessageCatalog.templates(entry["hint"], "\(path).hint") {
                    try MessageCatalog.checkPlaceholders(list, code: code, "\(path).hint")
                    hints[code] = list
                }
            }
        }
        self.messages = messages
        self.hints = hints
        self.fallback = fallback
        compiledMessages = messages.mapValues { $0.map(MessageTemplate.Compiled.init) }
        compiledHints = hints.mapValues { $0.map(MessageTemplate.Compiled.init) }
        compiledUnits = units.mapValues(MessageTemplate.Compiled.init)
        compiledAnnouncement = MessageTemplate.Compiled(announcementTemplate)
        let render = { (table: [String: [String]], code: String) in
            MessageTemplate.render(table[code] ?? [], [:], plurals: rule) ?? ""
        }
        requiredMessage = render(messages, FailureCode.required)
        requiredHint = render(hints, FailureCode.required)
        patternLimitMessage = render(messages, FailureCode.patternLimit)
        patternLimitHint = render(hints, FailureCode.patternLimit)
        asyncMessage = render(messages, FailureCode.async)
        asyncHint = render(hints, FailureCode.async)
        asyncErrorMessage = render(messages, FailureCode.asyncError)
        externalHint = render(hints, FailureCode.external)
    }

    /// A catalogue without texts (never used with the shipped files; see `MessageCatalogs.load`).
    init(emptyLocale locale: String) {
        (self.locale, language, plurals, messages, hints, units) = (locale, locale, .oneIs1, [:], [:], [:])
        (listSeparator, announcementTemplate, fallback) = (", ", "", nil)
        (compiledMessages, compiledHints, compiledUnits) = ([:], [:], [:])
        compiledAnnouncement = MessageTemplate.Compiled("")
        (requiredMessage, requiredHint, patternLimitMessage, patternLimitHint) = ("", "", "", "")
        (asyncMessage, asyncHint, asyncErrorMessage, externalHint) = ("", "", "", "")
    }

    /// The message of a failure with this code, its templates filled with `values`.
    func message(_ code: String, _ values: [String: String]) -> String {
        MessageTemplate.render(compiledMessages[code] ?? [], values, plurals: plurals) ?? fallback?.message(code, values) ?? ""
    }

    /// The accessibility hint of a failure with this code.
    func hint(_ code: String, _ values: [String: String]) -> String {
        MessageTemplate.render(compiledHints[code] ?? [], values, plurals: plurals) ?? fallback?.hint(code, values) ?? ""
    }

    /// `message(code, values)`, the values worked out only when the template used needs them
    /// (most kinds' templates are plain text: "Invalid format").
    func message(_ code: String, valuesWhenNeeded values: () -> [String: String]) -> String {
        guard let first = compiledMessages[code]?.first else { return fallback?.message(code, valuesWhenNeeded: values) ?? "" }
        // The first template is the one used when it is complete, which plain text always is.
        if let text = first.plainText { return text }
        return message(code, values())
    }

    /// `hint(code, values)`, the values worked out only when the template used needs them.
    func hint(_ code: String, valuesWhenNeeded values: () -> [String: String]) -> String {
        guard let first = compiledHints[code]?.first else { return fallback?.hint(code, valuesWhenNeeded: values) ?? "" }
        if let text = first.plainText { return text }
        return hint(code, values())
    }

    /// A text of the caller's own (a rule's custom message or hint): a template too, its
    /// placeholders without values left as written. The values are worked out only when the text
    /// has a placeholder.
    func fillOwn(_ template: String, valuesWhenNeeded values: () -> [String: String]) -> String {
        guard MessageCatalog.containsBrace(template) else { return template }
        return MessageTemplate.fill(template, values(), plurals: plurals).0
    }

    /// Whether `text` holds a `{` (one `memchr` over its UTF-8).
    private static func containsBrace(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(base, Int32(UInt8(ascii: "{")), bytes.count) != nil
        }
    }

    /// The noun of a length unit agreeing with `count` ("character", "octets").
    func unitNoun(_ unit: LengthUnit, count: Int) -> String {
        guard let template = compiledUnits[unit.rawValue] else { return "" }
        return template.fill(["count": String(count)], plurals: plurals).0
    }

    /// A list of values as a message shows it ("S, M, L").
    func list(_ items: [String]) -> String { items.joined(separator: listSeparator) }

    /// Seed 03's screen-reader summary after a failed submit: "2 fields need attention: Email, Password".
    func announcement(naming names: [String]) -> String {
        guard !names.isEmpty else { return "" }
        return compiledAnnouncement.fill(["count": String(names.count), "fields": list(names)], plurals: plurals).0
    }

    /// The catalogue as JSON (what `fw_message_catalog` returns): every failure's templates.
    public var json: String {
        func templates(_ list: [String]) -> JSONValue { list.count == 1 ? .string(list[0]) : .array(list.map(JSONValue.string)) }
        var failures: [(key: String, value: JSONValue)] = []
        for code in FailureCode.all.sorted() {
            var parts: [(key: String, value: JSONValue)] = []
            if let list = messages[code] { parts.append(("message", templates(list))) }
            if let list = hints[code] { parts.append(("hint", templates(list))) }
            failures.append((code, .object(parts)))
        }
        let root: JSONValue = .object([
            ("locale", .string(locale)), ("language", .string(language)), ("plurals", .string(plurals.rawValue)),
            ("units", .object(LengthUnit.allCases.map { ($0.rawValue, .string(units[$0.rawValue] ?? "")) })),
            ("list_separator", .string(listSeparator)), ("announcement", .string(announcementTemplate)),
            ("failures", .object(failures)),
        ])
        return JSONWriter.write(root, pretty: true)
    }

    private static func string(_ value: JSONValue?, _ path: String) throws(SpecError) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else { throw SpecError(path: path, problem: "expected a string, found \(value.kindName)") }
        try refuseNUL(text, path)
        return text
    }

    /// C reads texts up to a NUL: a message holding U+0000 would read cut short.
    private static func refuseNUL(_ text: String, _ path: String) throws(SpecError) {
        if text.utf8.contains(0) { throw SpecError(path: path, problem: "must not contain U+0000 (NUL)") }
    }

    /// Every placeholder of `templates` names a value the failure has; the last template needs no
    /// optional one (so a failure always has a message).
    private static func checkPlaceholders(_ templates: [String], code: String, _ path: String) throws(SpecError) {
        let (known, optional) = FailureCode.values(of: code)
        for (index, template) in templates.enumerated() {
            let at = templates.count == 1 ? path : "\(path)[\(index)]"
            for name in MessageTemplate.placeholders(template) where !known.contains(name) {
                throw SpecError(path: at, problem: "{\(name)} is not a value of this failure (it has: \(known.sorted().joined(separator: ", ")))")
            }
            if index == templates.count - 1, let name = MessageTemplate.placeholders(template).first(where: optional.contains) {
                throw SpecError(path: at, problem: "the last template must not need the optional value {\(name)}")
            }
        }
    }

    /// A template or a non-empty list of them (most specific first).
    private static func templates(_ value: JSONValue?, _ path: String) throws(SpecError) -> [String]? {
        guard let value else { return nil }
        switch value {
        case .string(let text):
            try refuseNUL(text, path)
            return [text]
        case .array(let items) where !items.isEmpty:
            var list: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let text) = item else { throw SpecError(path: "\(path)[\(index)]", problem: "expected a string") }
                try refuseNUL(text, "\(path)[\(index)]")
                list.append(text)
            }
            return list
        default: throw SpecError(path: path, problem: "expected a template string or a non-empty array of them")
        }
    }
}

/// Stable failure codes: every rule kind's (`RuleDescriptor.code`) and those of failures that are
/// not a rule's.
public enum FailureCode {
    public static let required = Field.FailureRef.required.fixedCode.description
    /// A pattern hit its match limits or work bound: the value could not be judged.
    public static let patternLimit = Field.FailureRef.patternLimit.fixedCode.description
    /// An asynchronous rule answered invalid.
    public static let async = "async"
    /// An asynchronous rule could not be checked (the host reported an error).
    public static let asyncError = "async_error"
    /// An error set from outside (`Form.setError`, a server's answer).
    public static let external = Field.FailureRef.external.fixedCode.description

    /// Every code a catalogue may give texts for.
    public static let all: Set<String> = Set(RuleCatalog.kinds.map(\.code) + [patternLimit, async, asyncError, external])

    /// The values a failure's templates may use, and which of them a rule may lack (optional
    /// parameters without a default): its kind's parameters, `label`, `field` for kinds that name a
    /// field, `units` for lengths.
    static func values(of code: String) -> (known: Set<String>, optional: Set<String>) {
        var known: Set<String> = ["label"]
        var optional: Set<String> = []
        for kind in RuleCatalog.kinds where kind.code == code {
            for parameter in kind.parameters {
                known.insert(parameter.name)
                if !parameter.isRequired && parameter.defaultValue == nil { optional.insert(parameter.name) }
            }
            if kind.parameters.contains(where: { $0.name == "length" }) { known.insert("units") }
        }
        return (known, optional)
    }
}
