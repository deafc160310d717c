#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A field's value: its UTF-8 bytes (always valid UTF-8), in storage that a new value reuses, so a
/// keystroke stores its bytes without allocating. A `String` is made only when one is asked for.
struct FieldValue: Sendable {
    /// The storage: the value is its first `count` bytes; the rest is spare room kept from a longer
    /// earlier value (copying over the room needs no generic array operation), and always at least
    /// `padding` initialized bytes: PCRE2's JIT scans with aligned vector loads that may read a few
    /// bytes past the subject's end (harmless, never used), and those bytes must not be
    /// uninitialized heap memory (valgrind's memcheck reports the JIT's jumps on them otherwise).
    private var storage: [UInt8]
    private(set) var count: Int
    static let padding = 32

    init(_ string: String) {
        storage = Array(string.utf8)
        count = storage.count
        storage.append(contentsOf: repeatElement(0, count: Self.padding))
    }

    init(_ bytes: ValidUTF8) {
        storage = Array(bytes.bytes)
        count = storage.count
        storage.append(contentsOf: repeatElement(0, count: Self.padding))
    }

    /// From bytes known to be valid UTF-8 (a normaliser's output).
    init(_ bytes: [UInt8]) {
        storage = bytes
        count = storage.count
        storage.append(contentsOf: repeatElement(0, count: Self.padding))
    }

    var isEmpty: Bool { count == 0 }

    /// The value's bytes (a copy).
    var utf8: ArraySlice<UInt8> { storage[..<min(count, storage.count)] }

    var string: String { String(decoding: utf8, as: UTF8.self) }

    /// Replaces the value with `bytes`, reusing the storage when it has room; a much longer earlier
    /// value's storage (over 4 KiB and 4 times the new length) is given back.
    /// Inlined (every keystroke runs it), the new storage made out of line.
    @inline(__always)
    mutating func replace(with bytes: ValidUTF8) {
        let newCount = bytes.bytes.count
        if newCount > storage.count - Self.padding || (storage.count > 4096 && newCount < storage.count / 4) {
            replaceStorage(with: bytes)
            return
        }
        if newCount > 0, let source = bytes.bytes.baseAddress {
            storage.withUnsafeMutableBufferPointer { target in
                target.baseAddress?.update(from: source, count: newCount)
            }
        }
        count = newCount
    }

    @inline(never)
    private mutating func replaceStorage(with bytes: ValidUTF8) {
        self = FieldValue(bytes)
    }

    /// The bytes, borrowed in place. Mutating only so that a value reached through a pointer is not
    /// copied first (nothing is changed). Through the storage's `span`: a read borrow that neither
    /// retains the storage nor checks that it is unique, where a mutable borrow calls
    /// swift_isUniquelyReferenced on every read of a value (twice per snapshot).
    mutating func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        let count = self.count
        return try storage.span.withUnsafeBufferPointer { (bytes) throws(E) -> R in
            try body(UnsafeBufferPointer(rebasing: bytes[..<min(count, bytes.count)]))
        }
    }

    /// Whether the value's bytes are exactly `bytes` (memcmp: a keystroke on a megabyte value must
    /// not walk it byte by byte, least of all in a debug build).
    mutating func equals(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Lengths first: a keystroke changes the length, and then the storage is not borrowed.
        guard count == bytes.count else { return false }
        return withBytes { own in FieldValue.sameBytes(own, bytes) }
    }

    /// Whether two values hold the same bytes.
    static func same(_ a: FieldValue, _ b: FieldValue) -> Bool {
        guard a.count == b.count else { return false }
        return a.storage.withUnsafeBufferPointer { first in
            b.storage.withUnsafeBufferPointer { second in
                sameBytes(UnsafeBufferPointer(rebasing: first[..<min(a.count, first.count)]),
                          UnsafeBufferPointer(rebasing: second[..<min(b.count, second.count)]))
            }
        }
    }

    /// Byte equality of two buffers.
    static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0, let left = a.baseAddress, let right = b.baseAddress else { return true }
        return memcmp(left, right, a.count) == 0
    }
}
