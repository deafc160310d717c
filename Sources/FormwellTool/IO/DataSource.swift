import Glibc

/// Opening the spec and the data: files by path, `-` for standard input.
enum DataSource {
    /// A readable descriptor for DATA (standard input for `-`).
    static func open(_ path: String) throws(ToolError) -> Int32 {
        if path == "-" { return STDIN_FILENO }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ToolError("\(path): \(FileDescriptor.describe(errno))") }
        return fd
    }

    /// The whole of a (small) file, such as the spec, refused past `maxBytes`.
    static func readAll(_ path: String, maxBytes: Int, limitOption: String) throws(ToolError) -> [UInt8] {
        let fd = try open(path)
        defer { if fd != STDIN_FILENO { close(fd) } }
        let reader = LineReader(fd: fd, name: path, maxLineBytes: maxBytes, limitOption: limitOption)
        return try reader.readToEnd()
    }
}
