import Foundation
import FuzzSupport
import MapComposeCore

/// Arbitrary bytes as an XML document read into an element tree and then, by its root element,
/// as WMTS capabilities or an ArcGIS cache's conf.xml: a result or an error, whatever the
/// nesting, size or markup.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput.data(bytes, size)
    guard let root = try? XMLTreeElement.parse(input) else { return 0 }
    switch root.name {
    case "Capabilities":
        guard let capabilities = try? WMTSCapabilities(xml: input) else { return 0 }
        for set in capabilities.tileMatrixSets {
            _ = try? set.tileMatrix()
        }
        for layer in capabilities.layers {
            _ = layer.tileMatrixSetLinks.map { capabilities.tileMatrixSet($0.tileMatrixSet)?.isWebMercator }
        }
    case "CacheInfo":
        if let info = try? ArcGISCacheInfo(xml: input, path: "conf.xml") {
            _ = try? info.matrix(path: "conf.xml")
        }
    default:
        break
    }
    return 0
}
