import Foundation

/// One `Layer` of a WMTS capabilities document: what a client needs to ask for its tiles.
public struct WMTSLayer: Sendable, Equatable {
    /// A `TileMatrixSetLink`: a set the layer is served in and, per matrix, the tiles it has.
    public struct SetLink: Sendable, Equatable {
        public struct Limits: Sendable, Equatable {
            public let rows: ClosedRange<Int>
            public let columns: ClosedRange<Int>
        }

        public let tileMatrixSet: String
        /// `TileMatrixSetLimits` by TileMatrix identifier (empty when the layer fills the set).
        public let limits: [String: Limits]
    }

    /// A RESTful `ResourceURL` template.
    public struct ResourceURL: Sendable, Equatable {
        public let format: String
        public let resourceType: String
        public let template: String
    }

    public let identifier: String
    public let formats: [String]
    /// Style identifiers, the default (`isDefault="true"`) first when there is one.
    public let styles: [String]
    public let tileMatrixSetLinks: [SetLink]
    public let resourceURLs: [ResourceURL]

    init(_ element: XMLTreeElement) throws(WMTSCapabilitiesError) {
        let reader = XMLValueReader { WMTSCapabilitiesError(reason: $0) }
        identifier = try reader.text(element.child("Identifier"), "Layer/Identifier")
        let layerReader = XMLValueReader { WMTSCapabilitiesError(reason: "Layer '\(element.child("Identifier")?.text ?? "")': \($0)") }
        formats = element.children("Format").map(\.text)
        let styleElements = element.children("Style")
        styles = (styleElements.filter { $0.attributes["isDefault"] == "true" }
                  + styleElements.filter { $0.attributes["isDefault"] != "true" }).compactMap { $0.child("Identifier")?.text }
        var links: [SetLink] = []
        for link in element.children("TileMatrixSetLink") {
            let set = try layerReader.text(link.child("TileMatrixSet"), "TileMatrixSetLink/TileMatrixSet")
            var limits: [String: SetLink.Limits] = [:]
            for limit in link.child("TileMatrixSetLimits")?.children("TileMatrixLimits") ?? [] {
                let matrix = try layerReader.text(limit.child("TileMatrix"), "TileMatrixLimits/TileMatrix")
                let range = 0...(1 << TileMatrix.maxLevel)
                let minRow = try layerReader.integer(limit.child("MinTileRow"), "MinTileRow", in: range)
                let maxRow = try layerReader.integer(limit.child("MaxTileRow"), "MaxTileRow", in: range)
                let minColumn = try layerReader.integer(limit.child("MinTileCol"), "MinTileCol", in: range)
                let maxColumn = try layerReader.integer(limit.child("MaxTileCol"), "MaxTileCol", in: range)
                guard minRow <= maxRow, minColumn <= maxColumn else {
                    throw layerReader.fail("TileMatrixLimits of '\(matrix)' are empty")
                }
                limits[matrix] = SetLink.Limits(rows: minRow...maxRow, columns: minColumn...maxColumn)
            }
            links.append(SetLink(tileMatrixSet: set, limits: limits))
        }
        tileMatrixSetLinks = links
        resourceURLs = element.children("ResourceURL").compactMap { url in
            guard let template = url.attributes["template"] else { return nil }
            return ResourceURL(format: url.attributes["format"] ?? "", resourceType: url.attributes["resourceType"] ?? "",
                               template: template)
        }
    }
}
