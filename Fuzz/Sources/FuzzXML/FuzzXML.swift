import Foundation
import FuzzSupport
import MapComposeCore

/// Arbitrary bytes as an XML document read into an element tree, as WMTS capabilities and as an
/// ArcGIS cache's conf.xml: a result or an error, whatever the nesting, size or markup.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput.data(bytes, size)
    guard (try? XMLTreeElement.parse(input)) != nil else { return 0 }
    if let capabilities = try? WMTSCapabilities(xml: input) {
        for set in capabilities.tileMatrixSets {
            _ = try? set.tileMatrix()
        }
        for layer in capabilities.layers {
            _ = layer.tileMatrixSetLinks.map { capabilities.tileMatrixSet($0.tileMatrixSet)?.isWebMercator }
        }
    }
    if let info = try? ArcGISCacheInfo(xml: input, path: "conf.xml") {
        _ = try? info.matrix(path: "conf.xml")
    }
    return 0
}
