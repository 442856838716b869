import Foundation
import Testing
@testable import MapComposeCore

/// Text set up ahead of need, on the calling thread or on one of its own: waiting returns once
/// it is done, as often as asked, and text is then ready to set.
@Suite struct TextWarmUpTests {
    @Test func waitReturnsOnceRunOnTheCallingThreadIsDone() throws {
        let warmUp = TextWarmUp()
        warmUp.run()
        warmUp.wait()
        warmUp.wait()
        #expect(FontConfiguration.ready)
        let line = try TextLine("Natural Earth", font: TextFont(size: 10))
        #expect(line.extents.width > 0)
    }

    @Test func waitReturnsOnceTheWarmUpsOwnThreadIsDone() {
        let warmUp = TextWarmUp.start()
        warmUp.wait()
        warmUp.wait()
        #expect(FontConfiguration.ready)
    }
}
