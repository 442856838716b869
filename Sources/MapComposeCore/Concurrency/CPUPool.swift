import Foundation
import Synchronization

/// The process's one pool for CPU work, sized to the cores: renders, their drawing bands, the
/// PNG writer's strips and batch jobs all share it, so no more threads compute at once than
/// there are cores.
///
/// A render (or batch job) holds a core while it runs (`occupying`). Work split into pieces
/// (`perform`) runs on the calling thread, and on the pool's helper threads only while cores
/// are free: one render alone spreads its bands over every core; as many renders as cores each
/// run their own pieces on their own thread, with no helper taking a core from another.
///
/// A render hands out jobs a fraction of a millisecond apart (a block's tiles to decode, its
/// bands to paint, the PNG writer's strips). A helper that has just finished a piece (one
/// helper at a time), and a caller whose pieces are all taken, therefore look for work for
/// `spin` (yielding the core to any thread that wants it) before they sleep: a sleeping thread
/// costs a wake-up per job, and a scheduler may queue the woken thread behind its waker on the
/// waker's core while another core idles (as some virtual machines' schedulers do while the
/// machine is little used).
public final class CPUPool: @unchecked Sendable {
    /// The cores this process may use (as `ProcessInfo.activeProcessorCount` says, asked once:
    /// it reads the control group's files each time).
    public static let cores = ProcessInfo.processInfo.activeProcessorCount
    /// The pool for all work of the process.
    public static let shared = CPUPool(threads: cores)

    /// Threads that may compute at once: the cores.
    public let threads: Int

    /// True in a task that holds a core (see `occupying`).
    @TaskLocal static var holdsCore = false
    /// True on the pool's helper threads.
    private static let helperKey = "mapcompose.cpu-pool.helper"

    private final class Job {
        /// Emptied when the job is done, so that helpers still holding the job do not hold the
        /// caller's closure.
        var body: (Int) -> Void
        let count: Int
        var next = 0
        /// Pieces not yet done; changed with the pool's lock held, read without it too.
        let unfinished: Atomic<Int>

        init(_ body: @escaping (Int) -> Void, count: Int) {
            self.body = body
            self.count = count
            unfinished = Atomic(count)
        }

        var isDone: Bool { unfinished.load(ordering: .acquiring) == 0 }

        /// Counts one piece done. Called with the pool's lock held.
        func finishPiece() { unfinished.subtract(1, ordering: .releasing) }
    }

    private let condition = NSCondition()
    /// Renders and callers holding a core, and helpers at work: together at most `threads`
    /// when helpers take work.
    private var occupants = 0
    private var helpersWorking = 0
    private var jobs: [Job] = []
    /// `jobs.count`, changed with the lock held, read without it by a thread looking for work.
    private let jobsQueued = Atomic<Int>(0)
    private var helpersStarted = false
    /// Times a helper went to sleep for want of work.
    private var sleeps = 0
    /// True while a helper looks for work: one at a time does, so that the first piece of the
    /// next job is taken at once, while the others sleep rather than all spend a core looking.
    private var helperLooking = false

    /// How long a helper that has finished a piece, or a caller waiting for its job's last
    /// pieces, looks for work before it sleeps (see the type's summary).
    let spin: Duration
    /// The `spin` of pools made without one.
    public static let defaultSpin = Duration.milliseconds(1)

    public init(threads: Int, spin: Duration = CPUPool.defaultSpin) {
        self.threads = max(1, threads)
        self.spin = spin
    }

    /// Runs `body` holding a core for its whole length: helpers then leave that core to it.
    public func occupying<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        if Self.holdsCore { return try await body() }
        condition.withLock { occupants += 1 }
        defer { condition.withLock { occupants -= 1; condition.broadcast() } }
        return try await Self.$holdsCore.withValue(true) { try await body() }
    }

    /// `work` as the calling task's own work, to be run on another thread while the task waits
    /// for it: where the task holds a core, `perform` within `work` counts no further core, so
    /// helpers join it on the cores left free.
    static func onCallersCore<T>(_ work: @escaping @Sendable () -> T) -> @Sendable () -> T {
        guard holdsCore else { return work }
        return { $holdsCore.withValue(true) { work() } }
    }

    /// Calls `body(index)` for every index in `0..<count` and returns when all are done: on
    /// the calling thread, and at once on helper threads where cores are free. Each call must
    /// write only what it alone owns. On a helper thread (work within work), runs in order.
    public func perform(_ count: Int, _ body: (Int) -> Void) {
        guard count > 1, threads > 1, Thread.current.threadDictionary[Self.helperKey] == nil else {
            for index in 0..<count { body(index) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let job = Job(body, count: count)
            let counted = !Self.holdsCore
            condition.withLock {
                startHelpersIfNeeded()
                if counted { occupants += 1 }
                jobs.append(job)
                jobsQueued.add(1, ordering: .releasing)
                condition.broadcast()
            }
            condition.lock()
            while job.next < job.count {
                let index = take(from: job)
                condition.unlock()
                job.body(index)
                condition.lock()
                job.finishPiece()
            }
            if !job.isDone {
                // Pieces still running on helpers: look for them to finish, then sleep.
                let lookUntil = ContinuousClock.now + spin
                while !job.isDone {
                    if !looked(until: lookUntil, while: { !job.isDone }) { condition.wait() }
                }
            }
            job.body = { _ in }
            if counted { occupants -= 1 }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The next index of `job`, which has one; drops the job from the queue once all are taken.
    /// Called with the lock held.
    private func take(from job: Job) -> Int {
        let index = job.next
        job.next += 1
        if job.next == job.count {
            jobs.removeAll { $0 === job }
            jobsQueued.subtract(1, ordering: .releasing)
        }
        return index
    }

    /// Times a helper went to sleep for want of work (for tests).
    var helperSleeps: Int { condition.withLock { sleeps } }

    /// Starts the helper threads now rather than at the first `perform` (see `TextWarmUp`).
    func startHelpers() {
        condition.withLock { startHelpersIfNeeded() }
    }

    /// Called with the lock held.
    private func startHelpersIfNeeded() {
        guard !helpersStarted else { return }
        helpersStarted = true
        for number in 1..<threads {
            let thread = Thread { [self] in helperLoop() }
            thread.name = "mapcompose.cpu-\(number)"
            thread.threadDictionary[Self.helperKey] = true
            thread.start()
        }
    }

    /// A helper: takes a piece of the oldest job whenever a core is free.
    private func helperLoop() {
        condition.lock()
        // Until when an idle helper looks for work: `spin` after it started or last finished
        // a piece; nil once it has slept (a wake-up that finds no work does not make it look).
        var lookUntil: ContinuousClock.Instant? = .now + spin
        // Whether this helper is the one looking (see `helperLooking`).
        var looking = false
        func setLooking(_ value: Bool) {
            if looking != value { helperLooking = value }
            looking = value
        }
        while true {
            guard let job = jobs.first, occupants + helpersWorking < threads else {
                if jobs.isEmpty, let until = lookUntil, occupants + helpersWorking < threads, looking || !helperLooking {
                    setLooking(true)
                    if looked(until: until, while: { self.jobsQueued.load(ordering: .acquiring) == 0 }) { continue }
                }
                setLooking(false)
                lookUntil = nil
                sleeps += 1
                condition.wait()
                continue
            }
            setLooking(false)
            let index = take(from: job)
            helpersWorking += 1
            condition.unlock()
            job.body(index)
            condition.lock()
            helpersWorking -= 1
            job.finishPiece()
            condition.broadcast()
            lookUntil = .now + spin
        }
    }

    /// Before `until`: lets go of the lock, offers the core to any other thread that wants it
    /// for as long as `nothingYet` holds (it reads atomics only, not what the lock guards) and
    /// `until` has not passed, takes the lock again and returns true. After `until`: false, the
    /// lock still held, for the caller to sleep instead. Called with the lock held. Looking
    /// without the lock leaves it to the threads that have work to record.
    private func looked(until: ContinuousClock.Instant, while nothingYet: () -> Bool) -> Bool {
        guard ContinuousClock.now < until else { return false }
        condition.unlock()
        while nothingYet(), ContinuousClock.now < until { sched_yield() }
        condition.lock()
        return true
    }
}
