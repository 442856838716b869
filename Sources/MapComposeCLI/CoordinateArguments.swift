import Foundation
import MapComposeCore

/// The coordinate and size options, read by `CoordinateText`, with messages naming the option.
enum CoordinateArguments {
    /// `--center LAT,LON` in degrees.
    static func center(_ text: String) throws(CLIFailure) -> LonLat {
        do { return try CoordinateText.center(text) } catch { throw CLIFailure("--center '\(text)': \(error)") }
    }

    /// `--bbox W,S,E,N` in degrees (W > E crosses the antimeridian).
    static func bbox(_ text: String) throws(CLIFailure) -> GeoBounds {
        do { return try CoordinateText.bbox(text) } catch { throw CLIFailure("--bbox '\(text)': \(error)") }
    }

    /// `--size WIDTHxHEIGHT` in CSS pixels.
    static func size(_ text: String) throws(CLIFailure) -> (width: Int, height: Int) {
        do { return try CoordinateText.size(text) } catch { throw CLIFailure("--size '\(text)': \(error)") }
    }
}
