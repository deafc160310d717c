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

    /// `template` filled, and whether every placeholder it used had a value.
    static func fill(_ template: String, _ values: [String: String], plurals: PluralRule) -> (String, Bool) {
        var renderer = Renderer(characters: Array(template), values: values, plurals: plurals)
        let text = renderer.text(inBranch: false, number: nil)
        return (text, !renderer.missing)
    }

    /// The names of the values `template` uses (plain placeholders and those plural and select
    /// branch on, in every branch), in order of first use.
    static func placeholders(_ template: String) -> [String] {
        var renderer = Renderer(characters: Array(template), values: [:], plurals: .otherOnly)
        _ = renderer.text(inBranch: false, number: nil)
        var seen: Set<String> = []
        return renderer.used.filter { seen.insert($0).inserted }
    }

    private struct Renderer {
        let characters: [Character]
        let values: [String: String]
        let plurals: PluralRule
        var index = 0
        var missing = false
        /// Every name looked up, in order (`placeholders`).
        var used: [String] = []
        /// Plural and select branches being read, one inside another: a rule's own message comes
        /// from outside, so nesting is bounded (deeper is plain text) rather than the stack.
        var depth = 0
        static let maximumDepth = 8

        /// Text up to the end (or, in a branch, up to its closing brace, not consumed).
        mutating func text(inBranch: Bool, number: String?) -> String {
            var out = ""
            while index < characters.count {
                let character = characters[index]
                if character == "}" && inBranch { return out }
                if character == "#", let number {
                    out += number
                    index += 1
                    continue
                }
                if character == "{" {
                    let start = index
                    if let filled = placeholder(number: number) {
                        out += filled
                    } else {
                        // No value (left as written) or not a placeholder at all (a lone brace).
                        if index <= start { index = start + 1 }
                        out += String(characters[start..<index])
                    }
                    continue
                }
                out.append(character)
                index += 1
            }
            return out
        }

        /// At a `{`: the filled placeholder, or nil with `index` after what was read (a complete
        /// placeholder without a value) or unmoved (malformed: the brace is plain text).
        mutating func placeholder(number: String?) -> String? {
            let start = index
            index += 1
            let name = word()
            guard !name.isEmpty, index < characters.count else { index = start; return nil }
            if characters[index] == "}" {
                index += 1
                used.append(name)
                guard let value = values[name] else { missing = true; return nil }
                return value
            }
            guard characters[index] == ",", depth < Renderer.maximumDepth else { index = start; return nil }
            index += 1
            let kind = word()
            guard kind == "plural" || kind == "select", index < characters.count, characters[index] == "," else {
                index = start
                return nil
            }
            index += 1
            let value = values[name]
            let firstUse = used.count
            var branches: [String: (String, Bool)] = [:]
            while true {
                skipSpaces()
                guard index < characters.count else { index = start; return nil }
                if characters[index] == "}" { index += 1; break }
                let key = word(allowEquals: true)
                skipSpaces()
                guard !key.isEmpty, index < characters.count, characters[index] == "{" else { index = start; return nil }
                index += 1
                let outer = missing
                missing = false
                depth += 1
                let text = text(inBranch: true, number: kind == "plural" ? (value ?? "#") : number)
                depth -= 1
                guard index < characters.count else { index = start; return nil }
                index += 1  // the branch's closing brace
                branches[key] = (text, missing)
                missing = outer
            }
            used.insert(name, at: firstUse)
            guard let value else { missing = true; return nil }
            let chosen: (String, Bool)?
            if kind == "plural" {
                chosen = branches["=" + value] ?? branches[plurals.category(value)] ?? branches["other"]
            } else {
                chosen = branches[value] ?? branches["other"]
            }
            guard let (text, branchMissing) = chosen else { missing = true; return nil }
            if branchMissing { missing = true }
            return text
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
