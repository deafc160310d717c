/// A field's value: its UTF-8 bytes (always valid UTF-8), in storage that a new value reuses, so a
/// keystroke stores its bytes without allocating. A `String` is made only when one is asked for.
struct FieldValue: Sendable {
    /// The storage: the value is its first `count` bytes; the rest is spare room kept from a longer
    /// earlier value (copying over the room needs no generic array operation).
    private var storage: [UInt8]
    private(set) var count: Int

    init(_ string: String) {
        storage = Array(string.utf8)
        count = storage.count
    }

    init(_ bytes: ValidUTF8) {
        storage = Array(bytes.bytes)
        count = storage.count
    }

    var isEmpty: Bool { count == 0 }

    /// The value's bytes (a copy).
    var utf8: ArraySlice<UInt8> { storage[..<min(count, storage.count)] }

    var string: String { String(decoding: utf8, as: UTF8.self) }

    /// Replaces the value with `bytes`, reusing the storage when it has room; a much longer earlier
    /// value's storage (over 4 KiB and 4 times the new length) is given back.
    mutating func replace(with bytes: ValidUTF8) {
        let newCount = bytes.bytes.count
        if newCount > storage.count || (storage.count > 4096 && newCount < storage.count / 4) {
            storage = Array(bytes.bytes)
            count = newCount
            return
        }
        if newCount > 0, let source = bytes.bytes.baseAddress {
            storage.withUnsafeMutableBufferPointer { target in
                target.baseAddress?.update(from: source, count: newCount)
            }
        }
        count = newCount
    }

    /// The bytes, borrowed in place. Mutating only so that a value reached through a pointer is not
    /// copied first (nothing is changed).
    mutating func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        let count = self.count
        return try storage.withUnsafeMutableBufferPointer { (bytes) throws(E) -> R in
            try body(UnsafeBufferPointer(rebasing: bytes[..<min(count, bytes.count)]))
        }
    }
}
