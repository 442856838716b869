import Foundation
import MapComposeTestSupport
@testable import MapComposeCore

/// Small helpers for render tests: styles from text, tile folders, pixel checks.
enum RenderHelpers {
    static func style(_ yaml: String, in folder: TemporaryFolder) throws -> MapStyle {
        try StyleLoader.load(file: try folder.write(yaml, to: "style.yaml"))
    }

    static func render(_ style: MapStyle, lat: Double, lon: Double, zoom: Double, width: Int = 256,
                       height: Int = 256, scale: Double = 1) async throws -> RenderResult {
        let viewport = try Viewport(center: LonLat(lon: lon, lat: lat), zoom: zoom, width: width,
                                    height: height, scale: scale)
        return try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
    }

    /// Writes a PNG tile of `color` for every tile of `level` into `folder/<under>/{z}/{x}/{y}.png`.
    static func writeUniformLevel(_ level: Int, color: RGBA, in folder: TemporaryFolder, under: String = "tiles") throws {
        let png = try TileFixtures.solidPNG(color)
        for x in 0..<(1 << level) {
            for y in 0..<(1 << level) {
                try folder.write(png, to: "\(under)/\(level)/\(x)/\(y).png")
            }
        }
    }

    /// Pixels whose colour differs from `color` by more than `tolerance` in any channel.
    static func pixelsDiffering(from color: RGBA, in image: RasterImage, tolerance: Int = 0) -> Int {
        var count = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.rgba(x: x, y: y)
                if abs(Int(p.r) - Int(color.r)) > tolerance || abs(Int(p.g) - Int(color.g)) > tolerance
                    || abs(Int(p.b) - Int(color.b)) > tolerance || abs(Int(p.a) - Int(color.a)) > tolerance {
                    count += 1
                }
            }
        }
        return count
    }

    static func close(_ a: RGBA, _ b: RGBA, within tolerance: Int = 2) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance
            && abs(Int(a.b) - Int(b.b)) <= tolerance && abs(Int(a.a) - Int(b.a)) <= tolerance
    }
}
