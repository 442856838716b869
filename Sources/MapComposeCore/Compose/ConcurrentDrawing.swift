import Dispatch
import Foundation

/// Drawing work run on all cores: `body(index)` for every index in `0..<count`, at once on
/// several threads, returning when all are done. Each call must draw only on what it alone
/// owns (its own views, see RasterImage+Views.swift). Throws the first failure.
enum ConcurrentDrawing {
    static func run(_ count: Int, _ body: (Int) throws(CairoError) -> Void) throws(CairoError) {
        let failures = Failures()
        withoutActuallyEscaping({ (index: Int) in
            do throws(CairoError) {
                try body(index)
            } catch {
                failures.record(error)
            }
        }) { work in
            nonisolated(unsafe) let work = work
            DispatchQueue.concurrentPerform(iterations: count) { work($0) }
        }
        if let error = failures.first { throw error }
    }

    /// The first failure among the threads.
    private final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var error: CairoError?

        func record(_ failure: CairoError) { lock.withLock { if error == nil { error = failure } } }

        var first: CairoError? { lock.withLock { error } }
    }
}
