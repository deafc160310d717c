/// The language of a form's messages and hints (messages are codes + parameters, worded per
/// locale). Codes and parameters never change with it; only the texts do.
extension Form {
    /// A form whose messages are worded in the catalogue `locale` names (see `setLocale`).
    public init(locale: String) throws(FormError) {
        self.init()
        try setLocale(locale)
    }

    /// The tag of the form's catalogue ("en" unless set).
    public var locale: String { catalog.locale }

    /// Words every message and hint in the catalogue `tag` names: matched case-insensitively,
    /// `_` read as `-`, then by dropping subtags ("fr-CA" → "fr"). Every field is judged again on
    /// its value so its stored verdict speaks the new language, and what a mode keeps (on_blur,
    /// on_touched) is re-worded as it stands (texts from outside, such as external errors and a
    /// validator's own words, stay as they are). Unknown tags are refused.
    public mutating func setLocale(_ tag: String) throws(FormError) {
        guard let catalog = MessageCatalogs.catalog(for: tag) else {
            throw .invalidArgument("no message catalogue for locale '\(tag)' (available: \(MessageCatalogs.locales.joined(separator: ", ")))")
        }
        guard catalog !== self.catalog else { return }
        var localized = self
        localized.catalog = catalog
        for index in localized.fields.indices { localized.fields[index].localize(catalog) }
        let evaluations = try localized.evaluations(of: localized.fields.map(\.value))
        self = localized
        rejudgeAll(evaluations)
    }
}
