import Foundation

/// The area an ArcGIS cache covers, from the `EnvelopeN` of its conf.cdi (EPSG:3857 metres).
public struct ArcGISCacheExtent: Sendable, Equatable {
    public let rect: MetersRect

    /// Reads conf.cdi's bytes; `path` names the file in errors.
    public init(xml data: Data, path: String) throws(ArcGISCacheError) {
        let root: XMLTreeElement
        do {
            root = try XMLTreeElement.parse(data)
        } catch {
            throw ArcGISCacheError(path: path, reason: error.description)
        }
        guard root.name == "EnvelopeN" else {
            throw ArcGISCacheError(path: path, reason: "the root element is <\(root.name)>, not <EnvelopeN>")
        }
        let reader = XMLValueReader { ArcGISCacheError(path: path, reason: $0) }
        let rect = MetersRect(minX: try reader.number(root.child("XMin"), "XMin"),
                              minY: try reader.number(root.child("YMin"), "YMin"),
                              maxX: try reader.number(root.child("XMax"), "XMax"),
                              maxY: try reader.number(root.child("YMax"), "YMax"))
        guard rect.minX < rect.maxX, rect.minY < rect.maxY else {
            throw ArcGISCacheError(path: path, reason: "the envelope \(rect) is empty")
        }
        self.rect = rect
    }

    /// The extent in degrees, limited to the Web Mercator world; nil when it lies outside it.
    public var bounds: GeoBounds? {
        let limit = WebMercator.originShift
        guard let inside = rect.intersection(MetersRect(minX: -limit, minY: -limit, maxX: limit, maxY: limit)) else {
            return nil
        }
        let sw = WebMercator.lonLat(fromMetersX: inside.minX, y: inside.minY)
        let ne = WebMercator.lonLat(fromMetersX: inside.maxX, y: inside.maxY)
        // Rounding may put a corner on the world's edge a hair past ±180°.
        func lon(_ value: Double) -> Double { min(180, max(-180, value)) }
        let box = GeoBounds(west: lon(sw.lon), south: sw.lat, east: lon(ne.lon), north: ne.lat)
        return box.isValidBox ? box : nil
    }
}
