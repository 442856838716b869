import Foundation
import Synchronization

/// The moment a command's task starts running, which the main thread waits for. It looks for
/// it rather than sleeping at first: a sleeping thread woken by the task's thread may be
/// queued behind it on that thread's core, however long the task runs, while another core idles
/// (as some virtual machines' schedulers do while the machine is little used).
final class TaskStart: Sendable {
    private let started = Atomic<Bool>(false)
    private let semaphore = DispatchSemaphore(value: 0)
    /// How long `wait` looks before it sleeps: the task starts within a fraction of it.
    private static let patience = Duration.milliseconds(5)

    func signal() {
        started.store(true, ordering: .releasing)
        semaphore.signal()
    }

    /// True once `signal` was called.
    var hasStarted: Bool { started.load(ordering: .acquiring) }

    /// Returns once `signal` was called.
    func wait() {
        let deadline = ContinuousClock.now + Self.patience
        while !hasStarted {
            guard ContinuousClock.now < deadline else {
                semaphore.wait()
                return
            }
            sched_yield()
        }
    }
}
