import CFormwellAtomics
import Formwell
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One slot of the table: its own lock, the generation that live handles of it carry, and what the
/// lock guards. Slots are never freed, so a stale handle always finds valid memory.
///
/// The slot itself is immutable once published (three pointers, read by any thread without the
/// lock); everything that changes lives behind them, in memory of its own, so reading one part
/// never overlaps a write to another (Swift treats an access through `slot.pointee` as an access
/// to the whole struct).
struct FormSlot {
    let lock: UnsafeMutablePointer<pthread_mutex_t>
    /// Written under `lock` (release); read under it, or without it (acquire) by a custom
    /// validator's call, which may not wait for the lock but must still tell a stale handle
    /// (FW_ERR_INVALID_HANDLE) from a busy form (FW_ERR_BUSY). Only through the atomic helpers.
    let generationWord: UnsafeMutablePointer<UInt64>
    /// Under `lock`.
    let guarded: UnsafeMutablePointer<SlotContents>

    /// A new slot: an unlocked lock, generation 1, no form.
    static func make() -> FormSlot {
        let lock = CacheLine.allocate(pthread_mutex_t.self)
        pthread_mutex_init(lock, nil)
        let generationWord = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        generationWord.initialize(to: 1)
        let guarded = CacheLine.allocate(SlotContents.self)
        guarded.initialize(to: SlotContents())
        return FormSlot(lock: lock, generationWord: generationWord, guarded: guarded)
    }

    var generation: UInt64 { formwell_load_acquire_u64(generationWord) }
}

/// The part of a slot its lock guards.
struct SlotContents {
    /// The live form (allocated by `register`, deinitialized by the caller of `retire`). A raw
    /// pointer rather than a class: an access through it needs no refcounting or dynamic
    /// exclusivity check.
    var form: UnsafeMutablePointer<Form>?
    /// The bytes of the field id last named in a call on this form, and that field's index: a C
    /// caller names the same field call after call, and equal bytes are the same id, so the id
    /// needs no String and no hashing then. Fields are never removed, so the index stays right.
    /// Emptied with the form.
    var cachedID: [UInt8] = []
    var cachedIndex = -1
}

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
