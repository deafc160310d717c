// libFuzzer harness: fw_form_check_arrow / fw_form_arrow_message on a struct array (ArrowSchema +
// ArrowArray, the Arrow C Data Interface) whose every part comes from the input: the struct's length,
// offset, null_count, validity and child count (with lies: mismatched n_children, bad n_buffers, a NULL
// child, a negative length); each child's format (utf8 "u", large_utf8 "U", string_view "vu", a
// dictionary with index type c/s/i/l/C/S/I/L over a "u"/"U" dictionary, or "i"/"z"/"b"), name (a
// field id, unknown, NULL, not UTF-8), offset, length (short, exact, longer, negative), null_count
// (0, -1, honest, lying), validity bitmap, offsets (honest or raw: decreasing, negative, past the
// data), data bytes (any), string views (inline or into 0-2 variadic buffers, index/offset/length
// possibly out of range, declared sizes honest or smaller) and dictionary (indices possibly out of
// range, nulls, its own offsets and data). What the interface does not let a consumer check is never
// lied about: every buffer is allocated (malloc'd, so ASan sees overruns) at least as large as the
// declared offset + length and the largest offset in it imply, variadic buffers at least their
// declared sizes, and every `buffers` / `children` array holds n_buffers / n_children entries.
// Release callbacks are non-NULL and count their calls: the library must never call one.
//
// Input: the form byte as in BatchColumns (even: the registration spec; odd: a small decoded form),
// then threads, outputs, struct (length, offset/null mode/lies, child count), the struct bitmap,
// then per child: kind byte (bits 0-3 the format, 4-6 the index type, 7 a lie), name byte, layout
// byte (child offset, length delta, null_count mode, bitmap), [lie byte], bitmap, then the kind's
// buffers; finally two bytes picking records for fw_form_arrow_message. FORMWELL_FUZZ_ARROW_TRACE=1
// prints what each replayed input did and what the model expected. Seeds: Fuzz/make_seeds.py.
//
// Invariants: the status is FW_OK, FW_ERR_INVALID_ARGUMENT or FW_ERR_INVALID_UTF8 (FW_ERR_NULL_ARGUMENT
// for a NULL struct); the last error matches; no release callback is called; faults the library
// documents it checks (counts, formats, names, offsets, UTF-8, view bounds, dictionary indices) are
// never accepted, and nothing else is refused; on FW_OK each record's valid flag equals "all its
// failing rules are -1", the invalid count matches, and every output equals fw_form_check_batch's on
// fw_columns the harness builds from the values it put in the struct; fw_form_arrow_message equals
// fw_form_batch_message for up to 2 sampled records. The form's observable state never changes.
import FormwellC
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif


private let traceInputs = getenv("FORMWELL_FUZZ_ARROW_TRACE").map { String(cString: $0) == "1" } ?? false
nonisolated(unsafe) private var releaseCalls = 0
private let releaseSchema: @convention(c) (UnsafeMutablePointer<ArrowSchema>?) -> Void = { _ in releaseCalls += 1 }
private let releaseArray: @convention(c) (UnsafeMutablePointer<ArrowArray>?) -> Void = { _ in releaseCalls += 1 }

/// Every block the harness hands the library; freed when the input is done.
private final class Arena {
    var blocks: [UnsafeMutableRawPointer] = []
    func alloc(_ count: Int) -> UnsafeMutableRawPointer {
        let p = malloc(max(count, 1))!
        memset(p, 0, max(count, 1))
        blocks.append(p)
        return p
    }
    func bytes(_ b: [UInt8], size: Int? = nil) -> UnsafeMutableRawPointer {
        let p = alloc(max(size ?? b.count, b.count))
        for (i, x) in b.enumerated() { p.storeBytes(of: x, toByteOffset: i, as: UInt8.self) }
        return p
    }
    func cString(_ b: [UInt8]) -> UnsafePointer<CChar> {
        UnsafePointer(bytes(b + [0]).assumingMemoryBound(to: CChar.self))
    }
    func schema() -> UnsafeMutablePointer<ArrowSchema> {
        let s = alloc(MemoryLayout<ArrowSchema>.size).bindMemory(to: ArrowSchema.self, capacity: 1)
        s.initialize(to: ArrowSchema())
        s.pointee.flags = Int64(ARROW_FLAG_NULLABLE)
        s.pointee.release = releaseSchema
        return s
    }
    func array() -> UnsafeMutablePointer<ArrowArray> {
        let a = alloc(MemoryLayout<ArrowArray>.size).bindMemory(to: ArrowArray.self, capacity: 1)
        a.initialize(to: ArrowArray())
        a.pointee.release = releaseArray
        return a
    }
    func pointers(_ items: [UnsafeRawPointer?], count: Int) -> UnsafeMutablePointer<UnsafeRawPointer?> {
        let p = alloc(max(count, items.count) * 8).bindMemory(to: UnsafeRawPointer?.self, capacity: max(count, items.count, 1))
        for i in 0..<max(count, items.count) { p[i] = i < items.count ? items[i] : nil }
        return p
    }
    deinit { for b in blocks { free(b) } }
}

private func bitClear(_ bitmap: [UInt8], _ bit: Int) -> Bool { bitmap[bit >> 3] & (1 << UInt8(bit & 7)) == 0 }

/// A null_count from its mode: 0, -1, the honest count of clear bits in [from, from + count), one more.
private func nullCount(_ mode: UInt8, _ bitmap: [UInt8]?, from: Int, count: Int) -> Int64 {
    var clear: Int64 = 0
    if let bitmap { for i in max(from, 0)..<max(from + count, max(from, 0)) where i < bitmap.count * 8 && bitClear(bitmap, i) { clear += 1 } }
    switch mode & 3 { case 0: return 0; case 1: return -1; case 2: return clear; default: return clear + 1 }
}

private enum Kind { case utf8, large, view, dictionary, other }

/// A utf8 / large_utf8 layout (a child or a dictionary) as built.
private struct Strings {
    var offsets: [Int64] = []
    var offsetsNull = false
    var data: [UInt8] = []      // padded with zeros to the allocated size
    var dataNull = false

    static func decode(_ reader: inout ByteReader, slots: Int, large: Bool) -> Strings {
        var s = Strings()
        s.data = reader.chunk(limit: 40)
        let mode = reader.byte()
        var at = Int64(Int(mode >> 1) % (s.data.count + 1))
        for i in 0...slots {
            if mode & 1 == 0 {
                s.offsets.append(at)
                if i < slots { at = min(at + Int64(reader.byte() % 8), Int64(s.data.count)) }
            } else {
                s.offsets.append(Int64(Int8(bitPattern: reader.byte())))
            }
        }
        s.offsetsNull = mode & 0x0E == 0x0E
        s.dataNull = mode & 0x70 == 0x70
        let needed = max(s.data.count, Int(s.offsets.max() ?? 0))
        s.data += [UInt8](repeating: 0, count: needed - s.data.count)
        return s
    }

    func buffers(_ arena: Arena, validity: UnsafeRawPointer?, large: Bool) -> [UnsafeRawPointer?] {
        let width = large ? 8 : 4
        var offsetsPointer: UnsafeRawPointer? = nil
        if !offsetsNull {
            let p = arena.alloc(offsets.count * width)
            for (i, v) in offsets.enumerated() {
                if large { p.storeBytes(of: v, toByteOffset: i * 8, as: Int64.self) }
                else { p.storeBytes(of: Int32(v), toByteOffset: i * 4, as: Int32.self) }
            }
            offsetsPointer = UnsafeRawPointer(p)
        }
        return [validity, offsetsPointer, dataNull ? nil : UnsafeRawPointer(arena.bytes(data))]
    }

    /// Entry `slot`'s bytes, or a fault (offsets the library checks; data NULL under a non-empty value).
    func value(_ slot: Int) -> ([UInt8]?, String?) {
        if offsetsNull { return (nil, "NULL offsets") }
        let a = offsets[slot], b = offsets[slot + 1]
        if a < 0 || b < a { return (nil, "offsets \(a), \(b) at \(slot)") }
        if b > a && dataNull { return (nil, "NULL data") }
        return (Array(data[Int(a)..<Int(b)]), nil)
    }
}

private final class Child {
    var kind = Kind.utf8
    var format: [UInt8] = []
    var name: [UInt8]? = nil
    var offset: Int64 = 0, length: Int64 = 0, nulls: Int64 = 0
    var bitmap: [UInt8]? = nil
    var nBuffersLie: Int64 = 0
    var nullChild = false
    var uncertain = false
    var strings = Strings()
    // string_view
    var views: [[UInt8]] = []
    var variadic: [[UInt8]] = []
    var sizes: [Int64] = []
    // dictionary
    var indexWidth = 4, indexSigned = true
    var indices: [UInt64] = []
    var dictionary = Strings()
    var dictionaryLarge = false, dictionaryFormatLie = false, dictionaryMissing = false
    var dictOffset: Int64 = 0, dictLength: Int64 = 0, dictNulls: Int64 = 0
    var dictBitmap: [UInt8]? = nil
    var schema: UnsafeMutablePointer<ArrowSchema>? = nil
    var array: UnsafeMutablePointer<ArrowArray>? = nil

    var slots: Int { max(0, Int(offset + length)) }
    func isNull(_ slot: Int) -> Bool { nulls != 0 && bitmap.map { bitClear($0, slot) } ?? false }
}

private let indexFormats: [(String, Int, Bool)] = [("c", 1, true), ("s", 2, true), ("i", 4, true), ("l", 8, true),
                                                   ("C", 1, false), ("S", 2, false), ("I", 4, false), ("L", 8, false)]

private func decodeChild(_ reader: inout ByteReader, position: Int, needed: Int64, ids: [String], arena: Arena) -> Child {
    let c = Child()
    let k = reader.byte(), nb = reader.byte(), layout = reader.byte()
    switch k & 15 {
    case 0...3: c.kind = .utf8; c.format = Array("u".utf8)
    case 4, 5: c.kind = .large; c.format = Array("U".utf8)
    case 6...8: c.kind = .view; c.format = Array("vu".utf8)
    case 9...12:
        c.kind = .dictionary
        let (f, w, s) = indexFormats[Int(k >> 4) & 7]
        c.format = Array(f.utf8); c.indexWidth = w; c.indexSigned = s
    case 13: c.kind = .other; c.format = Array("i".utf8)
    case 14: c.kind = .other; c.format = Array("z".utf8)
    default: c.kind = .other; c.format = Array("b".utf8)
    }
    switch nb % 8 {
    case 0...3: c.name = ids.isEmpty ? Array("zz".utf8) : Array(ids[position % ids.count].utf8)   // distinct
    case 4: c.name = ids.isEmpty ? Array("zz".utf8) : Array(ids[Int(nb >> 3) % ids.count].utf8)
    case 5: c.name = Array("zz".utf8)
    case 6: c.name = nil
    default: c.name = nb & 0x80 != 0 ? [0x66, 0xC3] : []
    }
    c.offset = Int64(layout & 3)
    switch (layout >> 2) & 7 {
    case 0...3: c.length = max(needed, 0)
    case 4: c.length = max(needed, 0) + 1
    case 5: c.length = max(needed, 0) + 3
    case 6: c.length = max(needed, 0) - 1
    default: c.length = -1
    }
    let lie = k & 0x80 != 0 ? reader.byte() % 16 : 255  // 0-4: a lie
    switch lie {
    case 0: c.nBuffersLie = -1
    case 1: c.nBuffersLie = 1
    case 2: c.nullChild = true
    case 3: c.offset = -1
    default: break
    }
    let slots = c.slots
    if layout & 0x80 != 0 {
        c.bitmap = (0..<((slots + 7) / 8)).map { _ in reader.byte() }
    }
    c.nulls = nullCount(layout >> 5, c.bitmap, from: Int(c.offset), count: Int(c.length))
    if lie == 4 { c.nulls = -2 }
    switch c.kind {
    case .utf8, .large:
        c.strings = Strings.decode(&reader, slots: slots, large: c.kind == .large)
    case .other:
        if c.format == Array("z".utf8) { c.strings = Strings.decode(&reader, slots: slots, large: false) }
    case .view:
        let count = Int(reader.byte() % 3)
        for _ in 0..<count { c.variadic.append(reader.chunk(limit: 32)) }
        let sizeMode = reader.byte()
        c.sizes = c.variadic.enumerated().map { i, b in sizeMode & (1 << UInt8(i)) != 0 ? Int64(b.count / 2) : Int64(b.count) }
        for _ in 0..<slots {
            var view = [UInt8](repeating: 0, count: 16)
            let lb = reader.byte()
            let length = lb >= 0xF0 ? Int32(Int8(bitPattern: lb)) : Int32(lb % 24)
            withUnsafeBytes(of: length.littleEndian) { for i in 0..<4 { view[i] = $0[i] } }
            if length <= 12 {
                for i in 0..<Int(max(length, 0)) { view[4 + i] = reader.byte() }
            } else {
                let index = Int32(reader.byte() % UInt8(count + 1)), at = Int32(reader.byte() % 40)
                if Int(index) < count { for i in 0..<4 where Int(at) + i < c.variadic[Int(index)].count { view[4 + i] = c.variadic[Int(index)][Int(at) + i] } }
                withUnsafeBytes(of: index.littleEndian) { for i in 0..<4 { view[8 + i] = $0[i] } }
                withUnsafeBytes(of: at.littleEndian) { for i in 0..<4 { view[12 + i] = $0[i] } }
            }
            c.views.append(view)
        }
        if c.nBuffersLie != 0 { c.nBuffersLie = Int64(-1 - count) }  // n_buffers 2: never a data buffer read as sizes
    case .dictionary:
        for _ in 0..<slots {
            let raw = Int64(Int8(bitPattern: reader.byte()))
            let mask: UInt64 = c.indexWidth == 8 ? ~0 : (1 << UInt64(c.indexWidth * 8)) - 1
            c.indices.append(UInt64(bitPattern: raw) & mask)
        }
        let d = reader.byte()
        c.dictionaryLarge = d & 1 != 0
        c.dictionaryFormatLie = d & 0x0E == 0x0E
        c.dictionaryMissing = d & 0x70 == 0x70
        c.dictOffset = Int64((d >> 4) & 1)
        c.dictLength = Int64(reader.byte() % 6)
        let dl = reader.byte()
        let dslots = Int(c.dictOffset + c.dictLength)
        if dl & 0x80 != 0 { c.dictBitmap = (0..<((dslots + 7) / 8)).map { _ in reader.byte() } }
        c.dictNulls = nullCount(dl, c.dictBitmap, from: Int(c.dictOffset), count: Int(c.dictLength))
        c.dictionary = Strings.decode(&reader, slots: dslots, large: c.dictionaryLarge)
    }
    build(c, arena)
    return c
}

private func build(_ c: Child, _ arena: Arena) {
    let s = arena.schema(), a = arena.array()
    s.pointee.format = arena.cString(c.format)
    s.pointee.name = c.name.map { arena.cString($0) }
    a.pointee.length = c.length
    a.pointee.offset = c.offset
    a.pointee.null_count = c.nulls
    let slots = c.slots
    let validity = c.bitmap.map { UnsafeRawPointer(arena.bytes($0)) }
    var buffers: [UnsafeRawPointer?]
    switch c.kind {
    case .utf8, .large: buffers = c.strings.buffers(arena, validity: validity, large: c.kind == .large)
    case .other:
        if c.format == Array("z".utf8) { buffers = c.strings.buffers(arena, validity: validity, large: false) }
        else { buffers = [validity, UnsafeRawPointer(arena.alloc(slots * 4))] }
    case .view:
        buffers = [validity, UnsafeRawPointer(arena.bytes(c.views.flatMap { $0 }))]
        for v in c.variadic { buffers.append(UnsafeRawPointer(arena.bytes(v))) }
        let sizes = arena.alloc(c.sizes.count * 8)
        for (i, v) in c.sizes.enumerated() { sizes.storeBytes(of: v, toByteOffset: i * 8, as: Int64.self) }
        buffers.append(UnsafeRawPointer(sizes))
    case .dictionary:
        let p = arena.alloc(slots * c.indexWidth)
        for (i, v) in c.indices.enumerated() {
            for b in 0..<c.indexWidth { p.storeBytes(of: UInt8(truncatingIfNeeded: v >> UInt64(8 * b)), toByteOffset: i * c.indexWidth + b, as: UInt8.self) }
        }
        buffers = [validity, UnsafeRawPointer(p)]
        let ds = arena.schema(), da = arena.array()
        ds.pointee.format = arena.cString(Array((c.dictionaryFormatLie ? "i" : c.dictionaryLarge ? "U" : "u").utf8))
        da.pointee.length = c.dictLength
        da.pointee.offset = c.dictOffset
        da.pointee.null_count = c.dictNulls
        da.pointee.n_buffers = 3
        let dbuf = c.dictionary.buffers(arena, validity: c.dictBitmap.map { UnsafeRawPointer(arena.bytes($0)) }, large: c.dictionaryLarge)
        da.pointee.buffers = arena.pointers(dbuf, count: 3)
        s.pointee.dictionary = ds
        if !c.dictionaryMissing { a.pointee.dictionary = da }
    }
    let declared = Int64(buffers.count) + c.nBuffersLie
    a.pointee.n_buffers = declared
    a.pointee.buffers = arena.pointers(buffers, count: Int(max(declared, 0)))
    c.schema = s; c.array = a
}

/// The fault the library must find in child c (named, so checked), nil if none; the values of the records
/// read otherwise (nil: a null, read as "").
private func readChild(_ c: Child, structOffset: Int, records: Int, structNull: (Int) -> Bool) -> (String?, [[UInt8]?]) {
    var values: [[UInt8]?] = []
    if c.kind == .other { return ("format \(show(c.format))", []) }
    if c.offset < 0 || c.length < Int64(structOffset + records) || c.nulls < -1 { return ("counts", []) }
    if c.nBuffersLie != 0 { return ("n_buffers", []) }
    if c.nulls > 0 && c.bitmap == nil { return ("NULL validity", []) }
    if c.kind == .dictionary {
        if c.dictionaryFormatLie { return ("dictionary format", []) }
        if c.dictionaryMissing { return ("no dictionary", []) }
        if c.dictNulls > 0 && c.dictBitmap == nil { return ("NULL dictionary validity", []) }
        if c.dictionary.offsetsNull && c.dictLength > 0 { return ("NULL dictionary offsets", []) }
        if !c.dictionary.offsetsNull && c.dictLength > 0 {  // every entry's offsets, whether used or not
            let o = c.dictionary.offsets, first = Int(c.dictOffset), last = first + Int(c.dictLength)
            if o[first] < 0 { return ("dictionary offsets", []) }
            for e in first..<last where o[e + 1] < o[e] { return ("dictionary offsets", []) }
            if c.dictionary.dataNull && o[last] != 0 { return ("NULL dictionary data", []) }
        }
    }
    if (c.kind == .utf8 || c.kind == .large) && records > 0 && !c.strings.offsetsNull && c.strings.dataNull
        && c.strings.offsets[Int(c.offset) + structOffset + records] != 0 {
        return ("NULL data under offsets past 0", [])  // (refused even when only nulls cover the bytes)
    }
    for r in 0..<records {
        let slot = Int(c.offset) + structOffset + r
        let null = structNull(r) || c.isNull(slot)
        switch c.kind {
        case .utf8, .large:
            if c.strings.offsetsNull { return ("NULL offsets", []) }
            let o = c.strings.offsets
            if o[slot] < 0 || o[slot + 1] < o[slot] { return ("offsets at record \(r)", []) }
            if null { values.append(nil); continue }
            let (v, fault) = c.strings.value(slot)
            if let fault { return (fault, []) }
            if !isValidUTF8(v!) { return ("UTF-8 at record \(r)", []) }
            values.append(v)
        case .view:
            if null { values.append(nil); continue }
            let view = c.views[slot]
            let length = view.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 0, as: Int32.self)) }
            var v: [UInt8]
            if length < 0 { return ("view length", []) }
            if length <= 12 { v = Array(view[4..<(4 + length)]) } else {
                let index = view.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 8, as: Int32.self)) }
                let at = view.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 12, as: Int32.self)) }
                if index >= c.variadic.count || Int64(at + length) > c.sizes[index] { return ("view bounds at record \(r)", []) }
                v = Array(c.variadic[index][at..<(at + length)])
            }
            if !isValidUTF8(v) { return ("UTF-8 at record \(r)", []) }
            values.append(v)
        case .dictionary:
            if null { values.append(nil); continue }
            let raw = c.indices[slot]
            let index: Int64
            if c.indexSigned {
                let shift = UInt64(64 - 8 * c.indexWidth)
                index = Int64(bitPattern: raw << shift) >> Int64(shift)
            } else { index = raw > UInt64(Int64.max) ? -1 : Int64(raw) }
            if index < 0 || index >= c.dictLength { return ("index \(index) at record \(r)", []) }
            let entry = Int(c.dictOffset + index)
            if c.dictNulls != 0, let bits = c.dictBitmap, bitClear(bits, entry) { values.append(nil); continue }
            let (v, fault) = c.dictionary.value(entry)
            if let fault { return ("dictionary " + fault, []) }
            if !isValidUTF8(v!) { return ("dictionary UTF-8 at record \(r)", []) }
            values.append(v)
        case .other: break
        }
    }
    return (nil, values)
}

private func readText(_ call: StringCall) -> (fw_status, [UInt8]) {
    var buf = [CChar](repeating: 0x55, count: 1024)
    var length: UInt = 0
    let status = buf.withUnsafeMutableBufferPointer { call($0.baseAddress, 1024, &length) }
    guard status == .FW_OK else { return (status, []) }
    check(Int(length) < 1024 && buf[Int(length)] == 0, "a message is not NUL-terminated at its length")
    return (status, buf[..<Int(length)].map { UInt8(bitPattern: $0) })
}

@_cdecl("LLVMFuzzerTestOneInput")
public func formwellArrowStructsFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    beginInput(data, size)
    defer { endInput() }
    var reader = ByteReader(data, size)
    let plan = decodePlan(&reader)
    let form = plan.buildTarget()
    var fieldCount: UInt = 0
    check(fw_form_field_count(form, &fieldCount) == .FW_OK, "fw_form_field_count failed")
    let fields = Int(fieldCount)
    let ids = (0..<fields).map { f -> String in
        var buf = [CChar](repeating: 0, count: 64)
        check(fw_form_field_id(form, UInt(f), &buf, 64, nil) == .FW_OK, "fw_form_field_id failed")
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    let threads = Int32(reader.byte() % 4)
    let outputsByte = reader.byte()
    let outputs = outputsByte & 0x80 != 0 ? outputsByte & 0x0F : 0
    let arena = Arena()

    // The struct.
    let s0 = reader.byte(), s1 = reader.byte(), s2 = reader.byte()
    var length = Int64(s0 % 20)
    let structOffset = Int64(s1 & 3)
    let structLie = s1 >> 5 == 7 ? 5 + reader.byte() % 3 : 0  // 5: length -1, 6: n_children differ, 7: n_buffers 0
    if structLie == 5 { length = -1 }
    let childCount = min(Int(s2) % (fields + 3), 8)
    var structBitmap: [UInt8]? = nil
    if s1 & 0x10 != 0 { structBitmap = (0..<((Int(structOffset) + Int(max(length, 0)) + 7) / 8)).map { _ in reader.byte() } }
    let structNulls = nullCount(s1 >> 2, structBitmap, from: Int(structOffset), count: Int(max(length, 0)))
    let needed = structOffset + length
    var children: [Child] = []
    for _ in 0..<childCount { children.append(decodeChild(&reader, position: children.count, needed: needed, ids: ids, arena: arena)) }

    let schema = arena.schema(), array = arena.array()
    let badFormat = s2 & 0xC0 == 0xC0 && s0 & 0xC0 == 0xC0
    schema.pointee.format = arena.cString(Array((badFormat ? "+l" : "+s").utf8))
    schema.pointee.name = arena.cString([])
    schema.pointee.n_children = Int64(childCount)
    let arrayChildren = structLie == 6 ? (childCount > 0 ? childCount - 1 : 1) : childCount
    let sc = arena.alloc(max(childCount, arrayChildren) * 8).bindMemory(to: UnsafeMutablePointer<ArrowSchema>?.self, capacity: max(childCount, arrayChildren, 1))
    let ac = arena.alloc(max(childCount, arrayChildren) * 8).bindMemory(to: UnsafeMutablePointer<ArrowArray>?.self, capacity: max(childCount, arrayChildren, 1))
    for i in 0..<max(childCount, arrayChildren) {
        sc[i] = i < childCount ? children[i].schema : nil
        ac[i] = i < childCount && !children[i].nullChild ? children[i].array : nil
    }
    schema.pointee.children = sc
    array.pointee.children = ac
    array.pointee.n_children = Int64(arrayChildren)
    array.pointee.length = length
    array.pointee.offset = structOffset
    array.pointee.null_count = structNulls
    array.pointee.n_buffers = structLie == 7 ? 0 : 1
    array.pointee.buffers = arena.pointers([structBitmap.map { UnsafeRawPointer(arena.bytes($0)) }], count: 1)
    let nullStruct = s2 & 0x80 != 0 && s2 & 0x40 == 0 && s0 & 0xC0 == 0xC0  // a NULL schema or array (rarely)

    // The model: a fault the library must find, or every named column's values.
    let records = Int(max(length, 0))
    func structNull(_ r: Int) -> Bool { structNulls != 0 && structBitmap.map { bitClear($0, Int(structOffset) + r) } ?? false }
    var fault: String? = nil
    var columns: [(field: Int, values: [[UInt8]?])] = []
    if badFormat { fault = "struct format" }
    if length < 0 || structLie == 6 || structLie == 7 { fault = fault ?? "struct counts" }
    if structNulls > 0 && structBitmap == nil { fault = fault ?? "struct validity" }
    if children.contains(where: { $0.nullChild }) { fault = fault ?? "NULL child" }
    if children.contains(where: { $0.name.map { !isValidUTF8($0) } ?? false }) { fault = fault ?? "name not UTF-8" }
    if fault == nil {
        var seen = Set<Int>()
        for c in children {
            guard let name = c.name, let field = ids.firstIndex(where: { Array($0.utf8) == name }) else { continue }
            if !seen.insert(field).inserted { fault = "field twice"; break }
            let (f, values) = readChild(c, structOffset: Int(structOffset), records: records, structNull: structNull)
            if let f { fault = "\(ids[field]): \(f)"; break }
            columns.append((field, values))
        }
    }

    let cells = records * fields
    let valid = outputs & 1 == 0 ? UnsafeMutablePointer<UInt8>.allocate(capacity: max(records, 1)) : nil
    let rules = outputs & 2 == 0 ? UnsafeMutablePointer<Int32>.allocate(capacity: max(cells, 1)) : nil
    let flags = outputs & 4 == 0 ? UnsafeMutablePointer<UInt8>.allocate(capacity: max(cells, 1)) : nil
    let countOut = outputs & 8 == 0 ? UnsafeMutablePointer<UInt>.allocate(capacity: 1) : nil
    defer { valid?.deallocate(); rules?.deallocate(); flags?.deallocate(); countOut?.deallocate() }

    let before = snapshot(form)
    releaseCalls = 0
    let status = fw_form_check_arrow(form, nullStruct && s0 & 1 == 0 ? nil : schema, nullStruct && s0 & 1 != 0 ? nil : array,
                                     threads, valid, rules, flags, countOut)
    checkLastError(status, "fw_form_check_arrow")
    let detail = lastErrorMessage()
    check(releaseCalls == 0, "fw_form_check_arrow called a release callback \(releaseCalls) times")
    check(snapshot(form) == before, "fw_form_check_arrow changed the form's observable state")
    if traceInputs {  // FORMWELL_FUZZ_ARROW_TRACE=1: what each replayed input did
        let kinds = children.map { "\(text($0.format))\($0.name.map { ":" + show($0) } ?? ":NULL")" }.joined(separator: " ")
        print("arrow: \(fields) fields, \(length) records at \(structOffset), children [\(kinds)]: status \(status.rawValue) "
              + "\(show(detail))\(nullStruct ? " (NULL struct)" : ""); model: \(fault ?? "well formed, \(columns.count) named columns")")
    }
    if nullStruct {
        check(status == .FW_ERR_NULL_ARGUMENT, "a NULL schema or array: status \(status.rawValue)")
        plan.release(form)
        return 0
    }
    switch status {
    case .FW_OK:
        check(fault == nil, "fw_form_check_arrow accepted a struct with a fault: \(fault ?? "")")
    case .FW_ERR_INVALID_ARGUMENT, .FW_ERR_INVALID_UTF8:
        check(fault != nil, "fw_form_check_arrow refused a well-formed struct: \(status.rawValue) \(show(detail))")
        // Also the message call refuses a malformed struct (value faults of other records aside).
        if fields > 0 && records > 0 {
            let (ms, _) = readText { fw_form_arrow_message(form, schema, array, 0, 0, $0, $1, $2) }
            checkKnown(ms, "fw_form_arrow_message on a refused struct")
            check(releaseCalls == 0, "fw_form_arrow_message called a release callback")
        }
        check(snapshot(form) == before, "fw_form_arrow_message changed the form's observable state")
        plan.release(form)
        return 0
    default:
        fail("fw_form_check_arrow returned \(status.rawValue)")
    }

    // Accepted: the outputs agree with each other ...
    var invalidSeen = 0
    for r in 0..<records {
        if let valid, let rules {
            let allPass = (0..<fields).allSatisfy { rules[r * fields + $0] == -1 }
            check((valid[r] == 1) == allPass, "record \(r): valid flag \(valid[r]) but rules say \(allPass)")
        }
        if let valid { check(valid[r] <= 1, "valid flag \(valid[r])"); if valid[r] == 0 { invalidSeen += 1 } }
    }
    if let countOut, valid != nil { check(Int(countOut.pointee) == invalidSeen, "out_invalid_count \(countOut.pointee), \(invalidSeen) zero flags") }

    // ... and with fw_form_check_batch on fw_columns holding the same values.
    let refColumns = UnsafeMutablePointer<fw_column>.allocate(capacity: max(columns.count, 1))
    defer { refColumns.deallocate() }
    for (i, column) in columns.enumerated() {
        var bytes: [UInt8] = []
        var offsets: [Int64] = [0]
        for v in column.values { bytes += v ?? []; offsets.append(Int64(bytes.count)) }
        let o = arena.alloc(offsets.count * 8)
        for (k, v) in offsets.enumerated() { o.storeBytes(of: v, toByteOffset: k * 8, as: Int64.self) }
        var c = fw_column()
        c.size = MemoryLayout<fw_column>.size
        c.field_id = arena.cString(Array(ids[column.field].utf8))
        c.offsets = UnsafeRawPointer(o)
        c.data = UnsafePointer(arena.bytes(bytes).assumingMemoryBound(to: CChar.self))
        c.data_size = bytes.count
        c.offset_size = 8
        refColumns[i] = c
    }
    let refValid = UnsafeMutablePointer<UInt8>.allocate(capacity: max(records, 1))
    let refRules = UnsafeMutablePointer<Int32>.allocate(capacity: max(cells, 1))
    let refFlags = UnsafeMutablePointer<UInt8>.allocate(capacity: max(cells, 1))
    var refCount: UInt = 0
    defer { refValid.deallocate(); refRules.deallocate(); refFlags.deallocate() }
    let ref = fw_form_check_batch(form, refColumns, UInt(columns.count), UInt(records), threads, refValid, refRules, refFlags, &refCount)
    check(ref == .FW_OK, "fw_form_check_batch on the equivalent columns returned \(ref.rawValue)")
    if let countOut { check(countOut.pointee == refCount, "invalid count \(countOut.pointee), batch \(refCount)") }
    for r in 0..<records {
        if let valid { check(valid[r] == refValid[r], "record \(r): arrow valid \(valid[r]), batch \(refValid[r])") }
        for f in 0..<fields {
            if let rules { check(rules[r * fields + f] == refRules[r * fields + f], "record \(r) field \(f): arrow rule \(rules[r * fields + f]), batch \(refRules[r * fields + f])") }
            if let flags { check(flags[r * fields + f] == refFlags[r * fields + f], "record \(r) field \(f): arrow flags \(flags[r * fields + f]), batch \(refFlags[r * fields + f])") }
        }
    }
    // fw_form_arrow_message on up to 2 sampled records (and one out of range).
    if records > 0 {
        let sample = Set([Int(reader.byte()) % records, Int(reader.byte()) % records])
        for r in sample.sorted() {
            for f in 0..<fields {
                let (ms, byArrow) = readText { fw_form_arrow_message(form, schema, array, UInt(r), UInt(f), $0, $1, $2) }
                let (bs, byBatch) = readText { fw_form_batch_message(form, refColumns, UInt(columns.count), UInt(records), UInt(r), UInt(f), $0, $1, $2) }
                check(ms == .FW_OK && bs == .FW_OK, "record \(r) field \(f): arrow message status \(ms.rawValue), batch \(bs.rawValue)")
                check(byArrow == byBatch, "record \(r) field \(f): arrow message \(show(byArrow)), batch \(show(byBatch))")
            }
        }
    }
    let (outOfRange, _) = readText { fw_form_arrow_message(form, schema, array, UInt(records), 0, $0, $1, $2) }
    check(outOfRange == .FW_ERR_INVALID_ARGUMENT, "fw_form_arrow_message past the last record returned \(outOfRange.rawValue)")
    check(releaseCalls == 0, "a release callback was called \(releaseCalls) times")
    check(snapshot(form) == before, "the message calls changed the form's observable state")
    plan.release(form)
    check(fw_form_live_count() == formsKeptBetweenInputs(), "forms leaked: \(fw_form_live_count()) live")
    return 0
}
