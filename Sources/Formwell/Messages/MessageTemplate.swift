/// Message and hint templates: a subset of ICU MessageFormat, what message catalogues (and rules'
/// own messages) are written in.
///
/// - `{name}` inserts a value;
/// - `{name, plural, =0 {…} one {…} other {…}}` picks a branch by the catalogue's plural rule
///   (an exact `=N` branch first), `#` in the branch standing for the number;
/// - `{name, select, a {…} other {…}}` picks a branch by the value's text.
///
/// A placeholder with no value is left as written (a rule's own message may hold braces); a
/// catalogue lists several templates for one failure, most specific first, and the first whose
/// placeholders all have values is used (`integer` with only `min` says "Enter a whole number of at
/// least 1").
enum MessageTemplate {
    /// The first of `templates` whose placeholders all have values, filled; nil when none is.
    static func render(_ templates: [String], _ values: [String: String], plurals: PluralRule) -> String? {
        for template in templates {
            let (text, complete) = fill(template, values, plurals: plurals)
            if complete { return text }
        }
        return nil
    }

    /// `render` over templates read beforehand (a catalogue's, read once when it is loaded).
    static func render(_ templates: [Compiled], _ values: [String: String], plurals: PluralRule) -> String? {
        for template in templates {
            let (text, complete) = template.fill(values, plurals: plurals)
            if complete { return text }
        }
        return nil
    }

    /// `template` filled, and whether every placeholder it used had a value.
    static func fill(_ template: String, _ values: [String: String], plurals: PluralRule) -> (String, Bool) {
        Compiled(template).fill(values, plurals: plurals)
    }

    /// The names of the values `template` uses (plain placeholders and those plural and select
    /// branch on, in every branch), in order of first use.
    static func placeholders(_ template: String) -> [String] {
        var parser = Parser(characters: Array(template))
        _ = parser.parts(inBranch: false)
        var seen: Set<String> = []
        return parser.used.filter { seen.insert($0).inserted }
    }

    /// A template read once into its parts, so filling it walks the parts instead of reading the
    /// text again character by character (a catalogue's templates are filled for every rule added).
    /// Reading does not depend on the values: where a placeholder or a branch starts and ends, and
    /// what is plain text, follow from the text alone; the values only pick what is written.
    struct Compiled: Sendable {
        fileprivate let parts: [Part]

        init(_ template: String) {
            var parser = Parser(characters: Array(template))
            parts = parser.parts(inBranch: false)
        }

        /// The text of a template without placeholders (or `#`), which fills to itself whatever the
        /// values; nil for any other.
        var plainText: String? {
            if parts.isEmpty { return "" }
            if parts.count == 1, case .text(let text) = parts[0] { return text }
            return nil
        }

        /// The template filled, and whether every placeholder it used had a value.
        func fill(_ values: [String: String], plurals: PluralRule) -> (String, Bool) {
            // A template without placeholders is its own text.
            if let plainText { return (plainText, true) }
            var missing = false
            let text = MessageTemplate.write(parts, values, plurals: plurals, number: nil, missing: &missing)
            return (text, !missing)
        }
    }

    /// One piece of a read template. (Not `indirect`: the branches' arrays already hold the parts
    /// out of line, and boxed cases keep their case in the box pointer's spare bits, where
    /// LeakSanitizer sees no pointer and would report a catalogue's parts as leaked.)
    fileprivate enum Part: Sendable {
        /// Plain text (including braces that open no placeholder).
        case text(String)
        /// `#`: the number of the plural being written, else itself.
        case number
        /// `{name}`, and its text as written (what stands when the value is missing).
        case value(name: String, written: String)
        /// `{name, plural, …}` or `{name, select, …}`: the branches by key (a key given twice: the
        /// last), and the whole placeholder as written.
        case choice(name: String, plural: Bool, branches: [String: [Part]], written: String)
        /// A plural or select whose last branch ran to the end of the text without its closing
        /// brace (so it is not a placeholder, and its `{` is plain text): reading that branch left
        /// "a value is missing" as that branch alone had it, whatever it was before (the one place
        /// where a placeholder that is not one still counts). Writes nothing.
        case unclosed(name: String, plural: Bool, branch: [Part])
    }

    /// Writes `parts` with `values`; `missing` is set when a placeholder used had no value (or no
    /// branch for it). `number`: what `#` stands for (inside a plural's branch).
    private static func write(
        _ parts: [Part], _ values: [String: String], plurals: PluralRule, number: String?, missing: inout Bool
    ) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .text(let text):
                out += text
            case .number:
                out += number ?? "#"
            case .value(let name, let written):
                if let value = values[name] {
                    out += value
                } else {
                    missing = true
                    out += written
                }
            case .choice(let name, let plural, let branches, let written):
                guard let value = values[name] else {
                    missing = true
                    out += written
                    continue
                }
                let chosen = plural
                    ? branches["=" + value] ?? branches[plurals.category(value)] ?? branches["other"]
                    : branches[value] ?? branches["other"]
                guard let chosen else {
                    missing = true
                    out += written
                    continue
                }
                var branchMissing = false
                out += write(chosen, values, plurals: plurals, number: plural ? value : number, missing: &branchMissing)
                if branchMissing { missing = true }
            case .unclosed(let name, let plural, let branch):
                var branchMissing = false
                _ = write(branch, values, plurals: plurals, number: plural ? (values[name] ?? "#") : number, missing: &branchMissing)
                missing = branchMissing
            }
        }
        return out
    }

    /// Reads a template into its parts. A placeholder that is not complete (no closing brace, an
    /// unknown kind, a branch without braces) is not one: its `{` is plain text and reading goes on
    /// after it.
    private struct Parser {
        let characters: [Character]
        var index = 0
        /// Every name read, in order (`placeholders`).
        var used: [String] = []
        /// Plural and select branches being read, one inside another: a rule's own message comes
        /// from outside, so nesting is bounded (deeper is plain text) rather than the stack.
        var depth = 0
        static let maximumDepth = 8

        /// Parts up to the end (or, in a branch, up to its closing brace, not consumed).
        mutating func parts(inBranch: Bool) -> [Part] {
            var parts: [Part] = []
            var text = ""
            func flush() {
                if !text.isEmpty { parts.append(.text(text)); text = "" }
            }
            while index < characters.count {
                let character = characters[index]
                if character == "}" && inBranch { break }
                if character == "#" {
                    flush()
                    parts.append(.number)
                    index += 1
                    continue
                }
                if character == "{" {
                    let start = index
                    let (placeholder, unclosed) = self.placeholder()
                    if let placeholder {
                        flush()
                        parts.append(placeholder)
                    } else {
                        if let unclosed {
                            flush()
                            parts.append(unclosed)
                        }
                        // Not a placeholder at all (a lone brace): plain text.
                        index = start + 1
                        text.append(character)
                    }
                    continue
                }
                text.append(character)
                index += 1
            }
            flush()
            return parts
        }

        /// At a `{`: the placeholder with `index` after it, or nil with `index` unmoved (malformed:
        /// the brace is plain text), then with the `unclosed` part when a branch ran to the end.
        mutating func placeholder() -> (Part?, unclosed: Part?) {
            let start = index
            index += 1
            let name = word()
            guard !name.isEmpty, index < characters.count else { index = start; return (nil, nil) }
            if characters[index] == "}" {
                index += 1
                used.append(name)
                return (.value(name: name, written: String(characters[start..<index])), nil)
            }
            guard characters[index] == ",", depth < Parser.maximumDepth else { index = start; return (nil, nil) }
            index += 1
            let kind = word()
            guard kind == "plural" || kind == "select", index < characters.count, characters[index] == "," else {
                index = start
                return (nil, nil)
            }
            index += 1
            let firstUse = used.count
            var branches: [String: [Part]] = [:]
            while true {
                skipSpaces()
                guard index < characters.count else { index = start; return (nil, nil) }
                if characters[index] == "}" { index += 1; break }
                let key = word(allowEquals: true)
                skipSpaces()
                guard !key.isEmpty, index < characters.count, characters[index] == "{" else { index = start; return (nil, nil) }
                index += 1
                depth += 1
                let branch = parts(inBranch: true)
                depth -= 1
                guard index < characters.count else {
                    index = start
                    return (nil, .unclosed(name: name, plural: kind == "plural", branch: branch))
                }
                index += 1  // the branch's closing brace
                branches[key] = branch
            }
            used.insert(name, at: firstUse)
            return (.choice(name: name, plural: kind == "plural", branches: branches, written: String(characters[start..<index])), nil)
        }

        /// A name or keyword (letters, digits, `_`, and `=` when allowed), spaces around skipped.
        mutating func word(allowEquals: Bool = false) -> String {
            skipSpaces()
            var out = ""
            while index < characters.count {
                let character = characters[index]
                guard character.isLetter || character.isNumber || character == "_" || character == "-"
                        || (allowEquals && character == "=") || (allowEquals && character == ".") else { break }
                out.append(character)
                index += 1
            }
            skipSpaces()
            return out
        }

        mutating func skipSpaces() {
            while index < characters.count, characters[index] == " " || characters[index] == "\n" { index += 1 }
        }
    }
}
