import Foundation
import MapComposeCore

/// Parsers for the coordinate and size options, with messages that say what to type.
enum CoordinateArguments {
    /// `LAT,LON` in degrees.
    static func center(_ text: String) throws(CLIFailure) -> LonLat {
        let parts = numbers(text)
        guard let parts, parts.count == 2 else {
            throw CLIFailure("--center '\(text)': expected LAT,LON in degrees, e.g. 51.5,-0.12")
        }
        guard abs(parts[0]) <= 90 else {
            throw CLIFailure("--center '\(text)': latitude \(parts[0].exactText) is outside -90…90")
        }
        guard abs(parts[1]) <= 180 else {
            throw CLIFailure("--center '\(text)': longitude \(parts[1].exactText) is outside -180…180")
        }
        return LonLat(lon: parts[1], lat: parts[0])
    }

    /// `W,S,E,N` in degrees (W > E crosses the antimeridian).
    static func bbox(_ text: String) throws(CLIFailure) -> GeoBounds {
        guard let parts = numbers(text), parts.count == 4 else {
            throw CLIFailure("--bbox '\(text)': expected W,S,E,N in degrees, e.g. -11,49,2,61")
        }
        let bounds = GeoBounds(west: parts[0], south: parts[1], east: parts[2], north: parts[3])
        guard bounds.isValidBox else {
            throw CLIFailure("--bbox '\(text)': expected W,S,E,N within ±180/±90 with S < N and W ≠ E")
        }
        return bounds
    }

    /// `WIDTHxHEIGHT` in CSS pixels.
    static func size(_ text: String) throws(CLIFailure) -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1], width > 0, height > 0 else {
            throw CLIFailure("--size '\(text)': expected WIDTHxHEIGHT in pixels, e.g. 800x600")
        }
        return (width, height)
    }

    private static func numbers(_ text: String) -> [Double]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.allSatisfy({ $0 != nil && $0!.isFinite }) else { return nil }
        return parts.map { $0! }
    }

}
