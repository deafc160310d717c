extension SnapshotWriter {
    /// The caller's text buffer, consumed front to back.
    struct TextBuffer {
        let base: UnsafeMutablePointer<CChar>?
        let capacity: Int
        var used = 0
        /// Bytes every text written so far needed, copied or not.
        var needed = 0
        /// A text did not fit, so it and every later text were not copied.
        var overflowed = false

        /// The buffer at `base` of `capacity` bytes; nil when `base` is NULL but `capacity` is not 0
        /// (no buffer is capacity 0).
        @inline(__always)
        init?(base: UnsafeMutablePointer<CChar>?, capacity: UInt) {
            if base == nil && capacity != 0 { return nil }
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

        /// Reserves `count` bytes, counted as needed and used, if they fit (and nothing before them
        /// overflowed): answers where they start, or nil with nothing counted.
        @inline(__always)
        mutating func reserve(_ count: Int) -> UnsafeMutablePointer<CChar>? {
            guard let base, !overflowed, count <= capacity &- used else { return nil }
            let start = base + used
            needed &+= count
            used &+= count
            return start
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
}
