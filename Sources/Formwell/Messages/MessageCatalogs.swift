import Synchronization

/// The catalogues a form may speak: those shipped with the library (embedded at build time from
/// Messages/Catalogues/*.json, so the library reads no file) and those the host adds at run time.
public enum MessageCatalogs {
    /// English: today's default messages, and what any other catalogue falls back on.
    public static let english: MessageCatalog = load(EmbeddedCatalogues.english, fallback: nil)

    /// Registered catalogues by lower-case tag.
    private static let registry = Mutex<[String: MessageCatalog]>(builtIns())

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

    /// Registers (or replaces) a catalogue from its JSON text; what it leaves out, English gives.
    /// Forms that already use a replaced catalogue keep it until their locale is set again.
    @discardableResult
    public static func add(json text: String) throws(SpecError) -> MessageCatalog {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw SpecError(path: "", problem: "not valid JSON: \(error)")
        }
        let catalog = try MessageCatalog(value, fallback: english)
        registry.withLock { $0[catalog.locale.lowercased()] = catalog }
        return catalog
    }

    /// The tags of every registered catalogue, sorted.
    public static var locales: [String] { registry.withLock { $0.values.map(\.locale) }.sorted() }

    /// `tag` with `_` read as `-`, when it is a well-formed tag: subtags of 1 to 8 ASCII letters or
    /// digits, the first letters only.
    static func canonicalTag(_ tag: String) -> String? {
        let text = tag.replacingUnderscores()
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, !first.isEmpty, first.utf8.allSatisfy(isLetter) else { return nil }
        for subtag in subtags {
            guard (1...8).contains(subtag.utf8.count), subtag.utf8.allSatisfy({ isLetter($0) || isDigit($0) }) else { return nil }
        }
        return text
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

private extension String {
    func replacingUnderscores() -> String { String(map { $0 == "_" ? "-" : $0 }) }
}
