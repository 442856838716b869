import Foundation

/// An ESRI world file: six lines that place an image in EPSG:3857 metres (pixel width, two
/// rotation terms, negative pixel height, then the centre of the top-left pixel), so GIS tools
/// such as GDAL put the map where it belongs.
public enum WorldFile {
    /// The world file's text for an image of `viewport`.
    public static func text(for viewport: Viewport) -> String {
        let e = viewport.extent, r = viewport.resolution
        let values = [r, 0, 0, -r, e.minX + r / 2, e.maxY - r / 2]
        return values.map { String(format: "%.10f", $0) }.joined(separator: "\n") + "\n"
    }

    /// The world file's path beside `imagePath`: `.pgw` for PNG, `.jgw` for JPEG, else `.wld`.
    public static func path(besideImage imagePath: String, format: ImageFormat) -> String {
        let suffix: String
        switch format {
        case .png: suffix = "pgw"
        case .jpeg: suffix = "jgw"
        default: suffix = "wld"
        }
        let url = URL(fileURLWithPath: imagePath)
        let base = url.pathExtension.isEmpty ? imagePath : String(imagePath.dropLast(url.pathExtension.count + 1))
        return base + "." + suffix
    }
}
