/// A field's state as plain values (no strings): what `Form.readState(at:_:)` hands out beside
/// the texts, so a reader that copies them elsewhere (the C snapshot) retains nothing.
public struct StateSummary: Equatable, Sendable {
    public enum ValidityKind: Sendable { case empty, valid, invalid, pending }
    public enum DisplayKind: Sendable { case none, valid, error }

    public let phase: Phase
    public let validity: ValidityKind
    public let display: DisplayKind
    public let touched: Bool
    public let limitExceeded: Bool
    /// Index of the rule whose message the input validity carries; nil unless invalid.
    public let failingRule: Int?
    public let visited: Bool
    public let dirty: Bool
    public let modifiedSinceSubmit: Bool
    public let externalError: Bool
    public let mode: ValidationMode
    public let tint: Tint
    public let labelRaised: Bool
    public let emphasized: Bool
    /// The number of messages in the validity's error list (`FieldState.errors`).
    public let errorCount: Int
    public let revision: UInt64
    /// The field is secret (its value never echoed outside the value).
    public let secret: Bool
}

/// The texts of a field's state, borrowed for the duration of `Form.readState`'s body.
public struct StateTexts {
    public let message: UnsafeBufferPointer<UInt8>
    public let displayMessage: UnsafeBufferPointer<UInt8>
    /// The value as it was set (what a view shows).
    public let value: UnsafeBufferPointer<UInt8>
    /// The value after the field's normalisers (what the rules judged).
    public let normalized: UnsafeBufferPointer<UInt8>
    /// The label, else the id.
    public let name: UnsafeBufferPointer<UInt8>
    public let initial: UnsafeBufferPointer<UInt8>
    public let hint: UnsafeBufferPointer<UInt8>
    /// The failure codes and parameters of `message` and `displayMessage`, read only when asked.
    public let failures: StateFailures

    /// The validity's messages after `message` (error mode `all`), read only when asked: carried
    /// as an array, it would be retained and released on every read of a field.
    public var moreErrors: [String] { failures.moreMessages }
}

/// The failure codes and parameters (JSON objects) of a state read, borrowed in place when asked
/// (a version-4 snapshot): plain values, so passing them on retains nothing, and a reader that
/// does not want them pays nothing.
public struct StateFailures {
    /// Which failure: the one `message` reports, or the one `displayMessage` shows.
    public enum Which: Sendable { case validity, display }

    let field: UnsafeMutablePointer<Field>
    /// A kept shown state (modes on_blur / on_touched), else the live view's sources.
    let kept: UnsafePointer<ShownState>?
    let source: Field.MessageSource
    let shownSource: Field.MessageSource
    let carriesMore: Bool
    /// The code and parameters of the failure `source` names, when the reader already borrowed
    /// them (`Field.withOwnFailure`): handed out as they are, with no second look-up.
    private var sourceTexts: (code: UnsafeBufferPointer<UInt8>, params: UnsafeBufferPointer<UInt8>)?

    /// A kept shown state's codes.
    init(field: UnsafeMutablePointer<Field>, kept: UnsafePointer<ShownState>) {
        (self.field, self.kept, source, shownSource, carriesMore) = (field, kept, .none, .none, false)
    }

    /// The live view's: the failures `source` and `shownSource` name.
    init(field: UnsafeMutablePointer<Field>, source: Field.MessageSource, shownSource: Field.MessageSource, carriesMore: Bool) {
        (self.field, kept, self.source, self.shownSource, self.carriesMore) = (field, nil, source, shownSource, carriesMore)
    }

    /// The same, with the code and parameters of `source`'s failure already borrowed.
    func with(sourceCode code: UnsafeBufferPointer<UInt8>, params: UnsafeBufferPointer<UInt8>) -> StateFailures {
        var failures = self
        failures.sourceTexts = (code, params)
        return failures
    }

    /// Calls `body` with the UTF-8 of the failure's code ("" for none) and parameters ("{}").
    public func withFailure(_ which: Which, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void) {
        if let kept {
            let (code, params) = which == .validity ? (kept.pointee.code, kept.pointee.params)
                : (kept.pointee.displayCode, kept.pointee.displayParams)
            Field.withUTF8(code) { code in Field.withUTF8(params) { params in body(code, params) } }
            return
        }
        let named = which == .validity ? source : shownSource
        if let sourceTexts, named == source {
            body(sourceTexts.code, sourceTexts.params)
            return
        }
        Field.withFailure(of: field, named, body)
    }

    /// No failure to report: the live view of a field whose message and displayed message name
    /// none (code "" and parameters "{}" for both; most reads while typing into a valid field).
    public var isEmpty: Bool { kept == nil && source == .none && shownSource == .none }

    /// The displayed message's failure is the validity's own (a live view whose two sources agree).
    public var displaysValidity: Bool { kept == nil && source == shownSource }

    /// The messages after the first (error mode `all`).
    public var moreMessages: [String] {
        if let kept { return kept.pointee.moreErrors }
        return carriesMore ? field.pointee.moreFailures : []
    }

    /// The codes of the messages after the first (error mode `all`).
    public var moreCodes: [String] {
        if let kept { return kept.pointee.moreCodes }
        return carriesMore ? field.pointee.moreCodes : []
    }
}
