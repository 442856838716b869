import Foundation

/// The marker icons read while overlays are parsed, each file read and decoded once: markers
/// that name the same icon share its image (with their own anchors).
public final class MarkerIconCache {
    private var images: [String: RasterImage] = [:]

    public init() {}

    /// The icon in `url` with `anchor`, which must lie within the image; the file is read and
    /// decoded the first time it is named.
    func icon(_ url: URL, anchor: (x: Double, y: Double)?) throws(OverlayError) -> MarkerIcon {
        let key = url.standardizedFileURL.path
        let image: RasterImage
        if let read = images[key] {
            image = read
        } else {
            image = try MarkerIcon.readImage(url)
            images[key] = image
        }
        return try MarkerIcon(image: image, anchor: anchor, named: url)
    }
}
