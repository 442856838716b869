import Foundation
import Testing
@testable import MapComposeCore

/// Work on all cores: every index once, results in index order.
@Suite struct ConcurrentWorkTests {
    @Test func mapAnswersEveryIndexInOrder() {
        let calls = Counter()
        let squares = ConcurrentWork.map(1000) { index in
            calls.add()
            return "\(index * index)"
        }
        #expect(squares == (0..<1000).map { "\($0 * $0)" })
        #expect(calls.value == 1000)
        #expect(ConcurrentWork.map(0) { $0 }.isEmpty)
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        func add() { lock.withLock { count += 1 } }

        var value: Int { lock.withLock { count } }
    }
}
