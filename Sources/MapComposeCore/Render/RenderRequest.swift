import Foundation

/// Everything one static map needs: the style, the area, the output's size and format, and
/// where to write it. The CLI's `render` and every job of a batch are one of these.
public struct RenderRequest: Sendable {
    /// What the map shows.
    public enum Area: Sendable {
        /// A center and a (possibly fractional) zoom.
        case center(LonLat, zoom: Double)
        /// A box to fit, keeping `padding` CSS pixels free on every side; the largest whole
        /// zoom that fits unless `fractionalZoom`.
        case bbox(GeoBounds, padding: Int, fractionalZoom: Bool)
        /// The bounds of all overlays, fitted as a bbox (see `OverlayFit`).
        case fitOverlays(padding: Int, fractionalZoom: Bool)

        /// The viewport showing this area in an output of `width × height` CSS pixels;
        /// `overlays` are what `fitOverlays` fits.
        public func viewport(width: Int, height: Int, scale: Double,
                             overlays: [Overlay] = []) throws(ViewportError) -> Viewport {
            switch self {
            case .center(let center, let zoom):
                return try Viewport(center: center, zoom: zoom, width: width, height: height, scale: scale)
            case .bbox(let bounds, let padding, let fractionalZoom):
                return try Viewport.fitting(bounds, width: width, height: height, scale: scale, padding: padding,
                                            fractionalZoom: fractionalZoom)
            case .fitOverlays(let padding, let fractionalZoom):
                return try OverlayFit.viewport(for: overlays, width: width, height: height, scale: scale,
                                               padding: padding, fractionalZoom: fractionalZoom)
            }
        }
    }

    public var style: MapStyle
    public var area: Area
    /// Output size in CSS pixels.
    public var width: Int
    public var height: Int
    /// Pixel ratio (2 for retina output).
    public var scale: Double
    public var format: ImageFormat
    /// JPEG and WebP quality, 1…100.
    public var quality: Int
    /// WebP: lossless instead of `quality`.
    public var lossless: Bool
    /// PNG: how hard to compress.
    public var pngCompression: PNGCompression
    /// Shapes drawn above the style's layers and its own `overlays:`.
    public var overlays: [Overlay]
    /// Also write a world file beside the image (`.pgw`, `.jgw`, else `.wld`).
    public var worldFile: Bool
    /// Path of the image to write.
    public var output: String
    /// Path of the JSON report to write, if any.
    public var reportPath: String?
    /// Fail, writing no image, when any tile is corrupt or unreadable.
    public var strict: Bool
    public var attribution: Bool
    /// Seconds the render may wait for tiles before drawing the missing ones by fallback and
    /// writing the map with a warning; nil for the style's `deadline:`, else `defaultDeadline`.
    public var deadline: Double?

    /// The deadline of a render that names none.
    public static let defaultDeadline = 60.0

    public init(style: MapStyle, area: Area, width: Int = 800, height: Int = 600, scale: Double = 1,
                format: ImageFormat = .png, quality: Int = 90, output: String, reportPath: String? = nil,
                strict: Bool = false, attribution: Bool = true, overlays: [Overlay] = [], lossless: Bool = false,
                worldFile: Bool = false, pngCompression: PNGCompression = .default) {
        self.style = style
        self.area = area
        self.width = width
        self.height = height
        self.scale = scale
        self.format = format
        self.quality = quality
        self.output = output
        self.reportPath = reportPath
        self.strict = strict
        self.attribution = attribution
        self.overlays = overlays
        self.lossless = lossless
        self.worldFile = worldFile
        self.pngCompression = pngCompression
    }

    /// The deadline in force: the request's, the style's or the default, in seconds.
    public var effectiveDeadline: Double { deadline ?? style.document.deadline ?? Self.defaultDeadline }

    /// The style's overlays, then the request's: everything drawn above the layers.
    public var allOverlays: [Overlay] { style.document.overlays + overlays }

    /// The viewport the request shows.
    public func viewport() throws(ViewportError) -> Viewport {
        try area.viewport(width: width, height: height, scale: scale, overlays: allOverlays)
    }
}
