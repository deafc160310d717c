import CFormwellAtomics
import Formwell
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Handles are checked slot numbers, never pointers dereferenced: a handle encodes a slot index and
/// that slot's generation, so a freed, forged or stale handle is simply not found and gets
/// FW_ERR_INVALID_HANDLE instead of touching freed memory. A generation is never reused.
///
/// Finding a slot takes no lock (one atomic load of the published slot count), and each slot has its
/// own lock, so calls on distinct forms never wait for each other; only creating and freeing forms
/// take the table's lock.
final class FormTable: Sendable {
    static let shared = FormTable()

    private static let indexBits = 24
    private static let chunkShift = 8
    private static let chunkSize = 1 << chunkShift
    private static let maxChunks = (1 << indexBits) / chunkSize
    /// Generations fit in the handle's remaining 40 bits; a slot that used them all is retired.
    private static let maxGeneration: UInt64 = (1 << 40) - 1

    /// Chunk pointers, written under `growth` before `published` is raised past them.
    private nonisolated(unsafe) let chunks: UnsafeMutablePointer<UnsafeMutablePointer<FormSlot>?>
    /// Slots that exist; a lookup reads it with acquire ordering, so every slot below it is visible.
    private let published = Atomic<Int>(0)
    private let live = Atomic<Int>(0)
    /// Free slot indices, reused before new slots are made.
    private let growth = Mutex<[Int]>([])

    private init() {
        chunks = .allocate(capacity: FormTable.maxChunks)
        chunks.initialize(repeating: nil, count: FormTable.maxChunks)
    }

    /// Stores a new form; nil when 16,777,215 forms are alive at once (or memory ran out).
    func register(_ form: Form) -> OpaquePointer? {
        let box = CacheLine.allocate(Form.self)
        box.initialize(to: form)
        let handle: UInt? = growth.withLock { free in
            let index: Int
            if let reused = free.popLast() {
                index = reused
            } else {
                index = published.load(ordering: .relaxed)
                guard index < (1 << FormTable.indexBits) - 1 else { return nil }
                if index % FormTable.chunkSize == 0 {
                    let chunk = UnsafeMutablePointer<FormSlot>.allocate(capacity: FormTable.chunkSize)
                    for offset in 0..<FormTable.chunkSize {
                        (chunk + offset).initialize(to: FormSlot.make())
                    }
                    chunks[index >> FormTable.chunkShift] = chunk
                }
                published.store(index + 1, ordering: .releasing)
            }
            guard let slot = slot(at: index) else { return nil }
            let parts = slot.pointee
            pthread_mutex_lock(parts.lock)
            parts.guarded.pointee.form = box
            let generation = parts.generation
            pthread_mutex_unlock(parts.lock)
            return UInt(generation) << FormTable.indexBits | UInt(index + 1)
        }
        guard let handle else {
            box.deinitialize(count: 1)
            CacheLine.deallocate(box)
            return nil
        }
        live.add(1, ordering: .relaxed)
        return OpaquePointer(bitPattern: handle)
    }

    /// The slot's current generation, read without its lock.
    static func currentGeneration(_ slot: UnsafeMutablePointer<FormSlot>) -> UInt64 {
        slot.pointee.generation
    }

    /// The slot a handle names, its index and the generation the handle carries; nil for NULL or an
    /// index never issued.
    func locate(_ handle: OpaquePointer?) -> (slot: UnsafeMutablePointer<FormSlot>, index: Int, generation: UInt64)? {
        let bits = UInt(bitPattern: handle)
        let index = Int(bits & ((1 << FormTable.indexBits) - 1)) - 1
        guard let slot = slot(at: index) else { return nil }
        return (slot, index, UInt64(bits >> FormTable.indexBits))
    }

    private func slot(at index: Int) -> UnsafeMutablePointer<FormSlot>? {
        guard index >= 0, index < published.load(ordering: .acquiring),
              let chunk = chunks[index >> FormTable.chunkShift] else { return nil }
        return chunk + (index & (FormTable.chunkSize - 1))
    }

    /// Takes the form out of a slot the caller has locked (and whose generation matched): every
    /// handle of it dies at once, since the generation moves on. After unlocking, the caller passes
    /// the answer to `recycle` and destroys the form (destroying the form runs custom validators'
    /// destructors, which must run holding no lock).
    func retire(_ slot: UnsafeMutablePointer<FormSlot>) -> (form: UnsafeMutablePointer<Form>?, reusable: Bool) {
        let parts = slot.pointee
        let box = parts.guarded.pointee.form
        parts.guarded.pointee = SlotContents()
        let next = parts.generation &+ 1
        formwell_store_release_u64(parts.generationWord, next)
        if box != nil { live.subtract(1, ordering: .relaxed) }
        return (box, next < FormTable.maxGeneration)
    }

    /// Makes a retired slot available to `register` again (called without the slot's lock).
    func recycle(_ index: Int) {
        growth.withLock { $0.append(index) }
    }

    var liveCount: Int { live.load(ordering: .relaxed) }
}
