import CCPUAffinity
import Dispatch
import Foundation
import Testing
@testable import MapComposeCore

/// The pool's helpers join split work only on cores no render or caller holds; work a render
/// hands to another thread and waits for (its tiles' reading and decoding) runs on the
/// render's own core.
@Suite struct CPUPoolTests {
    /// The first piece waits for the second; true when a helper ran the second meanwhile.
    /// A piece left to the caller alone would wait the whole `patience`.
    private static func helperRanBeside(_ pool: CPUPool, patience: Double = 30) -> Bool {
        let secondStarted = DispatchSemaphore(value: 0)
        let joined = Flag()
        pool.perform(2) { index in
            if index == 0 {
                joined.set(secondStarted.wait(timeout: .now() + patience) == .success)
            } else {
                secondStarted.signal()
            }
        }
        return joined.value
    }

    /// Runs `work` on a thread of its own and waits for it, not as the caller's own work.
    private static func onAnotherThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    @Test func workARenderWaitsForRunsOnItsCoreSoHelpersJoinIt() async {
        let pool = CPUPool(threads: 2)
        let joined = await pool.occupying {
            await TileFileReader.perform { Self.helperRanBeside(pool) }
        }
        #expect(joined, "a render's tile decoding ran on one thread while the pool's other core was free")
    }

    @Test func aCallerHoldingNoCoreTakesOneAndLeavesTheOtherToHelpers() {
        #expect(Self.helperRanBeside(CPUPool(threads: 2)))
    }

    @Test func helpersLeaveCoresThatRendersHold() async {
        let pool = CPUPool(threads: 2)
        // Work not handed over as the render's own counts as a core of its own: with the
        // render's, both cores are taken, so no helper joins it.
        let joined = await pool.occupying {
            await Self.onAnotherThread { Self.helperRanBeside(pool, patience: 0.2) }
        }
        #expect(!joined)
    }

    @Test func aHelperThatFinishedAPieceLooksForTheNextJobInsteadOfSleeping() {
        let pool = CPUPool(threads: 2, spin: .seconds(1))
        #expect(Self.helperRanBeside(pool))
        // Each job starts only once the last one is done: a helper that slept when it ran out of
        // work would sleep between every two.
        let sleeps = pool.helperSleeps
        for _ in 0..<20 { #expect(Self.helperRanBeside(pool)) }
        #expect(pool.helperSleeps == sleeps)
    }

    @Test func aHelperThatDoesNotLookSleepsBetweenJobs() {
        let pool = CPUPool(threads: 2, spin: .zero)
        for _ in 0..<3 {
            let sleeps = pool.helperSleeps
            #expect(Self.helperRanBeside(pool))
            // Out of work, the helper goes to sleep at once rather than look.
            let deadline = Date().addingTimeInterval(30)
            while pool.helperSleeps == sleeps, Date() < deadline { sched_yield() }
            #expect(pool.helperSleeps > sleeps)
        }
    }

    @Test func oneHelperAtATimeLooksForWorkTheOthersSleep() {
        let pool = CPUPool(threads: 4, spin: .seconds(3))
        // Every piece waits until all four have started: the caller and the three helpers.
        let started = DispatchGroup()
        for _ in 0..<4 { started.enter() }
        let allStarted = Flag()
        pool.perform(4) { _ in
            started.leave()
            allStarted.set(started.wait(timeout: .now() + 30) == .success)
        }
        #expect(allStarted.value)
        // Two of the three go to sleep at once; one looks for work for `spin` (3 s).
        let deadline = Date().addingTimeInterval(1.5)
        while pool.helperSleeps < 2, Date() < deadline { sched_yield() }
        #expect(pool.helperSleeps >= 2)
    }

    @Test func helpersSleepThroughWorkWhileRendersHoldEveryCore() async {
        let pool = CPUPool(threads: 2, spin: .zero)
        // The helper goes to sleep once it has helped with a first job.
        #expect(Self.helperRanBeside(pool))
        let deadline = Date().addingTimeInterval(30)
        while pool.helperSleeps == 0, Date() < deadline { sched_yield() }
        // Two renders hold both cores; while both do, each splits work into pieces many times over.
        let bothHoldACore = DispatchGroup(), bothAreDone = DispatchGroup()
        for _ in 0..<2 {
            bothHoldACore.enter()
            bothAreDone.enter()
        }
        let wakeUps = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    await pool.occupying {
                        await Self.onAnotherThread(CPUPool.onCallersCore {
                            bothHoldACore.leave()
                            bothHoldACore.wait()
                            let before = pool.helperWakeUps
                            for _ in 0..<50 { pool.perform(8) { _ in } }
                            bothAreDone.leave()
                            bothAreDone.wait()
                            return pool.helperWakeUps - before
                        })
                    }
                }
            }
            return await group.reduce(0, max)
        }
        #expect(wakeUps == 0, "a helper was woken while no core was free")
    }

    /// `BatchCommandTests.jobsDefaultToTheCoresTheCPUAffinityAllows` runs the binary under `taskset`.
    @Test func theCoresAreNoMoreThanTheCPUAffinityAllows() {
        let allowed = Int(mc_allowed_cpu_count())
        #expect(allowed >= 1)
        #expect(CPUPool.allowedCores(active: allowed + 8) == allowed)
        #expect(CPUPool.allowedCores(active: 1) == 1)
    }

    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var state = false

        func set(_ value: Bool) { lock.withLock { state = value } }

        var value: Bool { lock.withLock { state } }
    }
}
