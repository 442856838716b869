import Foundation
import Testing
@testable import MapComposeCommandLine

@Suite struct TaskStartTests {
    @Test func waitReturnsOnceAnotherThreadSignals() {
        let start = TaskStart()
        let signalled = Thread { start.signal() }
        signalled.start()
        start.wait()
        #expect(start.hasStarted)
    }

    @Test func waitAfterTheSignalReturnsAtOnce() {
        let start = TaskStart()
        #expect(!start.hasStarted)
        start.signal()
        start.wait()
        #expect(start.hasStarted)
    }
}
