import Foundation

/// One `TileMatrixSet` of a WMTS capabilities document: its identifier, coordinate system and
/// tile matrices, and the `TileMatrix` grid they describe.
public struct WMTSTileMatrixSet: Sendable, Equatable {
    /// One `TileMatrix` (a zoom level) as the document gives it.
    public struct Level: Sendable, Equatable {
        public let identifier: String
        public let scaleDenominator: Double
        /// `TopLeftCorner` in the set's CRS (x then y for EPSG:3857).
        public let topLeftX: Double
        public let topLeftY: Double
        public let tileWidth: Int
        public let tileHeight: Int
        public let matrixWidth: Int
        public let matrixHeight: Int

        /// Metres per pixel: the scale denominator × 0.28 mm (WMTS's standardized pixel size).
        public var resolution: Double { scaleDenominator * WMTSTileMatrixSet.pixelSize }
    }

    /// WMTS's standardized rendering pixel size, in metres.
    public static let pixelSize = 0.00028
    /// EPSG codes whose axes and units are Web Mercator's.
    public static let webMercatorCodes: Set<Int> = [3857, 900913, 102100, 102113]

    public let identifier: String
    public let supportedCRS: String
    public let wellKnownScaleSet: String?
    /// The matrices, coarsest first (the document's order may differ).
    public let levels: [Level]

    init(_ element: XMLTreeElement) throws(WMTSCapabilitiesError) {
        let reader = XMLValueReader { WMTSCapabilitiesError(reason: $0) }
        let identifier = try reader.text(element.child("Identifier"), "TileMatrixSet/Identifier")
        self.identifier = identifier
        let fail = { (reason: String) in WMTSCapabilitiesError(reason: "TileMatrixSet '\(identifier)': \(reason)") }
        let setReader = XMLValueReader(fail: fail)
        supportedCRS = try setReader.text(element.child("SupportedCRS"), "SupportedCRS")
        wellKnownScaleSet = element.child("WellKnownScaleSet")?.text
        var levels: [Level] = []
        for matrix in element.children("TileMatrix") {
            let id = try setReader.text(matrix.child("Identifier"), "TileMatrix/Identifier")
            let levelReader = XMLValueReader { fail("TileMatrix '\(id)': \($0)") }
            let corner = try levelReader.pair(matrix.child("TopLeftCorner"), "TopLeftCorner")
            levels.append(Level(
                identifier: id,
                scaleDenominator: try levelReader.number(matrix.child("ScaleDenominator"), "ScaleDenominator", in: 1e-9...1e300),
                topLeftX: corner.0, topLeftY: corner.1,
                tileWidth: try levelReader.integer(matrix.child("TileWidth"), "TileWidth", in: 1...4096),
                tileHeight: try levelReader.integer(matrix.child("TileHeight"), "TileHeight", in: 1...4096),
                matrixWidth: try levelReader.integer(matrix.child("MatrixWidth"), "MatrixWidth", in: 1...(1 << TileMatrix.maxLevel)),
                matrixHeight: try levelReader.integer(matrix.child("MatrixHeight"), "MatrixHeight", in: 1...(1 << TileMatrix.maxLevel))))
        }
        guard !levels.isEmpty else { throw fail("no <TileMatrix>") }
        self.levels = levels.sorted { $0.scaleDenominator > $1.scaleDenominator }
    }

    /// True when the set's CRS (or its well-known scale set) is Web Mercator: EPSG:3857 in any
    /// of its spellings (`EPSG:3857`, `urn:ogc:def:crs:EPSG::3857`, an OGC `def/crs` URL),
    /// 900913, 102100, 102113, or Google Maps compatible.
    public var isWebMercator: Bool {
        if wellKnownScaleSet?.hasSuffix("GoogleMapsCompatible") == true { return true }
        let code = supportedCRS.split(whereSeparator: { $0 == ":" || $0 == "/" }).last.flatMap { Int($0) }
        return code.map(Self.webMercatorCodes.contains) ?? false
    }

    /// The grid of this set. Every matrix must share one top-left corner and one tile size;
    /// the set must be in Web Mercator.
    public func tileMatrix() throws(WMTSCapabilitiesError) -> TileMatrix {
        let prefix = "TileMatrixSet '\(identifier)'"
        guard isWebMercator else {
            throw WMTSCapabilitiesError(reason: "\(prefix) is in \(supportedCRS); only EPSG:3857-compatible sets "
                                        + "(EPSG:3857, 900913, GoogleMapsCompatible) can be drawn (no reprojection)")
        }
        let first = levels[0]
        for level in levels.dropFirst() {
            let corner = max(abs(first.topLeftX), abs(first.topLeftY), 1) * 1e-9
            guard abs(level.topLeftX - first.topLeftX) <= corner, abs(level.topLeftY - first.topLeftY) <= corner else {
                throw WMTSCapabilitiesError(reason: "\(prefix): TileMatrix '\(level.identifier)' has another top-left corner "
                                            + "than '\(first.identifier)' (one origin per set is supported)")
            }
            guard level.tileWidth == first.tileWidth, level.tileHeight == first.tileHeight else {
                throw WMTSCapabilitiesError(reason: "\(prefix): TileMatrix '\(level.identifier)' has \(level.tileWidth)x"
                                            + "\(level.tileHeight) tiles, '\(first.identifier)' \(first.tileWidth)x\(first.tileHeight) "
                                            + "(one tile size per set is supported)")
            }
        }
        do {
            return try TileMatrix(identity: "wmts-\(identifier)", originX: first.topLeftX, originY: first.topLeftY,
                                  tileWidth: first.tileWidth, tileHeight: first.tileHeight,
                                  levels: levels.map { TileMatrix.Level(resolution: $0.resolution, matrixWidth: $0.matrixWidth,
                                                                        matrixHeight: $0.matrixHeight) })
        } catch {
            throw WMTSCapabilitiesError(reason: "\(prefix): \(error.reason)")
        }
    }
}
