/*
 * ThreadSanitizer annotations for Swift's Synchronization.Mutex on Linux (test-only; linked into
 * .build/tsan/thread_stress by scripts/tsan_stress.sh, never into the library).
 *
 * Why: Mutex's uncontended paths are inlined into the instrumented code (atomic compare-exchange, which
 * TSan understands), but under contention it goes through _MutexHandle._lockSlow / _unlockSlow in the
 * uninstrumented libswiftSynchronization.so (spinning, then FUTEX_LOCK_PI / FUTEX_UNLOCK_PI). TSan never
 * sees that acquire/release, so every contended Mutex.withLock produces a false "Swift access race"
 * (seen here with a 20-line program: 4 threads incrementing a Mutex<[Int]>).
 *
 * Fix: this object defines those two symbols itself (the executable's definition wins over the shared
 * library's for the calls inlined into our code), calls the real ones found with dlsym(RTLD_NEXT), and
 * tells TSan about the synchronisation on the mutex word's address: __tsan_release before the slow
 * unlock, __tsan_acquire after the slow lock. Genuine races (accesses outside the lock) are still
 * reported; checked with a deliberately racy counter next to a Mutex.
 *
 * The stubs are x86-64 assembly because the Swift calling convention passes `self` (the mutex address)
 * in r13 (swiftself), which C cannot name. Symbols: Swift 6.3.1's mangled names.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
void *fw_tsan_real_lock_slow, *fw_tsan_real_unlock_slow;
#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"
__attribute__((constructor)) static void fw_tsan_resolve(void) {
    fw_tsan_real_lock_slow = dlsym(RTLD_NEXT, LOCK_SLOW);
    fw_tsan_real_unlock_slow = dlsym(RTLD_NEXT, UNLOCK_SLOW);
    if (!fw_tsan_real_lock_slow || !fw_tsan_real_unlock_slow) { fputs("tsan mutex annotations: symbols not found\n", stderr); abort(); }
}
__asm__(
    ".text\n"
    ".globl \"" LOCK_SLOW "\"\n"
    ".type \"" LOCK_SLOW "\",@function\n"
    "\"" LOCK_SLOW "\":\n"
    "    pushq %r13\n"
    "    callq *fw_tsan_real_lock_slow(%rip)\n"
    "    movq (%rsp), %rdi\n"
    "    callq __tsan_acquire@PLT\n"
    "    popq %r13\n"
    "    retq\n"
    ".globl \"" UNLOCK_SLOW "\"\n"
    ".type \"" UNLOCK_SLOW "\",@function\n"
    "\"" UNLOCK_SLOW "\":\n"
    "    pushq %r13\n"
    "    movq %r13, %rdi\n"
    "    callq __tsan_release@PLT\n"
    "    movq (%rsp), %r13\n"
    "    callq *fw_tsan_real_unlock_slow(%rip)\n"
    "    popq %r13\n"
    "    retq\n"
);
