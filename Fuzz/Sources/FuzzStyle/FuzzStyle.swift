import Foundation
import FuzzSupport
import MapComposeCore

/// A style tree like the repository's: `Styles/style.yaml` (never read: the input is its
/// text), small data files under `Styles/data/`, and the reference tiles and MBTiles under
/// `Tests/Fixtures/Reference/`, so the shipped styles load and mutations reach every source.
let styleOrigin: StyleOrigin = {
    let countries = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "Square"}, "#
        + #""geometry": {"type": "Polygon", "coordinates": [[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]]]}}]}"#
    let cities = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "Zero"}, "#
        + #""geometry": {"type": "Point", "coordinates": [0, 0]}}]}"#
    ScratchFolder.write(Data(countries.utf8), to: "tree/Styles/data/ne_110m_countries.geojson")
    ScratchFolder.write(Data(cities.utf8), to: "tree/Styles/data/ne_110m_cities.geojson")
    if let tile = try? RasterImage(width: 4, height: 4), let png = try? ImageEncoder.png(tile) {
        ScratchFolder.write(png, to: "tree/Tests/Fixtures/Reference/tiles/0/0/0.png")
        ScratchFolder.write(png, to: "tree/Tests/Fixtures/Reference/tiles/1/1/0.png")
        let mbtiles = ScratchFolder.url.appendingPathComponent("tree/Tests/Fixtures/Reference/naturalearth.mbtiles")
        if let writer = try? MBTilesWriter(file: mbtiles, metadata: ["minzoom": "0", "maxzoom": "1", "format": "png"]) {
            try? writer.put(TileCoord(z: 0, x: 0, y: 0), data: png)
        }
    }
    return .file(ScratchFolder.url.appendingPathComponent("tree/Styles/style.yaml"))
}()

/// Arbitrary text as a style file: a loaded style, or problems that each say where and what.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStyle(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: FuzzInput.data(bytes, size), as: UTF8.self)
    do {
        _ = try StyleLoader.load(text: text, origin: styleOrigin, remote: OfflineRemote.environment)
    } catch {
        precondition(!error.problems.isEmpty && error.problems.allSatisfy { !$0.message.isEmpty })
    }
    return 0
}
