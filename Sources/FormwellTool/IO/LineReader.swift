import Glibc

/// Reads a descriptor in 64 KiB chunks and hands out physical lines (without their line end),
/// numbered from 1. Never holds more than the current line and one chunk, and refuses a line
/// longer than `maxLineBytes` (a file with no line ends, such as /dev/zero, ends there with an
/// error instead of growing without bound). A UTF-8 byte order mark at the very start is skipped.
///
/// Lines end at LF. With `endsLinesAtCR` set (CSV), a CR not followed by LF ends a line too, as in
/// the "CSV (Macintosh)" files some spreadsheets export; `lastLineEnd` tells which end a line had.
final class LineReader {
    private let fd: Int32
    let name: String
    /// The longest line handed out, in bytes; the option that raises it is named in the error.
    let maxLineBytes: Int
    let limitOption: String
    var endsLinesAtCR = false
    /// The line end of the line `nextLine` returned last: LF, CRLF, CR, or empty at the end of input.
    private(set) var lastLineEnd: [UInt8] = []
    private var buffer: [UInt8]
    /// The first unconsumed byte and one past the last read byte.
    private var start = 0
    private var end = 0
    private var atEnd = false
    private var checkedBOM = false
    /// The number of the line `nextLine` returned last.
    private(set) var lineNumber = 0

    init(fd: Int32, name: String, maxLineBytes: Int = Limits.defaultMaxLineBytes, limitOption: String = "--max-line-bytes",
         chunkSize: Int = 1 << 16) {
        self.fd = fd
        self.name = name
        self.maxLineBytes = maxLineBytes
        self.limitOption = limitOption
        buffer = [UInt8](repeating: 0, count: chunkSize)
    }

    /// The next physical line, or nil at the end of the input. The slice is only valid until the
    /// next call (keeping it makes the next read copy the buffer).
    func nextLine() throws(ToolError) -> ArraySlice<UInt8>? {
        try skipBOM()
        var scanFrom = start
        while true {
            if let end = findLineEnd(from: scanFrom) {
                if end.isCR && end.index + 1 == self.end && !atEnd {
                    // A CR as the last byte read: whether an LF follows is known after the next read.
                    let scanned = end.index - start
                    try checkLength(scanned)
                    if try fill() { scanFrom = start + scanned; continue }
                }
                try checkLength(end.index - start)
                let line = buffer[start..<end.index]
                var next = end.index + 1
                if end.isCR {
                    if next < self.end && buffer[next] == 10 {
                        next += 1
                        lastLineEnd = [13, 10]
                    } else {
                        lastLineEnd = [13]
                    }
                } else {
                    lastLineEnd = [10]
                }
                start = next
                lineNumber += 1
                return line
            }
            let scanned = end - start
            try checkLength(scanned)
            guard try fill() else {
                guard start < end else { return nil }
                let line = buffer[start..<end]
                start = end
                lineNumber += 1
                lastLineEnd = []
                return line
            }
            scanFrom = start + scanned
        }
    }

    /// Refuses a line once it holds more than `maxLineBytes`.
    private func checkLength(_ count: Int) throws(ToolError) {
        guard count > maxLineBytes else { return }
        throw ToolError("\(name): line \(lineNumber + 1) is longer than \(Limits.describe(maxLineBytes)) "
            + "(\(limitOption) raises the limit)")
    }

    /// The first line end at or after `from`: an LF, or (with `endsLinesAtCR`) a CR.
    private func findLineEnd(from: Int) -> (index: Int, isCR: Bool)? {
        guard let lf = Self.find(10, in: buffer, from: from, to: end) else {
            guard endsLinesAtCR, let cr = Self.find(13, in: buffer, from: from, to: end) else { return nil }
            return (cr, true)
        }
        guard endsLinesAtCR, let cr = Self.find(13, in: buffer, from: from, to: lf) else { return (lf, false) }
        // A CR right before the LF is the CRLF's: the line ends at the CR either way.
        return (cr, true)
    }

    /// The first byte that is not JSON white space, without consuming anything (for sniffing).
    func firstNonBlankByte() throws(ToolError) -> UInt8? {
        try skipBOM()
        var offset = 0
        while true {
            while start + offset < end {
                let byte = buffer[start + offset]
                if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return byte }
                offset += 1
            }
            guard try fill() else { return nil }
        }
    }

    /// Everything left, as one array (for small files only): refused past `maxLineBytes` in all.
    func readToEnd() throws(ToolError) -> [UInt8] {
        while try fill() {
            guard end - start <= maxLineBytes else {
                throw ToolError("\(name): larger than \(Limits.describe(maxLineBytes)) (\(limitOption) raises the limit)")
            }
        }
        return Array(buffer[start..<end])
    }

    private func skipBOM() throws(ToolError) {
        guard !checkedBOM else { return }
        checkedBOM = true
        while end - start < 3, try fill() {}
        if end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF {
            start += 3
        }
    }

    /// Reads more bytes after the unconsumed ones (moving them to the front, or growing the buffer
    /// for a line longer than it). False at the end of the input.
    private func fill() throws(ToolError) -> Bool {
        if atEnd { return false }
        if end == buffer.count {
            if start > 0 {
                let count = end - start
                buffer.withUnsafeMutableBufferPointer { pointer in
                    guard let base = pointer.baseAddress else { return }
                    _ = memmove(base, base + start, count)
                }
                (start, end) = (0, count)
            } else {
                buffer.append(contentsOf: repeatElement(0, count: buffer.count))
            }
        }
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
                guard let base = pointer.baseAddress else { return 0 }
                return read(fd, base + end, pointer.count - end)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw ToolError("\(name): \(FileDescriptor.describe(errno))")
            }
            if count == 0 {
                atEnd = true
                return false
            }
            end += count
            return true
        }
    }

    private static func find(_ byte: UInt8, in buffer: [UInt8], from: Int, to: Int) -> Int? {
        guard from < to else { return nil }
        return buffer.withUnsafeBufferPointer { pointer -> Int? in
            guard let base = pointer.baseAddress else { return nil }
            guard let found = memchr(base + from, Int32(byte), to - from) else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }
}
