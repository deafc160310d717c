import Formwell

/// A checked batch as the reports read it: per record, valid or not and each failing field's
/// message. Messages are the spec's (field, rule) texts, worked out once per run, or a cell's own
/// (a pattern over its match limits).
struct Verdicts {
    let result: BatchResult
    let messages: MessageTable
    /// Cells with a message of their own (usually none).
    private let own: [Int: String]

    init(result: BatchResult, messages: MessageTable) {
        self.result = result
        self.messages = messages
        own = result.ownMessages
    }

    func isValid(_ row: Int) -> Bool { result.isValid(record: row) }

    /// Calls `body` with each failing field of `row` (registration order) and its message.
    @inline(__always)
    func forEachError(_ row: Int, _ body: (_ field: Int, _ message: Message) -> Void) {
        let fields = result.fieldCount
        let base = row * fields
        for field in 0..<fields {
            let rule = Int(result.failingRules[base + field])
            guard rule >= 0 else { continue }
            if !own.isEmpty, let text = own[base + field] {
                body(field, .text(text))
            } else {
                body(field, .rule(rule))
            }
        }
    }

    enum Message {
        /// The field's rule at this index: its text is in the message table.
        case rule(Int)
        case text(String)
    }
}

/// Every (field, rule) message of the form, as text, as the human report writes it (control
/// characters escaped, `TerminalText`) and as an escaped JSON string, and its failure code (an
/// escaped JSON string) and parameters (the engine's JSON object text, keys sorted).
struct MessageTable {
    let texts: [[String]]
    let terminal: [[[UInt8]]]
    let json: [[[UInt8]]]
    let codes: [[[UInt8]]]
    let params: [[[UInt8]]]

    init(form: Form, spec: FormSpec) {
        var texts: [[String]] = []
        var failures: [[(code: String, params: String)]] = []
        // The form's rules, not the spec's: a rule set reference stands for several.
        for field in spec.fields.indices {
            let count = (try? form.ruleCount(field: field)) ?? 0
            texts.append((0..<count).map { (try? form.ruleMessage(field: field, rule: $0)) ?? "" })
            failures.append((0..<count).map { (try? form.ruleFailure(field: field, rule: $0)) ?? ("", "{}") })
        }
        self.texts = texts
        terminal = texts.map { $0.map { Array(TerminalText.escaped($0).utf8) } }
        json = texts.map { $0.map(Self.jsonString) }
        codes = failures.map { $0.map { Self.jsonString($0.code) } }
        params = failures.map { $0.map { Array($0.params.utf8) } }
    }

    private static func jsonString(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONWriter.appendString(text, to: &bytes)
        return bytes
    }

    /// The message as the human report writes it.
    func terminalText(_ field: Int, _ message: Verdicts.Message) -> [UInt8] {
        switch message {
        case .text(let text): return Array(TerminalText.escaped(text).utf8)
        case .rule(let rule):
            guard terminal.indices.contains(field), terminal[field].indices.contains(rule) else { return [] }
            return terminal[field][rule]
        }
    }

    func text(_ field: Int, _ message: Verdicts.Message) -> String {
        switch message {
        case .text(let text): return text
        case .rule(let rule):
            guard texts.indices.contains(field), texts[field].indices.contains(rule) else { return "" }
            return texts[field][rule]
        }
    }
}
