import Foundation
import Testing
@testable import Formwell
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ProcessLockTests {
    @Test func serializesEveryThread() async {
        let counter = ProcessLock(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<10_000 { counter.withLock { $0 += 1 } } }
            }
        }
        #expect(counter.withLock { $0 } == 40_000)
    }

    /// A child forked while another thread keeps taking a lock (and compiling patterns, which takes
    /// the JIT gate) can take that lock and compile: the fork handlers held both across the fork.
    @Test func aChildCanTakeTheLockAnotherThreadWasUsing() {
        let lock = ProcessLock(0)
        let stop = ProcessLock(false)
        let worker = Thread {
            var round = 0
            while !stop.withLock({ $0 }) {
                round += 1
                lock.withLock { $0 += 1 }
                _ = try? Pattern(compiling: "[a-z]{\(round % 100 + 1)}")
            }
        }
        worker.start()
        var statuses: [Int32] = []
        for _ in 0..<20 {
            usleep(1_000)
            let pid = fork()
            if pid == 0 {
                alarm(10)
                let taken = lock.withLock { $0 + 1 } > 0
                let compiled = (try? Pattern(compiling: "[0-9]+x").matchWhole("12x")) == .match
                _exit(taken && compiled ? 0 : 1)
            }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            statuses.append(status)
        }
        stop.withLock { $0 = true }
        #expect(statuses.allSatisfy { $0 == 0 }, "child wait statuses: \(statuses)")
    }
}
