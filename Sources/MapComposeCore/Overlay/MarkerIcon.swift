import Foundation

/// A marker image (PNG, JPEG or WebP) and the pixel of it that sits on the marker's point.
public struct MarkerIcon: Sendable {
    public let image: RasterImage
    /// The anchor in image pixels from the top-left corner; the bottom centre by default.
    public let anchorX: Double
    public let anchorY: Double

    public init(image: RasterImage, anchorX: Double? = nil, anchorY: Double? = nil) {
        self.image = image
        self.anchorX = anchorX ?? Double(image.width) / 2
        self.anchorY = anchorY ?? Double(image.height)
    }

    /// `image`, read from `url`, with `anchor`, which must lie within it.
    init(image: RasterImage, anchor: (x: Double, y: Double)?, named url: URL) throws(OverlayError) {
        if let anchor, !(0...Double(image.width)).contains(anchor.x) || !(0...Double(image.height)).contains(anchor.y) {
            throw OverlayError("anchor \(anchor.x.exactText),\(anchor.y.exactText) lies outside the "
                               + "\(image.width)x\(image.height) icon '\(url.lastPathComponent)'")
        }
        self.init(image: image, anchorX: anchor?.x, anchorY: anchor?.y)
    }

    /// The image of an icon file.
    static func readImage(_ url: URL) throws(OverlayError) -> RasterImage {
        let data: Data
        do {
            data = try InputFile.read(url.path)
        } catch {
            throw OverlayError("cannot read icon '\(url.path)': \(error.reason)")
        }
        do {
            return try TileDecoder.decode(data)
        } catch {
            throw OverlayError("icon '\(url.path)' is not a usable PNG, JPEG or WebP image: \(error)")
        }
    }
}
