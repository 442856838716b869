import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Entries of a sprite's index that give no icon (no numbers, or a rectangle outside the sheet)
/// are named in one note; the others are drawn.
@Suite struct MapLibreSpriteIndexTests {
    @Test func entriesOutsideTheSheetOrWithoutNumbersAreNamedInANote() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(at: TestPaths.fixture("MapLibre").appendingPathComponent("sprite.png"),
                                         to: folder.url.appendingPathComponent("icons.png"))
        _ = try folder.write("""
            {"square": {"x": 0, "y": 0, "width": 12, "height": 12, "pixelRatio": 1},
             "past-the-edge": {"x": 20, "y": 0, "width": 16, "height": 16},
             "huge": {"x": 0, "y": 0, "width": 1099511627776, "height": 1099511627776},
             "words": {"x": "a", "y": null, "width": [], "height": {}}}
            """, to: "icons.json")
        let fixture = TestPaths.fixture("MapLibre").appendingPathComponent("ne-omt.pmtiles").path
        let style = try StyleLoader.load(text: """
            {"version": 8, "sprite": "icons", "sources": {"omt": {"type": "vector", "url": "pmtiles://\(fixture)"}},
             "layers": [{"id": "places", "type": "symbol", "source": "omt", "source-layer": "place",
                         "layout": {"icon-image": "square"}}]}
            """, origin: .file(folder.url.appendingPathComponent("style.json")))
        let notes = style.notes.map(\.message)
        #expect(notes.count == 1, "\(notes)")
        let note = try #require(notes.first)
        #expect(note.hasPrefix("3 icons are not drawn: 'past-the-edge' in 'icons.json': x 20, y 0, width 16, height 16 "
                               + "is not a rectangle within the 28×16 sheet (and 2 more)"), "\(note)")
        // The good entry is an icon.
        let (sheets, _, leftOut) = MapLibreSprite.loadSheets("icons", base: folder.url, remote: .standard)
        #expect(try sheets.get().standard.keys.sorted() == ["square"])
        #expect(leftOut.contains { $0.contains("'words'") && $0.contains("no numbers") })
    }

    @Test func theFixtureSpritesLeaveNothingOut() {
        for name in ["sprite", "sdf", "line-patterns", "text-fit"] {
            let (sheets, doubleProblem, leftOut) = MapLibreSprite.loadSheets(name, base: TestPaths.fixture("MapLibre"), remote: .standard)
            #expect((try? sheets.get()) != nil && doubleProblem == nil && leftOut.isEmpty, "\(name): \(leftOut)")
        }
    }
}
