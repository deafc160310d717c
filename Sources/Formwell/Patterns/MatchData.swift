import CPCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One PCRE2 match-data block per thread, reused by every match on that thread: a whole-value match
/// only needs the overall result, and allocating a block per keystroke costs more than the match.
enum MatchData {
    /// This thread's block, created on first use and freed when the thread exits; nil only when
    /// memory or thread-specific keys ran out. Read from a thread-local slot (CPCRE2's shim.h); the
    /// key owns the block, for its destructor.
    @inline(__always)
    static func forCurrentThread() -> OpaquePointer? {
        let cache = formwell_match_data_slot()
        if let cached = cache?.pointee { return OpaquePointer(cached) }
        return created(cache)
    }

    @inline(never)
    private static func created(_ cache: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> OpaquePointer? {
        guard let key = matchDataKey else { return nil }
        if let raw = pthread_getspecific(key) {
            cache?.pointee = raw
            return OpaquePointer(raw)
        }
        guard let block = pcre2_match_data_create_8(1, nil) else { return nil }
        guard pthread_setspecific(key, UnsafeRawPointer(block)) == 0 else {
            pcre2_match_data_free_8(block)
            return nil
        }
        cache?.pointee = UnsafeMutableRawPointer(block)
        return block
    }
}

let matchDataKey: pthread_key_t? = {
    var key = pthread_key_t()
    let created = pthread_key_create(&key) { raw in
        formwell_match_data_slot()?.pointee = nil
        pcre2_match_data_free_8(raw.map { OpaquePointer($0) })
    }
    return created == 0 ? key : nil
}()

/// One PCRE2 match context per thread for a match that ran out of PCRE2's default 32 KiB JIT stack
/// (which stops `(?:a|aa)*?b` at 3,000 bytes): its limits are set for each such match, so no other
/// thread may see it. It carries its own JIT stack of up to `jitStackBytes` (reserved, committed as
/// used). The step limits still bound the work, so a deeper stack costs only memory on the threads
/// that use it.
enum DeepStackContext {
    static let jitStackBytes = 4 << 20

    private struct Parts {
        let context: OpaquePointer
        let stack: OpaquePointer?
    }

    /// This thread's context, created on first use and freed when the thread exits; nil only when
    /// memory or thread-specific keys ran out.
    static func forCurrentThread() -> OpaquePointer? {
        guard let key = deepStackKey else { return nil }
        if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: Parts.self).pointee.context }
        guard let context = pcre2_match_context_create_8(nil) else { return nil }
        // Without a stack of its own the context uses PCRE2's default (32 KiB on the machine stack).
        let stack = pcre2_jit_stack_create_8(32 << 10, jitStackBytes, nil)
        if let stack { pcre2_jit_stack_assign_8(context, nil, UnsafeMutableRawPointer(stack)) }
        let parts = UnsafeMutablePointer<Parts>.allocate(capacity: 1)
        parts.initialize(to: Parts(context: context, stack: stack))
        guard pthread_setspecific(key, UnsafeRawPointer(parts)) == 0 else {
            DeepStackContext.free(parts)
            return nil
        }
        return context
    }

    private static func free(_ parts: UnsafeMutablePointer<Parts>) {
        pcre2_match_context_free_8(parts.pointee.context)
        pcre2_jit_stack_free_8(parts.pointee.stack)
        parts.deinitialize(count: 1)
        parts.deallocate()
    }

    fileprivate static func free(raw: UnsafeMutableRawPointer) {
        free(raw.assumingMemoryBound(to: Parts.self))
    }
}

let deepStackKey: pthread_key_t? = {
    var key = pthread_key_t()
    let created = pthread_key_create(&key) { raw in
        if let raw { DeepStackContext.free(raw: raw) }
    }
    return created == 0 ? key : nil
}()
