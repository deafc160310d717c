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
///
/// A child made by `fork()` keeps every form no thread was inside at that moment: the table's lock
/// is taken before the fork (so the free list and the slots being published are whole), and the
/// child then looks at every slot's lock. A lock still held belongs to a thread the child does not
/// have (unless the forking thread holds it, inside a custom validator), and the form behind it may
/// be half changed: the child gives the slot a fresh lock and a new generation, so that form's
/// handles are refused (`lostToFork` names them), and leaves its memory alone.
final class FormTable: @unchecked Sendable {
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
    /// The table's lock: guards `freeSlots` and the making of new slots. A pthread mutex, which a
    /// fork's handlers can take and release (the standard library's `Mutex` traps in a child).
    private let growth: UnsafeMutablePointer<pthread_mutex_t>
    /// Free slot indices, reused before new slots are made. Only under `growth`.
    private let freeSlots: UnsafeMutablePointer<[Int]>
    /// Handles of the forms a fork took from this process (other threads were inside them): written
    /// only by the fork's child handler, while the child has one thread.
    private nonisolated(unsafe) var lost: Set<UInt> = []

    private init() {
        chunks = .allocate(capacity: FormTable.maxChunks)
        chunks.initialize(repeating: nil, count: FormTable.maxChunks)
        growth = .allocate(capacity: 1)
        pthread_mutex_init(growth, nil)
        freeSlots = .allocate(capacity: 1)
        freeSlots.initialize(to: [])
        // The engine's globals and fork handlers first, so that none is made inside a fork's
        // prepare handler (where a handler registered late would be released without being taken).
        ProcessGlobals.settle()
        pthread_atfork(
            { FormTable.shared.prepareFork() },
            { FormTable.shared.afterForkInParent() },
            { FormTable.shared.afterForkInChild() })
    }

    private func withGrowthLock<R>(_ body: (inout [Int]) -> R) -> R {
        pthread_mutex_lock(growth)
        defer { pthread_mutex_unlock(growth) }
        return body(&freeSlots.pointee)
    }

    /// Stores a new form; nil when 16,777,215 forms are alive at once (or memory ran out).
    func register(_ form: Form) -> OpaquePointer? {
        let box = CacheLine.allocate(Form.self)
        box.initialize(to: form)
        let handle: UInt? = withGrowthLock { free in
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
            return FormTable.handle(index: index, generation: generation)
        }
        guard let handle else {
            box.deinitialize(count: 1)
            CacheLine.deallocate(box)
            return nil
        }
        live.add(1, ordering: .relaxed)
        return OpaquePointer(bitPattern: handle)
    }

    private static func handle(index: Int, generation: UInt64) -> UInt {
        UInt(generation) << FormTable.indexBits | UInt(index + 1)
    }

    /// The slot index a handle names (-1 for NULL).
    static func index(of handle: UInt) -> Int {
        Int(handle & ((1 << FormTable.indexBits) - 1)) - 1
    }

    /// The slot's current generation, read without its lock.
    static func currentGeneration(_ slot: UnsafeMutablePointer<FormSlot>) -> UInt64 {
        slot.pointee.generation
    }

    /// The slot a handle names, its index and the generation the handle carries; nil for NULL or an
    /// index never issued.
    func locate(_ handle: OpaquePointer?) -> (slot: UnsafeMutablePointer<FormSlot>, index: Int, generation: UInt64)? {
        let bits = UInt(bitPattern: handle)
        let index = FormTable.index(of: bits)
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
        withGrowthLock { $0.append(index) }
    }

    var liveCount: Int { live.load(ordering: .relaxed) }

    /// Whether a fork took this handle's form from this process (see the type's comment).
    func lostToFork(_ handle: OpaquePointer?) -> Bool {
        !lost.isEmpty && lost.contains(UInt(bitPattern: handle))
    }

    // MARK: fork

    /// Before a fork: no thread is registering, recycling or publishing slots while memory is
    /// copied. Slot locks are not taken: a thread may hold one for as long as a custom validator
    /// runs (a Python one waiting for the GIL that the forking thread holds, say).
    private func prepareFork() {
        ProcessGlobals.settle()
        _ = threadStateKey
        pthread_mutex_lock(growth)
    }

    private func afterForkInParent() {
        pthread_mutex_unlock(growth)
    }

    /// In the child, which has only the forking thread: every slot whose lock is still held by a
    /// thread that is gone gets a fresh lock and a new generation; its form is left as it is (it may
    /// be half changed) and its handles go to `lost`. The live count is recounted.
    private func afterForkInChild() {
        let mine = ThreadState.current?.pointee.heldSlotIndices() ?? []
        var alive = 0
        for index in 0..<published.load(ordering: .relaxed) {
            guard let slot = slot(at: index) else { continue }
            let parts = slot.pointee
            if pthread_mutex_trylock(parts.lock) == 0 {
                if parts.guarded.pointee.form != nil { alive += 1 }
                pthread_mutex_unlock(parts.lock)
                continue
            }
            if mine.contains(index) {
                if parts.guarded.pointee.form != nil { alive += 1 }
                continue
            }
            pthread_mutex_init(parts.lock, nil)
            let abandoned = parts.generation
            if parts.guarded.pointee.form != nil {
                lost.insert(FormTable.handle(index: index, generation: abandoned))
            }
            // The old contents are dropped unread, not deinitialized: they may be half written.
            parts.guarded.initialize(to: SlotContents())
            let next = abandoned &+ 1
            formwell_store_release_u64(parts.generationWord, next)
            if next < FormTable.maxGeneration && !freeSlots.pointee.contains(index) {
                freeSlots.pointee.append(index)
            }
        }
        live.store(alive, ordering: .relaxed)
        pthread_mutex_init(growth, nil)
    }
}
