import CFormwellTypes
import Formwell
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Fills caller-owned fw_snapshot structs (the C ABI's layout, from CFormwellTypes) and copies
/// their texts into the caller's buffer. It runs under the form's lock, so the struct and the texts
/// always describe the same moment, after SnapshotArguments.swift has checked the caller's
/// arguments.
///
/// The writer is a `StateReader`: the engine's generic state read (`Form.readState(at:into:)`) is
/// specialized for it here (the library is built with cross-module optimization), so a snapshot is
/// one read with the writer's code inlined, not a closure called through a pointer.
enum SnapshotWriter {
    /// The first version's struct (up to `value`): the smallest `size` a caller may declare.
    static var minimumSize: Int { formwell_snapshot_v1_size() }

    /// The second version's struct (up to `errors`): a declared size at least this gets the second
    /// version's members and texts.
    static var secondVersionSize: Int { formwell_snapshot_v2_size() }

    /// The third version's struct (up to `normalized`).
    static var thirdVersionSize: Int { formwell_snapshot_v3_size() }

    /// The fourth version's struct (up to `error_codes`).
    static var fourthVersionSize: Int { formwell_snapshot_v4_size() }

    /// Copies `count` bytes: short texts (most labels, ids, values typed into a field) in place,
    /// longer ones with memcpy (a call and a size dispatch cost more than a short copy).
    /// In place by 8-byte words, the last word overlapping the one before: a byte loop would be most
    /// of the writer's own work.
    @inline(__always)
    static func copyBytes(_ source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<CChar>, count: Int) {
        if count > 32 {
            memcpy(destination, source, count)
            return
        }
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(destination)
        if count >= 8 {
            var offset = 0
            while offset &+ 8 < count {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
            let last = count &- 8
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: last, as: UInt64.self), toByteOffset: last, as: UInt64.self)
            return
        }
        if count >= 4 {
            let last = count &- 4
            to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: last, as: UInt32.self), toByteOffset: last, as: UInt32.self)
            return
        }
        var index = 0
        while index < count {
            to.storeBytes(of: from.load(fromByteOffset: index, as: UInt8.self), toByteOffset: index, as: UInt8.self)
            index &+= 1
        }
    }

    /// Copies `bytes` and a NUL to `destination`; answers the bytes written.
    @inline(__always)
    static func copy(_ bytes: UnsafeBufferPointer<UInt8>, to destination: UnsafeMutablePointer<CChar>) -> Int {
        if let source = bytes.baseAddress { copyBytes(source, to: destination, count: bytes.count) }
        destination[bytes.count] = 0
        return bytes.count &+ 1
    }

    /// Copies the UTF-8 of `text` and a NUL to `destination` (in place for a native string);
    /// answers the bytes written.
    static func copy(_ text: String, to destination: UnsafeMutablePointer<CChar>) -> Int {
        if let written = text.utf8.withContiguousStorageIfAvailable({ copy($0, to: destination) }) { return written }
        var count = 0
        for byte in text.utf8 {
            destination[count] = CChar(bitPattern: byte)
            count &+= 1
        }
        destination[count] = 0
        return count &+ 1
    }

    /// `body` over a string's UTF-8 in place (codes and parameters are native strings).
    @inline(__always)
    static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }

    /// The fourth version's texts of one moment: the failure `message` reports (its code and
    /// parameters) and the one `display_message` shows. A field with no failure has code "" and
    /// parameters "{}" for both.
    struct FailureTexts {
        let code: UnsafeBufferPointer<UInt8>
        let params: UnsafeBufferPointer<UInt8>
        let displayCode: UnsafeBufferPointer<UInt8>
        let displayParams: UnsafeBufferPointer<UInt8>
        /// No failure: codes "" and parameters "{}" for both (most keystrokes).
        var isNone = false
    }

    /// The fourth version's texts of a field with no failure and an empty code list: code "",
    /// params "{}", display code "", display params "{}", each with its NUL, and the list's final NUL.
    private static let noFailureBlock: StaticString = "\0{}\0\0{}\0\0"

    /// `body` with the field's failure texts, read in place: one lookup of the validity's failure,
    /// and a second only when the display names another failure.
    @inline(__always)
    private static func withFailureTexts(_ failures: StateFailures, _ body: (FailureTexts) -> Void) {
        if failures.isEmpty {
            StaticString("{}").withUTF8Buffer { params in
                let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
                body(FailureTexts(code: none, params: params, displayCode: none, displayParams: params, isNone: true))
            }
            return
        }
        let sameDisplay = failures.displaysValidity
        failures.withFailure(.validity) { code, params in
            if sameDisplay {
                body(FailureTexts(code: code, params: params, displayCode: code, displayParams: params))
            } else {
                failures.withFailure(.display) { displayCode, displayParams in
                    body(FailureTexts(code: code, params: params, displayCode: displayCode, displayParams: displayParams))
                }
            }
        }
    }

    /// The fourth version's length members.
    @inline(__always)
    private static func writeFailureLengths(_ failure: FailureTexts, to out: UnsafeMutablePointer<fw_snapshot>) {
        out.pointee.code_length = failure.code.count
        out.pointee.params_length = failure.params.count
        out.pointee.display_code_length = failure.displayCode.count
        out.pointee.display_params_length = failure.displayParams.count
    }

    /// Copies every text of the caller's version (up to the second, third or fourth: `failure` is
    /// the fourth's, else nil) in one block, after one check that the buffer holds them all: the
    /// texts of a keystroke, where checking each of the dozen texts costs more than copying it.
    /// Only when no list holds more than one text (`errorCount` at most 1); answers false, with
    /// nothing written or counted, when that or the buffer says no. Same bytes, same order as the
    /// text-by-text path (`writeTexts`, `writeFailures`), which the C tests compare at every size.
    private static func writeBlock(
        _ strings: StateTexts, errorCount: Int, second: Bool, third: Bool, failure: FailureTexts?,
        to out: UnsafeMutablePointer<fw_snapshot>, texts: inout TextBuffer
    ) -> Bool {
        guard errorCount <= 1 else { return false }
        let listed = errorCount == 1
        let (message, shown, value) = (strings.message, strings.displayMessage, strings.value)
        // Each text and its NUL; a list ("errors", "error_codes") is its text (if any), that
        // text's NUL and the list's final NUL.
        var total = message.count &+ shown.count &+ value.count &+ 3
        if second {
            total &+= strings.name.count &+ strings.initial.count &+ strings.hint.count &+ 4
            if listed { total &+= message.count &+ 1 }
        }
        if third { total &+= strings.normalized.count &+ 1 }
        if let failure {
            total &+= failure.code.count &+ failure.params.count &+ failure.displayCode.count
                &+ failure.displayParams.count &+ 5
            if listed { total &+= failure.code.count &+ 1 }
        }
        guard let start = texts.reserve(total) else { return false }
        var at = start
        @inline(__always) func put(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<CChar> {
            let text = UnsafePointer(at)
            at += copy(bytes, to: at)
            return text
        }
        /// A list of `first` when `listed`, else of nothing: answers where it starts and its size.
        @inline(__always) func putList(_ first: UnsafeBufferPointer<UInt8>) -> (UnsafePointer<CChar>, Int) {
            let list = UnsafePointer(at)
            guard listed else {
                at[0] = 0
                at += 1
                return (list, 0)
            }
            at += copy(first, to: at)
            at[0] = 0
            at += 1
            return (list, first.count &+ 1)
        }
        out.pointee.message = put(message)
        out.pointee.display_message = put(shown)
        out.pointee.value = put(value)
        if second {
            out.pointee.label = put(strings.name)
            out.pointee.initial = put(strings.initial)
            out.pointee.hint = put(strings.hint)
            (out.pointee.errors, out.pointee.errors_size) = putList(message)
        }
        if third { out.pointee.normalized = put(strings.normalized) }
        if let failure, failure.isNone, !listed {
            // The nine bytes in one copy (a copy per text costs more than the bytes).
            copyBytes(noFailureBlock.utf8Start, to: at, count: noFailureBlock.utf8CodeUnitCount)
            out.pointee.code = UnsafePointer(at)
            out.pointee.params = UnsafePointer(at + 1)
            out.pointee.display_code = UnsafePointer(at + 4)
            out.pointee.display_params = UnsafePointer(at + 5)
            (out.pointee.error_codes, out.pointee.error_codes_size) = (UnsafePointer(at + 8), 0)
        } else if let failure {
            out.pointee.code = put(failure.code)
            out.pointee.params = put(failure.params)
            out.pointee.display_code = put(failure.displayCode)
            out.pointee.display_params = put(failure.displayParams)
            (out.pointee.error_codes, out.pointee.error_codes_size) = putList(failure.code)
        }
        return true
    }

    /// The texts of the first three versions, one by one, each NULL once the buffer is full.
    private static func writeTexts(
        _ strings: StateTexts, errorCount: Int, second: Bool, third: Bool,
        to out: UnsafeMutablePointer<fw_snapshot>, texts: inout TextBuffer
    ) {
        out.pointee.message = texts.append(strings.message)
        out.pointee.display_message = texts.append(strings.displayMessage)
        out.pointee.value = texts.append(strings.value)
        if second {
            out.pointee.label = texts.append(strings.name)
            out.pointee.initial = texts.append(strings.initial)
            out.pointee.hint = texts.append(strings.hint)
            let (errors, errorsSize) = texts.appendList(strings.message, errorCount > 1 ? strings.moreErrors : [],
                                                        count: errorCount)
            out.pointee.errors_size = errorsSize
            out.pointee.errors = errors
        }
        if third { out.pointee.normalized = texts.append(strings.normalized) }
    }

    /// The fourth version's texts, one by one, each NULL once the buffer is full.
    private static func writeFailures(_ failure: FailureTexts, more: [String], errorCount: Int,
                                      to out: UnsafeMutablePointer<fw_snapshot>, texts: inout TextBuffer) {
        out.pointee.code = texts.append(failure.code)
        out.pointee.params = texts.append(failure.params)
        out.pointee.display_code = texts.append(failure.displayCode)
        out.pointee.display_params = texts.append(failure.displayParams)
        let (codes, codesSize) = texts.appendList(failure.code, more, count: errorCount)
        out.pointee.error_codes_size = codesSize
        out.pointee.error_codes = codes
    }

    /// Writes the state of the field at `index` into `out` (keeping the caller's `size`) and its
    /// texts into `texts`: the first version's members and texts, and those of each later version
    /// `size` (the caller's declared size) covers. Nothing past the caller's version is written.
    static func write(_ form: UnsafeMutablePointer<Form>, index: Int, to out: UnsafeMutablePointer<fw_snapshot>,
                      size: Int, texts: inout TextBuffer) throws(FormError) {
        var writer = Writer(out: out, index: index, size: size, texts: texts)
        defer { texts = writer.texts }
        try form.pointee.readState(at: index, into: &writer)
    }

    /// `write`'s reader of the state: the caller's struct, its version and the text buffer (the
    /// writer's own copy, handed back when the read ends).
    private struct Writer: StateReader {
        let out: UnsafeMutablePointer<fw_snapshot>
        let index: Int
        let second: Bool
        let third: Bool
        let fourth: Bool
        var texts: TextBuffer

        @inline(__always)
        init(out: UnsafeMutablePointer<fw_snapshot>, index: Int, size: Int, texts: TextBuffer) {
            (self.out, self.index, self.texts) = (out, index, texts)
            second = size >= secondVersionSize
            third = size >= thirdVersionSize
            fourth = size >= fourthVersionSize
        }

        @inline(__always)
        mutating func read(_ state: StateSummary, _ strings: StateTexts) {
            // Member by member into the caller's struct (keeping its `size`): no temporary to
            // zero and copy, and no byte past the caller's version touched.
            let before = texts.needed
            let errorCount = state.errorCount
            out.pointee.index = index
            out.pointee.phase = fw_phase(state.phase).rawValue
            out.pointee.validity = fw_validity(state.validity).rawValue
            out.pointee.display = fw_display(state.display).rawValue
            out.pointee.failing_rule = Int32(clamping: state.failingRule ?? -1)
            out.pointee.touched = state.touched
            out.pointee.limit_exceeded = state.limitExceeded
            out.pointee.message_length = strings.message.count
            out.pointee.display_message_length = strings.displayMessage.count
            out.pointee.value_length = strings.value.count
            if second {
                out.pointee.visited = state.visited
                out.pointee.dirty = state.dirty
                out.pointee.modified_since_submit = state.modifiedSinceSubmit
                out.pointee.external_error = state.externalError
                out.pointee.label_raised = state.labelRaised
                out.pointee.emphasized = state.emphasized
                out.pointee.mode = fw_mode(state.mode).rawValue
                out.pointee.tint = fw_tint(state.tint).rawValue
                out.pointee.revision = state.revision
                out.pointee.error_count = errorCount
                out.pointee.label_length = strings.name.count
                out.pointee.initial_length = strings.initial.count
                out.pointee.hint_length = strings.hint.count
            }
            if third {
                out.pointee.secret = state.secret
                out.pointee.normalized_length = strings.normalized.count
            }
            if fourth {
                withFailureTexts(strings.failures) { failure in
                    writeFailureLengths(failure, to: out)
                    if writeBlock(strings, errorCount: errorCount, second: second, third: third, failure: failure,
                                  to: out, texts: &texts) { return }
                    writeTexts(strings, errorCount: errorCount, second: second, third: third, to: out, texts: &texts)
                    writeFailures(failure, more: errorCount > 1 ? strings.failures.moreCodes : [],
                                  errorCount: errorCount, to: out, texts: &texts)
                }
            } else if !writeBlock(strings, errorCount: errorCount, second: second, third: third, failure: nil,
                                  to: out, texts: &texts) {
                writeTexts(strings, errorCount: errorCount, second: second, third: third, to: out, texts: &texts)
            }
            out.pointee.text_size = texts.needed &- before
        }
    }
}
