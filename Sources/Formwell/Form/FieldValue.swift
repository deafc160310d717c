/// A field's value: its UTF-8 bytes (always valid UTF-8), in storage that a new value of the same
/// or smaller size reuses, so a keystroke stores its bytes without allocating. A `String` is made
/// only when one is asked for.
struct FieldValue: Sendable {
    private(set) var utf8: [UInt8]

    init(_ string: String) { utf8 = Array(string.utf8) }

    init(_ bytes: ValidUTF8) { utf8 = Array(bytes.bytes) }

    var isEmpty: Bool { utf8.isEmpty }

    var string: String { String(decoding: utf8, as: UTF8.self) }

    /// Replaces the value with `bytes`, reusing the storage.
    mutating func replace(with bytes: ValidUTF8) {
        let count = bytes.bytes.count
        // Same length (a typo fixed in place) or shorter: copy over the storage and trim. Longer:
        // let the array grow (doubling, so a typed value reallocates a logarithmic number of times).
        if count <= utf8.count, let source = bytes.bytes.baseAddress {
            utf8.withUnsafeMutableBufferPointer { target in
                target.baseAddress?.update(from: source, count: count)
            }
            utf8.removeLast(utf8.count - count)
        } else {
            utf8.removeAll(keepingCapacity: true)
            utf8.append(contentsOf: bytes.bytes)
        }
    }

    /// The bytes, borrowed in place. Mutating only so that a value reached through a pointer is not
    /// copied first (nothing is changed).
    mutating func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try utf8.withUnsafeMutableBufferPointer { (bytes) throws(E) -> R in try body(UnsafeBufferPointer(bytes)) }
    }
}
