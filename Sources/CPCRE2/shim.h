/* PCRE2 is built for several code-unit widths; Formwell uses the 8-bit (UTF-8) library only. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* The thread-local slot where the engine caches this thread's pcre2_match_data block
   (Patterns/MatchData.swift): every rule match reads it, and pthread_getspecific would be a call
   plus Swift's lazy-global check of the key on every match. Swift has no thread-local variable of
   its own, so the slot is C; the engine's pthread key owns the block, and its destructor clears the
   slot before freeing. Initial-exec: one load from the thread pointer, where a shared library's
   default model calls __tls_get_addr on every read. It takes 8 bytes of the static TLS surplus
   glibc keeps for libraries loaded with dlopen (ctypes, LuaJIT's ffi.load). */
static inline void **formwell_match_data_slot(void) {
    static __thread void *block __attribute__((tls_model("initial-exec")));
    return &block;
}
