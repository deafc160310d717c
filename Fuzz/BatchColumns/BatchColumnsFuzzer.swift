// libFuzzer harness: batches (fw_form_check_batch, fw_form_batch_message, fw_form_rule_message) over
// columns whose every part comes from the input: offsets (honest or lying: negative, decreasing, past
// the data), offset_size, validity bitmap, data bytes (invalid UTF-8, values split inside a character,
// NULs), data_size, field ids (by position, by id, unknown, malformed), struct sizes, record_count and
// which outputs are passed. The harness allocates exactly what it promises (record_count + 1 offsets,
// (record_count + 7) / 8 bitmap bytes, data_size data bytes, exact output arrays, all malloc'd so ASan
// sees any read or write past them): that part of the contract the library cannot check.
//
// Input: byte 0 picks the form (even: seed 03's registration spec; odd: a small form decoded from the
// input: up to 4 fields, each with an optional initial value and up to 3 rules among required, email,
// phone, min/max length, a regex from a table (one catastrophic), matches an earlier field and a custom
// validator with or without its own message); then match limits, threads, record_count, column_count,
// and per column: flags (bits 0-2 how the field is named: by position / by id / unknown / malformed,
// 3 int64 offsets, 4 NULL data when empty, 5 raw offsets (each one input byte as Int8, below -100
// times 10^9), 6 no offsets buffer, 7 a validity bitmap), a second byte (which id, odd offset sizes,
// misalignment, lying data_size), the data (length byte, bytes), the offsets (honest: a start, then one
// length per record) and the bitmap bytes; finally a byte picking a record for the sample.
//
// Invariants: the status is known and the thread's last error matches the call; the call succeeds
// exactly when the columns are well formed (computed here independently from what was built); on
// success every record's valid flag equals "every failing rule is -1", out_invalid_count counts the
// invalid records, rules are in range, flags are only the documented bits, and a sample of records
// equals a submit of the same values on a fresh form through the interactive API (failing rule, limit
// flag, message; fw_form_batch_message agrees). The form's observable state never changes.
import FormwellC
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private let traceInputs = getenv("FORMWELL_FUZZ_BATCH_TRACE").map { String(cString: $0) == "1" } ?? false
private let tooComplex = Array("This value is too complex to check".utf8)

/// One column as built: memory the harness owns (exact sizes) and what it promises.
private final class BuiltColumn {
    var id: UnsafeMutablePointer<CChar>? = nil
    var idText: [UInt8]? = nil
    var offsets: UnsafeMutableRawPointer? = nil
    var offsetValues: [Int64] = []
    var data: UnsafeMutablePointer<UInt8>? = nil
    var dataBytes: [UInt8] = []
    var dataSize = 0
    var validity: UnsafeMutablePointer<UInt8>? = nil
    var bitmap: [UInt8]? = nil
    var offsetSize: Int32 = 4
    var structSize = MemoryLayout<fw_column>.size
    var misaligned = false

    deinit {
        free(id)
        free(offsets.map { misaligned ? $0 - 1 : $0 })
        free(data)
        free(validity)
    }

    func isNull(_ r: Int) -> Bool { bitmap.map { $0[r >> 3] & (1 << UInt8(r & 7)) == 0 } ?? false }

    func value(_ r: Int) -> [UInt8] {
        isNull(r) ? [] : Array(dataBytes[Int(offsetValues[r])..<Int(offsetValues[r + 1])])
    }
}

private func decodeColumn(_ reader: inout ByteReader, records: Int, ids: [String]) -> BuiltColumn {
    let c = BuiltColumn()
    let flags = reader.byte(), more = reader.byte()
    // field id: by position, by a field's id, unknown, malformed UTF-8
    switch flags & 7 {
    case 0, 1, 2: c.idText = nil
    case 3, 4, 5: c.idText = ids.isEmpty ? [] : Array(ids[Int(more) % ids.count].utf8)
    case 6: c.idText = Array((more & 1 == 0 ? "zz" : "").utf8)
    default: c.idText = [0x66, 0xC3]
    }
    if let text = c.idText {
        c.id = malloc(text.count + 1)!.assumingMemoryBound(to: CChar.self)
        for (i, b) in text.enumerated() { c.id![i] = CChar(bitPattern: b) }
        c.id![text.count] = 0
    }
    c.offsetSize = flags & 8 != 0 ? 8 : (more & 0xF0 == 0xF0 ? Int32(more & 0x0F) : 4)
    // data
    let dataLength = Int(reader.byte() % 48)
    for _ in 0..<dataLength { c.dataBytes.append(reader.byte()) }
    c.dataSize = dataLength
    if dataLength > 0 || flags & 0x10 == 0 {
        c.data = malloc(max(dataLength, 1))!.assumingMemoryBound(to: UInt8.self)
        for (i, b) in c.dataBytes.enumerated() { c.data![i] = b }
    }
    if more & 0x0C == 0x0C && dataLength == 0 { c.dataSize = Int(more & 3) + 1 }  // a lie: NULL or 1-byte data, size > 0
    if c.dataSize > dataLength && c.data != nil { free(c.data); c.data = nil }   // never promise unallocated bytes
    // offsets: honest (cumulative lengths, from a start) or raw from the input
    let honest = flags & 0x20 == 0
    if flags & 0x40 == 0 || records == 0 && flags & 0x80 != 0 {
        var at = Int64(honest ? Int(reader.byte()) % (dataLength + 1) : 0)
        for r in 0...records {
            if honest {
                c.offsetValues.append(min(at, Int64(dataLength)))
                if r < records { at = min(at + Int64(reader.byte() % 16), Int64(dataLength)) }
            } else {
                let raw = Int8(bitPattern: reader.byte())
                c.offsetValues.append(raw < -100 ? Int64(raw) * 1_000_000_000 : Int64(raw))
            }
        }
        let width = c.offsetSize == 8 ? 8 : 4
        let misalign = more & 0x0F == 0x07
        let bytes = (records + 1) * width
        let base = malloc(bytes + (misalign ? 1 : 0))!
        c.misaligned = misalign
        c.offsets = misalign ? base + 1 : base
        for (i, v) in c.offsetValues.enumerated() {
            if width == 8 { c.offsets!.storeBytes(of: v, toByteOffset: i * 8, as: Int64.self) }
            else { c.offsets!.storeBytes(of: Int32(truncatingIfNeeded: v), toByteOffset: i * 4, as: Int32.self) }
        }
        if width == 4 { c.offsetValues = c.offsetValues.map { Int64(Int32(truncatingIfNeeded: $0)) } }
    }
    if flags & 0x80 != 0 && records > 0 {
        let bytes = (records + 7) / 8
        var bits: [UInt8] = []
        for _ in 0..<bytes { bits.append(reader.byte()) }
        c.bitmap = bits
        c.validity = malloc(bytes)!.assumingMemoryBound(to: UInt8.self)
        for (i, b) in bits.enumerated() { c.validity![i] = b }
    }
    if more == 0xEE { c.structSize = 8 }
    return c
}

/// Whether the library must accept these columns, computed from what was built. nil when it must.
private func malformation(_ columns: [BuiltColumn], records: Int, ids: [String]) -> String? {
    if columns.isEmpty { return nil }
    if columns.count > ids.count { return "more columns than fields" }
    let stride = columns[0].structSize
    if stride < MemoryLayout<fw_column>.size || stride % 8 != 0 { return "columns[0].size" }
    var seen = Set<Int>()
    for (position, c) in columns.enumerated() {
        if c.structSize != stride { return "size mismatch" }
        let field: Int
        if let text = c.idText {
            guard isValidUTF8(text) else { return "malformed id" }
            guard let index = ids.firstIndex(where: { Array($0.utf8) == text }) else { return "unknown id" }
            field = index
        } else {
            guard position < ids.count else { return "position past the fields" }
            field = position
        }
        if !seen.insert(field).inserted { return "field twice" }
        if c.data == nil && c.dataSize > 0 { return "NULL data" }
        if c.offsets == nil { if records > 0 { return "NULL offsets" } else { continue } }
        if c.offsetSize != 4 && c.offsetSize != 8 { return "offset_size" }
        if c.misaligned { return "misaligned" }
        if records == 0 { continue }
        if c.offsetValues[0] < 0 || c.offsetValues[0] > Int64(c.dataSize) { return "first offset" }
        for r in 0..<records {
            if c.offsetValues[r + 1] < c.offsetValues[r] { return "decreasing" }
            if c.offsetValues[r + 1] > Int64(c.dataSize) { return "past the data" }
        }
        for r in 0..<records where !c.isNull(r) && !isValidUTF8(c.value(r)) { return "invalid UTF-8 in record \(r)" }
    }
    return nil
}

private func fieldOf(_ c: BuiltColumn, _ position: Int, _ ids: [String]) -> Int {
    if let text = c.idText { return ids.firstIndex { Array($0.utf8) == text }! }
    return position
}

private func ruleCounts(_ form: OpaquePointer?, _ fields: Int) -> [Int] {
    (0..<fields).map { f in
        var n = 0
        while fw_form_rule_message(form, UInt(f), UInt(n), nil, 0, nil) == .FW_OK { n += 1 }
        return n
    }
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
public func formwellBatchColumnsFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
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
    let records = Int(reader.byte() % 24)
    let columnCount = Int(reader.byte()) % (fields + 2)
    let outputsByte = reader.byte()
    let outputs = outputsByte & 0x80 != 0 ? outputsByte & 0x1F : 0  // half the inputs pass every output
    var built: [BuiltColumn] = []
    for _ in 0..<columnCount {
        built.append(decodeColumn(&reader, records: records, ids: ids))
    }
    // The fw_column array, with the stride the first column declares when it is a larger (honest) one.
    let stride = max(MemoryLayout<fw_column>.size, built.first?.structSize ?? 0)
    let array = malloc(max(stride * columnCount, 1))!
    defer { free(array) }
    for (i, c) in built.enumerated() {
        var column = fw_column()
        column.size = c.structSize
        column.field_id = UnsafePointer(c.id)
        column.offsets = UnsafeRawPointer(c.offsets)
        column.data = UnsafeRawPointer(c.data).map { $0.assumingMemoryBound(to: CChar.self) }
        column.validity = UnsafePointer(c.validity)
        column.data_size = c.dataSize
        column.offset_size = c.offsetSize
        (array + i * stride).storeBytes(of: column, as: fw_column.self)
    }
    let columns = columnCount == 0 && outputs & 0x10 != 0 ? nil : UnsafePointer(array.assumingMemoryBound(to: fw_column.self))

    let cells = records * fields
    let valid = outputs & 1 == 0 ? UnsafeMutablePointer<UInt8>.allocate(capacity: max(records, 1)) : nil
    let rules = outputs & 2 == 0 ? UnsafeMutablePointer<Int32>.allocate(capacity: max(cells, 1)) : nil
    let flags = outputs & 4 == 0 ? UnsafeMutablePointer<UInt8>.allocate(capacity: max(cells, 1)) : nil
    let countOut = outputs & 8 == 0 ? UnsafeMutablePointer<UInt>.allocate(capacity: 1) : nil
    countOut?.pointee = 0xDEAD
    defer { valid?.deallocate(); rules?.deallocate(); flags?.deallocate(); countOut?.deallocate() }

    let before = snapshot(form)
    let status = fw_form_check_batch(form, columns, UInt(columnCount), UInt(records), threads, valid, rules, flags,
                                     countOut)
    checkLastError(status, "fw_form_check_batch")
    let detail = traceInputs ? lastErrorMessage() : []
    check(snapshot(form) == before, "fw_form_check_batch changed the form's observable state")
    let expectedFault = malformation(built, records: records, ids: ids)
    if traceInputs {  // FORMWELL_FUZZ_BATCH_TRACE=1: what each replayed input did
        print("batch: \(plan.registration ? "registration" : "\(fields) fields"), \(records) records, \(columnCount) columns, "
              + "threads \(threads): status \(status.rawValue) \(show(detail)); model: \(expectedFault ?? "well formed")")
    }
    switch status {
    case .FW_OK:
        check(expectedFault == nil, "fw_form_check_batch accepted columns with a fault: \(expectedFault ?? "")")
    case .FW_ERR_INVALID_ARGUMENT, .FW_ERR_NULL_ARGUMENT, .FW_ERR_UNKNOWN_FIELD, .FW_ERR_INVALID_UTF8:
        check(expectedFault != nil, "fw_form_check_batch refused well-formed columns: \(status.rawValue)")
        plan.release(form)
        return 0
    default:
        fail("fw_form_check_batch returned \(status.rawValue)")
    }

    // Accepted: the outputs agree with each other ...
    let counts = ruleCounts(form, fields)
    var invalidSeen = 0
    for r in 0..<records {
        var allPass = true
        for f in 0..<fields {
            if let rules {
                let rule = Int(rules[r * fields + f])
                check(rule >= -1 && rule < counts[f], "record \(r) field \(f): failing rule \(rule) of \(counts[f])")
                if rule != -1 { allPass = false }
                if let flags { check(rule != -1 || flags[r * fields + f] == 0, "a passing cell has flags") }
            }
            if let flags { check(flags[r * fields + f] & ~3 == 0, "undocumented flag bits \(flags[r * fields + f])") }
        }
        if let valid {
            check(valid[r] <= 1, "valid flag \(valid[r])")
            if rules != nil { check((valid[r] == 1) == allPass, "record \(r): valid flag \(valid[r]) but rules say \(allPass)") }
            if valid[r] == 0 { invalidSeen += 1 }
        }
    }
    if let countOut, valid != nil { check(Int(countOut.pointee) == invalidSeen, "out_invalid_count \(countOut.pointee), \(invalidSeen) zero flags") }

    // ... and a sample of records equals a submit on a fresh form (values with a NUL cannot be typed).
    guard let rules, let flags, records > 0 else { plan.release(form); return 0 }
    // The input's record always; the first and last too on the steps `checkThisStep` picks (a fresh form
    // per record is most of the harness's time).
    var sample: Set<Int> = [Int(reader.byte()) % records]
    if checkThisStep() { sample.formUnion([0, records - 1]) }
    for r in sample.sorted() {
        var values: [Int: [UInt8]] = [:]
        for (position, c) in built.enumerated() { values[fieldOf(c, position, ids)] = c.value(r) }
        if values.values.contains(where: { $0.contains(0) }) { continue }
        let fresh = plan.build()
        for (f, value) in values {
            let set = withCString(value) { fw_field_set_value_at(fresh, UInt(f), $0) }
            check(set == .FW_OK, "fw_field_set_value_at on the fresh form returned \(set.rawValue)")
        }
        var submitted = false
        check(fw_form_validate(fresh, &submitted) == .FW_OK, "fw_form_validate failed")
        if let valid { check((valid[r] == 1) == submitted, "record \(r): batch valid \(valid[r]), submit \(submitted)") }
        for f in 0..<fields {
            var snap = fw_snapshot()
            snap.size = snapshotSize
            var texts = [CChar](repeating: 0, count: 4096)
            check(fw_field_snapshot_at(fresh, UInt(f), &snap, &texts, 4096) == .FW_OK, "fw_field_snapshot_at failed")
            let shown = cBytes(snap.display_message!)
            let rule = Int(rules[r * fields + f]), cell = flags[r * fields + f]
            let (ms, byRecord) = readText { fw_form_batch_message(form, columns, UInt(columnCount), UInt(records), UInt(r), UInt(f), $0, $1, $2) }
            check(ms == .FW_OK, "fw_form_batch_message on an accepted batch returned \(ms.rawValue)")
            var resolved: [UInt8] = []
            if rule >= 0 {
                let (rs, byRule) = readText { fw_form_rule_message(form, UInt(f), UInt(rule), $0, $1, $2) }
                check(rs == .FW_OK, "fw_form_rule_message returned \(rs.rawValue)")
                resolved = cell & 2 != 0 ? byRecord : cell & 1 != 0 ? tooComplex : byRule
            }
            check(Int(snap.failing_rule) == rule && snap.limit_exceeded == (cell & 1 != 0) && resolved == shown && byRecord == shown,
                  "record \(r) field \(f): batch rule \(rule) flags \(cell) message \(show(resolved)) / \(show(byRecord)); submit rule \(snap.failing_rule) limit \(snap.limit_exceeded) message \(show(shown))")
        }
        check(fw_form_free(fresh) == .FW_OK, "fw_form_free failed")
    }
    check(snapshot(form) == before, "the batch message calls changed the form's observable state")
    plan.release(form)
    check(fw_form_live_count() == formsKeptBetweenInputs(), "forms leaked: \(fw_form_live_count()) live")
    return 0
}
