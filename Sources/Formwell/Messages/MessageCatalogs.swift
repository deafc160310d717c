/// The catalogues a form may speak: those shipped with the library (embedded at build time from
/// Messages/Catalogues/*.json, so the library reads no file) and those the host adds at run time.
public enum MessageCatalogs {
    /// English: today's default messages, and what any other catalogue falls back on.
    public static let english: MessageCatalog = load(EmbeddedCatalogues.english, fallback: nil)

    /// Registered catalogues by lower-case tag.
    private static let registry = ProcessLock<[String: MessageCatalog]>(builtIns())

    private static func builtIns() -> [String: MessageCatalog] {
        var catalogs = [english.locale.lowercased(): english]
        for text in EmbeddedCatalogues.others {
            let catalog = load(text, fallback: english)
            catalogs[catalog.locale.lowercased()] = catalog
        }
        return catalogs
    }

    private static func load(_ text: String, fallback: MessageCatalog?) -> MessageCatalog {
        if let value = try? JSONParser.parse(text), let catalog = try? MessageCatalog(value, fallback: fallback) {
            return catalog
        }
        // Unreachable with the shipped files (MessageCatalogTests reads each): a catalogue without
        // texts rather than a trap.
        return fallback ?? MessageCatalog(emptyLocale: "en")
    }

    /// The catalogue for a BCP 47 tag: matched case-insensitively (`_` read as `-`), then with its
    /// last subtag dropped until one matches ("fr-CA" → "fr"); nil when none does.
    public static func catalog(for tag: String) -> MessageCatalog? {
        guard var key = canonicalTag(tag)?.lowercased() else { return nil }
        return registry.withLock { catalogs in
            while true {
                if let catalog = catalogs[key] { return catalog }
                guard let dash = key.lastIndex(of: "-") else { return nil }
                key = String(key[..<dash])
            }
        }
    }

    /// The tags shipped with the library (lower case): they cannot be replaced, so "en" means
    /// one thing everywhere (a new form, a spec's locale, a check without a locale).
    static let shipped: Set<String> = registry.withLock { Set($0.keys) }

    /// Registers (or replaces) a catalogue from its JSON text. What it leaves out, the catalogue of
    /// its parent tag gives ("fr" for "fr-CA"), else English. Forms that already use a replaced
    /// catalogue keep it until their locale is set again. A shipped catalogue cannot be replaced.
    @discardableResult
    public static func add(json text: String) throws(SpecError) -> MessageCatalog {
        let value = try SpecReader.parseJSON(text)
        guard case .object = value else {
            throw SpecError(path: "", problem: "a message catalogue is a JSON object, found \(value.kindName)")
        }
        guard case .string(let tag)? = value["locale"], let canonical = canonicalTag(tag) else {
            throw SpecError(path: "locale", problem: "expected a language tag such as \"en\" or \"fr-CA\"")
        }
        let key = canonical.lowercased()
        guard !shipped.contains(key) else {
            throw SpecError(path: "locale", problem: "'\(tag)' is shipped with the library and cannot be replaced (add a regional tag such as '\(key)-x-custom' instead)")
        }
        let parent = key.lastIndex(of: "-").flatMap { MessageCatalogs.catalog(for: String(key[..<$0])) } ?? english
        let added = try MessageCatalog(value, fallback: parent)
        registry.withLock { $0[key] = added }
        return added
    }

    /// The tags of every registered catalogue, sorted.
    public static var locales: [String] { registry.withLock { $0.values.map(\.locale) }.sorted() }

    /// `tag` in BCP 47's conventional case with `-` separators (`_` read as `-`; "FR_ca" →
    /// "fr-CA"), when it is well formed: subtags of 1 to 8 ASCII letters or digits, the first
    /// letters only. The language is lower case, a 2-letter region upper case, a 4-letter script
    /// title case, the rest lower case.
    static func canonicalTag(_ tag: String) -> String? {
        let subtags = tag.replacingUnderscores().split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, !first.isEmpty, first.utf8.allSatisfy(isLetter) else { return nil }
        var parts: [String] = []
        for (index, subtag) in subtags.enumerated() {
            guard (1...8).contains(subtag.utf8.count), subtag.utf8.allSatisfy({ isLetter($0) || isDigit($0) }) else { return nil }
            let lower = subtag.lowercased()
            if index > 0 && subtag.utf8.count == 2 && !parts.contains("x") {
                parts.append(lower.uppercased())
            } else if index > 0 && subtag.utf8.count == 4 && subtag.utf8.allSatisfy(isLetter) && !parts.contains("x") {
                parts.append(lower.prefix(1).uppercased() + lower.dropFirst())
            } else {
                parts.append(lower)
            }
        }
        return parts.joined(separator: "-")
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

private extension String {
    func replacingUnderscores() -> String { String(map { $0 == "_" ? "-" : $0 }) }
}
