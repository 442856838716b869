import Foundation
import FuzzSupport
import MapComposeCore

/// A style tree like the repository's: `Styles/maplibre.json` (never read: the input is its
/// text) next to a copy of the OpenMapTiles-schema fixture under `Tests/Fixtures/MapLibre/`, so
/// the committed style's `pmtiles://../Tests/Fixtures/MapLibre/ne-omt.pmtiles` opens.
let mapLibreOrigin: StyleOrigin = {
    let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    for name in ["ne-omt.pmtiles", "ne-omt.mbtiles"] {
        let fixture = fuzz.appendingPathComponent("../Tests/Fixtures/MapLibre/\(name)")
        if let data = try? Data(contentsOf: fixture) {
            ScratchFolder.write(data, to: "tree/Tests/Fixtures/MapLibre/\(name)")
        }
    }
    return .file(ScratchFolder.url.appendingPathComponent("tree/Styles/maplibre.json"))
}()

/// Arbitrary text as a MapLibre style.json: a loaded style, or problems that each say what.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMapLibreStyle(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: FuzzInput.data(bytes, size), as: UTF8.self)
    do {
        _ = try StyleLoader.load(text: text, origin: mapLibreOrigin, remote: OfflineRemote.environment)
    } catch {
        precondition(!error.problems.isEmpty && error.problems.allSatisfy { !$0.message.isEmpty })
    }
    return 0
}
