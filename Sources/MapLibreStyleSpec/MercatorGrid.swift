import Foundation

/// Web Mercator world coordinates as vector tiles use them: a world `size` units wide
/// (2^z × 8192 at tile zoom z), x east and y south from the north-west corner.
enum MercatorGrid {
    static let tileExtent = 8192.0

    static func worldSize(zoom: Int) -> Double { pow(2, Double(zoom)) * tileExtent }

    static func project(lon: Double, lat: Double, size: Double) -> (x: Double, y: Double) {
        ((180 + lon) / 360 * size, (180 - (180 / .pi) * log(tan(.pi / 4 + lat * .pi / 360))) / 360 * size)
    }

    static func unproject(x: Double, y: Double, size: Double) -> (lon: Double, lat: Double) {
        (x / size * 360 - 180, 360 / .pi * atan(exp((180 - y / size * 360) * .pi / 180)) - 90)
    }
}
