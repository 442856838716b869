import Foundation

/// Work run on the cores the process's `CPUPool` has free: `body(index)` for every index in
/// `0..<count`, at once on several threads, returning when all are done. Each call must write
/// only what it alone owns (its own rows, its own views: see RasterImage+Views.swift).
enum ConcurrentWork {
    static func perform(_ count: Int, _ body: (Int) -> Void) {
        CPUPool.shared.perform(count, body)
    }

    /// `body(index)` for every index in `0..<count`, on all cores; the results in index order.
    static func map<Result>(_ count: Int, _ body: (Int) -> Result) -> [Result] {
        guard count > 0 else { return [] }
        return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Each call initializes only its own slot.
            nonisolated(unsafe) let slots = buffer.baseAddress!
            perform(count) { index in (slots + index).initialize(to: body(index)) }
            initialized = count
        }
    }

    /// `perform` for work that may fail: every call runs, then the first failure is thrown.
    static func run<Failure: Error>(_ count: Int, _ body: (Int) throws(Failure) -> Void) throws(Failure) {
        let failures = Failures<Failure>()
        perform(count) { index in
            do throws(Failure) {
                try body(index)
            } catch {
                failures.record(error)
            }
        }
        if let error = failures.first { throw error }
    }

    /// The first failure among the threads.
    private final class Failures<Failure: Error>: @unchecked Sendable {
        private let lock = NSLock()
        private var error: Failure?

        func record(_ failure: Failure) { lock.withLock { if error == nil { error = failure } } }

        var first: Failure? { lock.withLock { error } }
    }
}
