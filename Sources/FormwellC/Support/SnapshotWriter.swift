import CFormwellTypes
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Formwell

/// Fills caller-owned fw_snapshot structs and copies their texts into the caller's buffer.
/// Runs under the form's lock, so the struct and the texts always describe the same moment.
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

    /// The size the caller declared in `snapshot.size`, checked.
    static func declaredSize(_ snapshot: UnsafeMutablePointer<fw_snapshot>?) throws(ABIFailure) -> Int {
        guard let snapshot else { throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "argument 'snapshot' is NULL") }
        guard Int(bitPattern: snapshot) % MemoryLayout<fw_snapshot>.alignment == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT, "snapshot is not aligned for an fw_snapshot")
        }
        let size = snapshot.pointee.size
        guard size >= minimumSize, size <= Int(Int32.max), size % MemoryLayout<fw_snapshot>.alignment == 0 else {
            throw ABIFailure(.FW_ERR_INVALID_ARGUMENT,
                             "snapshot size \(size) is not sizeof(fw_snapshot) (\(minimumSize) or more, a multiple of \(MemoryLayout<fw_snapshot>.alignment))")
        }
        return size
    }

    /// The caller's text buffer, consumed front to back.
    struct TextBuffer {
        let base: UnsafeMutablePointer<CChar>?
        let capacity: Int
        var used = 0
        /// Bytes every text written so far needed, copied or not.
        var needed = 0
        /// A text did not fit, so it and every later text were not copied.
        var overflowed = false

        init(_ base: UnsafeMutablePointer<CChar>?, _ capacity: UInt) throws(ABIFailure) {
            if base == nil && capacity != 0 {
                throw ABIFailure(.FW_ERR_NULL_ARGUMENT, "buf is NULL but its size is \(capacity)")
            }
            self.base = base
            self.capacity = Int(clamping: capacity)
        }

        /// Copies `bytes` and a NUL if they fit (and nothing before them overflowed); answers where
        /// they went, or nil.
        @inline(__always)
        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<CChar>? {
            let count = bytes.count
            needed &+= count &+ 1
            guard let base, !overflowed, count < capacity &- used else {
                if base != nil { overflowed = true }
                return nil
            }
            let start = base + used
            if let source = bytes.baseAddress { SnapshotWriter.copyBytes(source, to: start, count: count) }
            start[count] = 0
            used &+= count &+ 1
            return UnsafePointer(start)
        }

        /// Copies `bytes` (texts with their NULs) if they fit (and nothing before them overflowed);
        /// answers where they went, or nil with nothing counted (the caller then appends them text
        /// by text, which counts them).
        @inline(__always)
        mutating func appendBlock(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<CChar>? {
            let count = bytes.count
            guard let base, let source = bytes.baseAddress, !overflowed, count <= capacity &- used else { return nil }
            let start = base + used
            SnapshotWriter.copyBytes(source, to: start, count: count)
            needed &+= count
            used &+= count
            return UnsafePointer(start)
        }

        /// Copies a list of texts as one block: `first` and then the first `count - 1` of `more`
        /// (none when `count` is 0), each followed by a NUL, then one more NUL, if the block fits
        /// (and nothing before it overflowed). Answers where it went, or nil, and the size of the
        /// list without its final NUL.
        mutating func appendList(
            _ first: UnsafeBufferPointer<UInt8>, _ more: [String], count: Int
        ) -> (UnsafePointer<CChar>?, Int) {
            // No text (a field that is not invalid): the list is its final NUL.
            if count <= 0 { return (append(UnsafeBufferPointer(start: nil, count: 0)), 0) }
            let extra = min(count &- 1, more.count)
            var size = first.count &+ 1
            for index in 0..<extra { size &+= more[index].utf8.count &+ 1 }
            needed &+= size &+ 1
            guard let base, !overflowed, size < capacity &- used else {
                if base != nil { overflowed = true }
                return (nil, size)
            }
            let start = base + used
            var at = SnapshotWriter.copy(first, to: start)
            for index in 0..<extra { at = SnapshotWriter.copy(more[index], to: start + at) &+ at }
            start[at] = 0
            used &+= size &+ 1
            return (UnsafePointer(start), size)
        }
    }

    /// Copies `count` bytes: short texts (most labels, ids, values typed into a field) in place,
    /// longer ones with memcpy (a call and a size dispatch cost more than a short copy).
    /// In place by 8-byte words, the last word overlapping the one before: a byte loop cost about
    /// 4 instructions a byte, most of the writer's own work (callgrind).
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

    /// The fourth version's texts of a field with no failure: code "", params "{}", display code
    /// "", display params "{}", each with its NUL, and the empty error-code list's final NUL.
    private static let noFailureBlock: StaticString = "\0{}\0\0{}\0\0"

    /// The fourth version's members: codes and parameters, read in place.
    private static func writeFailures(_ strings: StateTexts, errorCount: Int, to out: UnsafeMutablePointer<fw_snapshot>,
                                      texts: inout TextBuffer) {
        if strings.failures.isEmpty {
            // No failure: what the general path below writes, without its three lookups; as one
            // block when it fits (code, params, display code, display params, the error codes'
            // final NUL: "\0{}\0\0{}\0\0"), else text by text, each NULL once the buffer is full.
            if errorCount <= 0, let block = noFailureBlock.withUTF8Buffer({ texts.appendBlock($0) }) {
                out.pointee.code_length = 0
                out.pointee.params_length = 2
                out.pointee.display_code_length = 0
                out.pointee.display_params_length = 2
                out.pointee.code = block
                out.pointee.params = block + 1
                out.pointee.display_code = block + 4
                out.pointee.display_params = block + 5
                out.pointee.error_codes_size = 0
                out.pointee.error_codes = block + 8
                return
            }
            let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
            StaticString("{}").withUTF8Buffer { params in
                out.pointee.code_length = 0
                out.pointee.params_length = params.count
                out.pointee.code = texts.append(none)
                out.pointee.params = texts.append(params)
                out.pointee.display_code_length = 0
                out.pointee.display_params_length = params.count
                out.pointee.display_code = texts.append(none)
                out.pointee.display_params = texts.append(params)
            }
            let (codes, codesSize) = texts.appendList(none, errorCount > 1 ? strings.failures.moreCodes : [], count: errorCount)
            out.pointee.error_codes_size = codesSize
            out.pointee.error_codes = codes
            return
        }
        let more = errorCount > 1 ? strings.failures.moreCodes : []
        let sameDisplay = strings.failures.displaysValidity
        // One lookup of the validity's failure serves its code, its parameters and the first error
        // code; the display's is looked up only when it names another failure.
        strings.failures.withFailure(.validity) { code, params in
            out.pointee.code_length = code.count
            out.pointee.params_length = params.count
            out.pointee.code = texts.append(code)
            out.pointee.params = texts.append(params)
            if sameDisplay {
                out.pointee.display_code_length = code.count
                out.pointee.display_params_length = params.count
                out.pointee.display_code = texts.append(code)
                out.pointee.display_params = texts.append(params)
            } else {
                strings.failures.withFailure(.display) { displayCode, displayParams in
                    out.pointee.display_code_length = displayCode.count
                    out.pointee.display_params_length = displayParams.count
                    out.pointee.display_code = texts.append(displayCode)
                    out.pointee.display_params = texts.append(displayParams)
                }
            }
            let (codes, codesSize) = texts.appendList(code, more, count: errorCount)
            out.pointee.error_codes_size = codesSize
            out.pointee.error_codes = codes
        }
    }

    /// Writes the state of the field at `index` into `out` (keeping the caller's `size`) and its
    /// texts into `texts`: the first version's members and texts, and the second's when `size`
    /// (the caller's declared size) covers them. Nothing past the caller's version is written.
    static func write(_ form: UnsafeMutablePointer<Form>, index: Int, to out: UnsafeMutablePointer<fw_snapshot>,
                      size: Int, texts: inout TextBuffer) throws(FormError) {
        let second = size >= secondVersionSize
        let third = size >= thirdVersionSize
        let fourth = size >= fourthVersionSize
        try Form.readState(of: form, at: index) { state, strings in
            let (message, shown, value) = (strings.message, strings.displayMessage, strings.value)
            // Member by member into the caller's struct (keeping its `size`): no temporary to
            // zero and copy, and no byte past the caller's version touched.
            let before = texts.needed
            out.pointee.index = index
            out.pointee.phase = fw_phase(state.phase).rawValue
            out.pointee.validity = fw_validity(state.validity).rawValue
            out.pointee.display = fw_display(state.display).rawValue
            out.pointee.failing_rule = Int32(clamping: state.failingRule ?? -1)
            out.pointee.touched = state.touched
            out.pointee.limit_exceeded = state.limitExceeded
            out.pointee.message_length = message.count
            out.pointee.display_message_length = shown.count
            out.pointee.value_length = value.count
            out.pointee.message = texts.append(message)
            out.pointee.display_message = texts.append(shown)
            out.pointee.value = texts.append(value)
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
                out.pointee.error_count = state.errorCount
                out.pointee.label_length = strings.name.count
                out.pointee.initial_length = strings.initial.count
                out.pointee.hint_length = strings.hint.count
                out.pointee.label = texts.append(strings.name)
                out.pointee.initial = texts.append(strings.initial)
                out.pointee.hint = texts.append(strings.hint)
                let (errors, errorsSize) = texts.appendList(message, state.errorCount > 1 ? strings.moreErrors : [],
                                                            count: state.errorCount)
                out.pointee.errors_size = errorsSize
                out.pointee.errors = errors
            }
            if third {
                out.pointee.secret = state.secret
                out.pointee.normalized_length = strings.normalized.count
                out.pointee.normalized = texts.append(strings.normalized)
            }
            if fourth { writeFailures(strings, errorCount: state.errorCount, to: out, texts: &texts) }
            out.pointee.text_size = texts.needed &- before
        }
    }
}
