import Foundation

/// The parts of a WMTS 1.0.0 capabilities document that say where tiles are and how they are
/// gridded: the layers and the tile matrix sets (`Contents`).
public struct WMTSCapabilities: Sendable, Equatable {
    public let layers: [WMTSLayer]
    public let tileMatrixSets: [WMTSTileMatrixSet]
    /// The KVP GetTile endpoint the document names (`OperationsMetadata`), if any.
    public let getTileURL: String?

    /// Parses the document's bytes.
    public init(xml data: Data) throws(WMTSCapabilitiesError) {
        let root: XMLTreeElement
        do {
            root = try XMLTreeElement.parse(data)
        } catch {
            throw WMTSCapabilitiesError(reason: error.description)
        }
        guard root.name == "Capabilities" else {
            throw WMTSCapabilitiesError(reason: "the root element is <\(root.name)>, not a WMTS <Capabilities>")
        }
        guard let contents = root.child("Contents") else { throw WMTSCapabilitiesError(reason: "no <Contents>") }
        var layers: [WMTSLayer] = []
        for element in contents.children("Layer") { layers.append(try WMTSLayer(element)) }
        var sets: [WMTSTileMatrixSet] = []
        for element in contents.children("TileMatrixSet") { sets.append(try WMTSTileMatrixSet(element)) }
        self.layers = layers
        tileMatrixSets = sets
        getTileURL = root.child("OperationsMetadata")?.children("Operation").first { $0.attributes["name"] == "GetTile" }?
            .path("DCP", "HTTP", "Get")?.attributes.first { $0.key.hasSuffix("href") }?.value
    }

    public func layer(_ identifier: String) -> WMTSLayer? {
        layers.first { $0.identifier == identifier }
    }

    public func tileMatrixSet(_ identifier: String) -> WMTSTileMatrixSet? {
        tileMatrixSets.first { $0.identifier == identifier }
    }
}
