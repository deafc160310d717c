/* The C layer's small C helpers. Atomic access to a plain 64-bit word in raw memory, for the
   handle table's slot generations: Swift's Atomic type cannot live in raw memory, and a generation
   must be readable without the slot's lock (by a thread that may not wait for it). Internal to
   libformwell, not part of the API. */
#ifndef FORMWELL_ATOMICS_H
#define FORMWELL_ATOMICS_H

#include <stdint.h>

static inline uint64_t formwell_load_acquire_u64(const uint64_t *word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

static inline void formwell_store_release_u64(uint64_t *word, uint64_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/* This thread's Formwell state (ThreadState), cached in a thread-local variable: every call reads
   it, and this is one TLS load where pthread_getspecific (still the owner, for its destructor) is a
   call plus Swift's lazy-global check of the key. The destructor clears it before freeing.
   Initial-exec: one load from the thread pointer, where a shared library's default model calls
   __tls_get_addr on every read (twice per ABI call). It takes 8 bytes of the static TLS surplus
   glibc keeps for libraries loaded with dlopen (ctypes, LuaJIT's ffi.load). */
static inline void **formwell_thread_state_slot(void) {
    static __thread void *state __attribute__((tls_model("initial-exec")));
    return &state;
}

#endif /* FORMWELL_ATOMICS_H */
