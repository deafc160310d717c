import CPCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One PCRE2 match-data block per thread, reused by every match on that thread: a whole-value match
/// only needs the overall result, and allocating a block per keystroke cost more than the match.
enum MatchData {
    /// This thread's block, created on first use and freed when the thread exits; nil only when
    /// memory or thread-specific keys ran out.
    static func forCurrentThread() -> OpaquePointer? {
        guard let key = matchDataKey else { return nil }
        if let raw = pthread_getspecific(key) { return OpaquePointer(raw) }
        guard let block = pcre2_match_data_create_8(1, nil) else { return nil }
        guard pthread_setspecific(key, UnsafeRawPointer(block)) == 0 else {
            pcre2_match_data_free_8(block)
            return nil
        }
        return block
    }
}

private let matchDataKey: pthread_key_t? = {
    var key = pthread_key_t()
    let created = pthread_key_create(&key) { raw in
        pcre2_match_data_free_8(raw.map { OpaquePointer($0) })
    }
    return created == 0 ? key : nil
}()
