import Glibc

/// Buffered writes to a file descriptor (standard output): one `write(2)` per 64 KiB.
///
/// Every write is checked. The first failure (a full disk, a closed descriptor, a pipe whose reader
/// has gone while SIGPIPE is ignored) is kept in `failure`, and nothing more is written; the
/// command turns it into exit status 2 with the system's message. With SIGPIPE at its default, a
/// vanished reader ends the process by that signal, as it does for every Unix filter.
final class OutputBuffer {
    private let fd: Int32
    private var bytes: [UInt8] = []
    /// The errno of the first failed write, if any.
    private(set) var failure: Int32?
    private static let capacity = 1 << 16

    init(fd: Int32) {
        self.fd = fd
        bytes.reserveCapacity(Self.capacity + 1024)
    }

    func write(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        if bytes.count >= Self.capacity { flush() }
    }

    /// Lets `body` append bytes directly (no String made on the way).
    func append(_ body: (inout [UInt8]) -> Void) {
        body(&bytes)
        if bytes.count >= Self.capacity { flush() }
    }

    func write(bytes more: [UInt8]) {
        bytes.append(contentsOf: more)
        if bytes.count >= Self.capacity { flush() }
    }

    func flush() {
        defer { bytes.removeAll(keepingCapacity: true) }
        guard failure == nil, !bytes.isEmpty else { return }
        if let code = FileDescriptor.writeAll(fd, bytes) { failure = code }
    }

    /// Flushes, then closes the descriptor, so that an error the system reports only at close
    /// (a deferred write on a network file system) is caught too. Throws the first failure.
    func finish() throws(ToolError) {
        flush()
        if failure == nil, close(fd) != 0, errno != EINTR { failure = errno }
        try check()
    }

    /// Throws the first failed write as "write error: <the system's message>".
    func check() throws(ToolError) {
        if let failure { throw ToolError("write error: \(FileDescriptor.describe(failure))") }
    }
}

/// Unbuffered writes to standard error: diagnostics, notes and the progress line. A failure here
/// has nowhere to be reported, so it is ignored.
enum StandardError {
    static func write(_ text: String) {
        _ = FileDescriptor.writeAll(STDERR_FILENO, Array(text.utf8))
    }

    static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}

enum FileDescriptor {
    /// Writes every byte, retrying after EINTR and short writes; the errno of any other failure,
    /// nil when everything was written.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if written == 0 { return EIO }
                offset += written
            }
            return nil
        }
    }

    /// The system's text for an errno value ("No such file or directory").
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
