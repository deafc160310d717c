import Glibc

/// Runs `body(0)`, …, `body(count - 1)` at once: `count - 1` POSIX threads and the caller's own.
/// The engine starts no thread anywhere else; a batch asks for these and joins them before it
/// returns. A thread that cannot be started runs its share on the caller's thread afterwards.
enum WorkerThreads {
    static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        var started: [(pthread_t, Unmanaged<Job>)] = []
        var leftOver: [Int] = []
        for index in 1..<count {
            let job = Unmanaged.passRetained(Job { body(index) })
            var thread = pthread_t()
            let status = pthread_create(&thread, nil, { raw in
                guard let raw else { return nil }
                Unmanaged<Job>.fromOpaque(raw).takeUnretainedValue().work()
                return nil
            }, job.toOpaque())
            if status == 0 {
                started.append((thread, job))
            } else {
                job.release()
                leftOver.append(index)
            }
        }
        body(0)
        for index in leftOver { body(index) }
        for (thread, job) in started {
            pthread_join(thread, nil)
            job.release()
        }
    }

    /// The number of processors online (at least 1).
    static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    private final class Job {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }
}
