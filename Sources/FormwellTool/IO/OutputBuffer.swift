import Glibc

/// Buffered writes to a file descriptor (standard output): one `write(2)` per 64 KiB.
/// When the reader has gone away (EPIPE), further output is dropped.
final class OutputBuffer {
    private let fd: Int32
    private var bytes: [UInt8] = []
    private var broken = false
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
        guard !broken else { return }
        if !FileDescriptor.writeAll(fd, bytes) { broken = true }
    }
}

/// Unbuffered writes to standard error: diagnostics, notes and the progress line.
enum StandardError {
    static func write(_ text: String) {
        _ = FileDescriptor.writeAll(STDERR_FILENO, Array(text.utf8))
    }

    static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}

enum FileDescriptor {
    /// Writes every byte, retrying after EINTR and short writes; false on any other error.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// The system's text for an errno value ("No such file or directory").
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
