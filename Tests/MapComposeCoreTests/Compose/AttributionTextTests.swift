@testable import MapComposeCore
import Testing

@Suite struct AttributionTextTests {
    @Test func partsAreJoinedOnceEach() {
        let text = AttributionText(["© Style", nil, "© Tiles", "© style", ""])
        #expect(text.text == "© Style | © Tiles")
        #expect(!text.wasCut)
    }

    @Test func aHugeAttributionIsCutToTheLimit() {
        let text = AttributionText([String(repeating: "a", count: 10_000_000), "© Tiles"])
        #expect(text.text.count == AttributionText.maxLength)
        #expect(text.text.hasSuffix("a…"))
        #expect(text.wasCut)
    }
}
