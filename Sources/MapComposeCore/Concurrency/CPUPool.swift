import CCPUAffinity
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
    /// The cores this process may use: as many as `ProcessInfo.activeProcessorCount` says (the
    /// control group's quota included; asked once, as it reads the control group's files each
    /// time), and no more than the process's CPU affinity allows (`taskset`, a container's
    /// cpuset), which that count does not look at.
    public static let cores = allowedCores(active: ProcessInfo.processInfo.activeProcessorCount)
    /// The pool for all work of the process.
    public static let shared = CPUPool(threads: cores)

    /// Threads that may compute at once: the cores.
    public let threads: Int

    /// True in a task that holds a core (see `occupying`).
    @TaskLocal static var holdsCore = false
    /// True on the pool's helper threads.
    private static let helperKey = "mapcompose.cpu-pool.helper"

    /// `active` cores, or fewer where the calling thread's CPU affinity allows fewer.
    static func allowedCores(active: Int) -> Int {
        let allowed = Int(mc_allowed_cpu_count())
        return max(1, allowed > 0 ? min(active, allowed) : active)
    }

    private final class Job {
        /// Emptied when the job is done, so that helpers still holding the job do not hold the
        /// caller's closure.
        var body: (Int) -> Void
        let count: Int
        /// The next index to hand out; at or past `count` once every piece is taken. Taken
        /// without the pool's lock.
        private let nextIndex = Atomic<Int>(0)
        /// Pieces not yet done.
        private let unfinished: Atomic<Int>
        /// Signalled when a helper finishes the last piece, for a caller that sleeps until then.
        let finished = DispatchSemaphore(value: 0)

        init(_ body: @escaping (Int) -> Void, count: Int) {
            self.body = body
            self.count = count
            unfinished = Atomic(count)
        }

        /// The next piece's index, or nil once all are taken.
        func take() -> Int? {
            let index = nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue
            return index < count ? index : nil
        }

        var isTaken: Bool { nextIndex.load(ordering: .relaxed) >= count }

        var isDone: Bool { unfinished.load(ordering: .acquiring) == 0 }

        /// Runs piece `index` and counts it done; true when it was the last. The closure is
        /// called and let go inside `run`, before the piece counts as done.
        func finish(_ index: Int) -> Bool {
            run(index)
            return unfinished.subtract(1, ordering: .acquiringAndReleasing).newValue == 0
        }

        @inline(never) private func run(_ index: Int) { body(index) }
    }

    private let condition = NSCondition()
    /// Renders and callers holding a core, and helpers at work: together at most `threads`
    /// when helpers take work.
    private var occupants = 0
    private var helpersWorking = 0
    /// Jobs with pieces not yet taken (a job whose pieces are all taken may linger until a
    /// thread drops it).
    private var jobs: [Job] = []
    /// `jobs.count`, changed with the lock held, read without it by a thread looking for work.
    private let jobsQueued = Atomic<Int>(0)
    private var helpersStarted = false
    /// Helpers asleep, and wake-ups sent to them that no helper has answered yet.
    private var helpersAsleep = 0
    private var wakeUpsPending = 0
    /// Times a helper went to sleep for want of work, and times one woke (for tests).
    private var sleeps = 0
    private var wakeUps = 0
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
        defer {
            condition.withLock {
                occupants -= 1
                wakeHelpers(upTo: 1)
            }
        }
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
                wakeHelpers(upTo: count - 1)
            }
            while let index = job.take() { _ = job.finish(index) }
            if !job.isDone {
                // Pieces still running on helpers: look for them to finish, then sleep until
                // the helper that finishes the last one says so.
                let lookUntil = ContinuousClock.now + spin
                while !job.isDone, ContinuousClock.now < lookUntil { sched_yield() }
                if !job.isDone { job.finished.wait() }
            }
            job.body = { _ in }
            condition.withLock {
                if let position = jobs.firstIndex(where: { $0 === job }) { drop(at: position) }
                if counted {
                    occupants -= 1
                    wakeHelpers(upTo: 1)
                }
            }
        }
    }

    /// Wakes sleeping helpers for up to `pieces` pieces, as many as there are cores free and
    /// jobs queued: none while renders and callers hold every core. Called with the lock held.
    private func wakeHelpers(upTo pieces: Int) {
        guard !jobs.isEmpty else { return }
        let free = threads - occupants - helpersWorking - wakeUpsPending
        let count = min(pieces, free, helpersAsleep - wakeUpsPending)
        guard count > 0 else { return }
        for _ in 0..<count { condition.signal() }
        wakeUpsPending += count
    }

    /// Removes `jobs[position]`. Called with the lock held.
    private func drop(at position: Int) {
        jobs.remove(at: position)
        jobsQueued.subtract(1, ordering: .releasing)
    }

    /// Times a helper went to sleep for want of work (for tests).
    var helperSleeps: Int { condition.withLock { sleeps } }
    /// Times a sleeping helper was woken (for tests).
    var helperWakeUps: Int { condition.withLock { wakeUps } }

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
            while let first = jobs.first, first.isTaken { drop(at: 0) }
            guard let job = jobs.first, occupants + helpersWorking < threads else {
                if jobs.isEmpty, let until = lookUntil, occupants + helpersWorking < threads, looking || !helperLooking {
                    setLooking(true)
                    if looked(until: until, while: { self.jobsQueued.load(ordering: .acquiring) == 0 }) { continue }
                }
                setLooking(false)
                lookUntil = nil
                sleeps += 1
                helpersAsleep += 1
                condition.wait()
                helpersAsleep -= 1
                wakeUps += 1
                if wakeUpsPending > 0 { wakeUpsPending -= 1 }
                continue
            }
            setLooking(false)
            guard let index = job.take() else { continue }
            helpersWorking += 1
            condition.unlock()
            if job.finish(index) { job.finished.signal() }
            condition.lock()
            helpersWorking -= 1
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
