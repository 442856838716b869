import Foundation

/// A coordinate, box or size written as text that could not be read; the message says what
/// was expected (the caller adds which option, key or line it came from).
public struct CoordinateTextError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// Reads the text forms the command line and batch manifests share: `LAT,LON`, `W,S,E,N`
/// and `WIDTHxHEIGHT`.
public enum CoordinateText {
    /// `LAT,LON` in degrees.
    public static func center(_ text: String) throws(CoordinateTextError) -> LonLat {
        guard let parts = numbers(text), parts.count == 2 else {
            throw CoordinateTextError(description: "expected LAT,LON in degrees, e.g. 51.5,-0.12")
        }
        guard abs(parts[0]) <= 90 else {
            throw CoordinateTextError(description: "latitude \(parts[0].exactText) is outside -90…90")
        }
        guard abs(parts[1]) <= 180 else {
            throw CoordinateTextError(description: "longitude \(parts[1].exactText) is outside -180…180")
        }
        return LonLat(lon: parts[1], lat: parts[0])
    }

    /// `W,S,E,N` in degrees (W > E crosses the antimeridian).
    public static func bbox(_ text: String) throws(CoordinateTextError) -> GeoBounds {
        guard let parts = numbers(text), parts.count == 4 else {
            throw CoordinateTextError(description: "expected W,S,E,N in degrees, e.g. -11,49,2,61")
        }
        let bounds = GeoBounds(west: parts[0], south: parts[1], east: parts[2], north: parts[3])
        guard bounds.isValidBox else {
            throw CoordinateTextError(description: "expected W,S,E,N within ±180/±90 with S < N and W ≠ E")
        }
        return bounds
    }

    /// `WIDTHxHEIGHT` in CSS pixels, each at least 1.
    public static func size(_ text: String) throws(CoordinateTextError) -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1], width > 0, height > 0 else {
            throw CoordinateTextError(description: "expected WIDTHxHEIGHT in pixels, e.g. 800x600")
        }
        return (width, height)
    }

    /// Comma-separated finite numbers, or nil.
    private static func numbers(_ text: String) -> [Double]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingSpaces) }
        guard parts.allSatisfy({ $0 != nil && $0!.isFinite }) else { return nil }
        return parts.map { $0! }
    }
}
