import FuzzSupport
import MapComposeCore

/// Arbitrary bytes as a GeoJSON source (labels on `name`): a source that draws its world tile
/// and one deeper tile (256 px: drawing dominates the time of a run), or a parse error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let spec = GeoJSONSourceSpec(data: FuzzInput.data(bytes, size), path: "fuzz.geojson",
                                 symbolizer: FeatureSymbolizer(labelProperty: "name"))
    guard let source = try? GeoJSONTileSource(spec: spec) else { return 0 }
    FuzzInput.wait {
        _ = await source.fetch(TileCoord(z: 0, x: 0, y: 0), pixelRatio: 1)
        _ = await source.fetch(TileCoord(z: 3, x: 4, y: 3), pixelRatio: 1)
    }
    return 0
}
