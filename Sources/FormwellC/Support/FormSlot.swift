import CFormwellAtomics
import Formwell
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
    /// needs no String and no hashing then. Adding fields leaves indices as they are; removing one
    /// (fw_form_remove_field) shifts the later ones, so it forgets the cache (`forgetNames`).
    /// Emptied with the form.
    var cachedID: [UInt8] = []
    var cachedIndex = -1

    /// Forgets the cached id and index: the next named call looks its id up again.
    mutating func forgetNames() {
        cachedID.removeAll(keepingCapacity: true)
        cachedIndex = -1
    }
}
