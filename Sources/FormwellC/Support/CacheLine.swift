/// Allocations that no other allocation shares a cache line with: each form's lock and storage are
/// written on every call, and two forms created one after the other would otherwise sit side by side,
/// so two threads each on its own form would keep stealing the line from each other (false sharing).
enum CacheLine {
    /// Two lines: adjacent-line prefetching pairs lines on x86.
    static let size = 128

    static func allocate<T>(_ type: T.Type) -> UnsafeMutablePointer<T> {
        let bytes = (MemoryLayout<T>.stride + size - 1) / size * size
        return UnsafeMutableRawPointer.allocate(byteCount: max(bytes, size), alignment: size)
            .bindMemory(to: T.self, capacity: 1)
    }

    static func deallocate<T>(_ pointer: UnsafeMutablePointer<T>) {
        UnsafeMutableRawPointer(pointer).deallocate()
    }
}
