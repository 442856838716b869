import Foundation

/// A longitude/latitude pair in degrees (WGS84).
public struct LonLat: Equatable, Sendable, Codable {
    public var lon: Double
    public var lat: Double

    public init(lon: Double, lat: Double) {
        self.lon = lon
        self.lat = lat
    }
}

/// A point in Web Mercator "world pixels": `WebMercator.zoom0WorldSize`·2^zoom pixels span the
/// world, origin top-left.
public struct WorldPixel: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Spherical Web Mercator (EPSG:3857) math, all in Double.
public enum WebMercator {
    /// Earth radius used by EPSG:3857.
    public static let earthRadius = 6_378_137.0
    /// Half the world's width in meters (the x of longitude 180°).
    public static let originShift = Double.pi * earthRadius
    /// The latitude where the square Web Mercator world ends.
    public static let maxLatitude = 85.051_128_779_806_59
    /// Width of the world in CSS pixels at zoom 0: what "zoom" means, whatever a source's tiles.
    public static let zoom0WorldSize = 256.0

    /// Clamps a latitude to the Web Mercator limit.
    public static func clampLatitude(_ lat: Double) -> Double {
        min(max(lat, -maxLatitude), maxLatitude)
    }

    /// Longitude/latitude to EPSG:3857 meters (latitude clamped to the Mercator limit).
    public static func meters(from point: LonLat) -> (x: Double, y: Double) {
        let lat = clampLatitude(point.lat) * .pi / 180
        let x = earthRadius * point.lon * .pi / 180
        let y = earthRadius * log(tan(.pi / 4 + lat / 2))
        return (x, y)
    }

    /// EPSG:3857 meters to longitude/latitude.
    public static func lonLat(fromMetersX x: Double, y: Double) -> LonLat {
        let lon = x / earthRadius * 180 / .pi
        let lat = (2 * atan(exp(y / earthRadius)) - .pi / 2) * 180 / .pi
        return LonLat(lon: lon, lat: lat)
    }

    /// Size of the world in pixels at a (possibly fractional) zoom.
    public static func worldSize(atZoom zoom: Double) -> Double {
        zoom0WorldSize * exp2(zoom)
    }

    /// Longitude/latitude to world pixels at `zoom`. Longitude is not wrapped.
    public static func worldPixel(from point: LonLat, zoom: Double) -> WorldPixel {
        let m = meters(from: point)
        return worldPixel(fromMetersX: m.x, y: m.y, zoom: zoom)
    }

    /// EPSG:3857 meters to world pixels at `zoom`.
    public static func worldPixel(fromMetersX x: Double, y: Double, zoom: Double) -> WorldPixel {
        let size = worldSize(atZoom: zoom)
        return WorldPixel(x: (x + originShift) / (2 * originShift) * size,
                          y: (originShift - y) / (2 * originShift) * size)
    }

    /// World pixels at `zoom` to EPSG:3857 meters.
    public static func meters(from pixel: WorldPixel, zoom: Double) -> (x: Double, y: Double) {
        let size = worldSize(atZoom: zoom)
        return (pixel.x / size * 2 * originShift - originShift,
                originShift - pixel.y / size * 2 * originShift)
    }

    /// World pixels at `zoom` to longitude/latitude.
    public static func lonLat(from pixel: WorldPixel, zoom: Double) -> LonLat {
        let m = meters(from: pixel, zoom: zoom)
        return lonLat(fromMetersX: m.x, y: m.y)
    }

    /// Wraps a longitude into [-180, 180).
    public static func wrapLongitude(_ lon: Double) -> Double {
        let wrapped = (lon + 180).truncatingRemainder(dividingBy: 360)
        return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
    }
}
