import Foundation

/// What the map shows: a center, a zoom, an output size in CSS pixels and a pixel scale.
///
/// All tile math happens in *device* pixels: the output is `width·scale × height·scale`
/// pixels, and a device pixel matches a 256-px tile pixel at `deviceZoom = zoom + log2(scale)`.
public struct Viewport: Equatable, Sendable {
    /// Largest output side in device pixels.
    public static let maxDeviceSide = 16384

    public let center: LonLat
    public let zoom: Double
    public let width: Int
    public let height: Int
    public let scale: Double

    /// Creates a viewport; throws for sizes, zooms or scales no render can honour.
    public init(center: LonLat, zoom: Double, width: Int, height: Int, scale: Double = 1) throws(ViewportError) {
        guard center.lat.isFinite, center.lon.isFinite, abs(center.lat) <= 90 else {
            throw .invalidCenter(center)
        }
        guard zoom.isFinite, zoom >= 0, zoom <= 24 else { throw .invalidZoom(zoom) }
        guard scale.isFinite, scale >= 0.25, scale <= 8 else { throw .invalidScale(scale) }
        guard width >= 1, height >= 1 else { throw .invalidSize(width: width, height: height) }
        let dw = (Double(width) * scale).rounded(), dh = (Double(height) * scale).rounded()
        guard dw >= 1, dh >= 1, dw <= Double(Self.maxDeviceSide), dh <= Double(Self.maxDeviceSide) else {
            throw .tooLarge(width: Int(dw), height: Int(dh))
        }
        self.center = LonLat(lon: center.lon, lat: WebMercator.clampLatitude(center.lat))
        self.zoom = zoom
        self.width = width
        self.height = height
        self.scale = scale
    }

    /// Output width in pixels.
    public var deviceWidth: Int { Int((Double(width) * scale).rounded()) }
    /// Output height in pixels.
    public var deviceHeight: Int { Int((Double(height) * scale).rounded()) }
    /// The zoom at which one device pixel is one 256-px tile pixel.
    public var deviceZoom: Double { zoom + log2(scale) }

    /// The center in world pixels at `deviceZoom`.
    public var centerWorldPixel: WorldPixel {
        WebMercator.worldPixel(from: center, zoom: deviceZoom)
    }

    /// Top-left corner of the output in world pixels at `deviceZoom` (x may be < 0 or > world).
    public var originWorldPixel: WorldPixel {
        let c = centerWorldPixel
        return WorldPixel(x: c.x - Double(deviceWidth) / 2, y: c.y - Double(deviceHeight) / 2)
    }

    /// The output's outer edges in EPSG:3857 meters (minX, minY, maxX, maxY); x is not wrapped.
    public var metersBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let o = originWorldPixel
        let tl = WebMercator.meters(from: o, zoom: deviceZoom)
        let br = WebMercator.meters(from: WorldPixel(x: o.x + Double(deviceWidth), y: o.y + Double(deviceHeight)),
                                    zoom: deviceZoom)
        return (tl.x, br.y, br.x, tl.y)
    }

    /// The default tile level: round(zoom + log2(scale / pixelRatio)) clamped to `range`, where
    /// `pixelRatio` is 2 for @2x tiles (512 px covering a 256-px tile's area).
    public func tileLevel(in range: ClosedRange<Int>, pixelRatio: Int = 1) -> Int {
        let level = Int((deviceZoom - log2(Double(pixelRatio))).rounded())
        return min(max(level, range.lowerBound), range.upperBound)
    }

    /// Device pixels per tile pixel for 256-px tiles drawn at `level`.
    public func scaleFactor(forLevel level: Int) -> Double {
        exp2(deviceZoom - Double(level))
    }

    /// Maps a world pixel at `level` to a device pixel of the output.
    public func devicePoint(worldX: Double, worldY: Double, level: Int) -> (x: Double, y: Double) {
        let f = scaleFactor(forLevel: level)
        let o = originWorldPixel
        return (worldX * f - o.x, worldY * f - o.y)
    }

    /// The block of tiles of `level` that covers the output, unwrapped in x (wrap with
    /// `TileCoord.wrapped`), y limited to the world; nil when nothing of the world is visible.
    public func coveringRange(level: Int) -> TileRange? {
        let tileSize = WebMercator.tileSize
        let f = scaleFactor(forLevel: level)
        let o = originWorldPixel
        let originAtLevel = (x: o.x / f, y: o.y / f)
        // A tolerance far below a pixel keeps rounding noise from adding a sliver column or row.
        let epsilon = 1e-7
        let x0 = Int(floor(originAtLevel.x / tileSize + epsilon))
        let x1 = Int(ceil((originAtLevel.x + Double(deviceWidth) / f) / tileSize - epsilon)) - 1
        let n = 1 << level
        let y0 = max(0, Int(floor(originAtLevel.y / tileSize + epsilon)))
        let y1 = min(n - 1, Int(ceil((originAtLevel.y + Double(deviceHeight) / f) / tileSize - epsilon)) - 1)
        guard x1 >= x0, y1 >= y0 else { return nil }
        return TileRange(level: level, columns: x0...x1, rows: y0...y1)
    }

    /// Tiles of `level` that cover the output (see `coveringRange`), row by row.
    public func coveringTiles(level: Int) -> [TileCoord] {
        coveringRange(level: level)?.tiles ?? []
    }

    /// The viewport that shows `bounds` in an output of `width × height` CSS pixels,
    /// keeping `padding` CSS pixels free on every side, at the largest zoom that fits
    /// (a whole zoom unless `fractionalZoom`). A west edge east of the east edge crosses
    /// the antimeridian.
    public static func fitting(_ bounds: GeoBounds, width: Int, height: Int, scale: Double = 1,
                               padding: Int = 0, maxZoom: Double = 20,
                               fractionalZoom: Bool = false) throws(ViewportError) -> Viewport {
        guard bounds.west.isFinite, bounds.east.isFinite, bounds.south.isFinite, bounds.north.isFinite,
              bounds.south < bounds.north, abs(bounds.south) <= 90, abs(bounds.north) <= 90,
              abs(bounds.west) <= 180, abs(bounds.east) <= 180, bounds.west != bounds.east else {
            throw .invalidBounds(bounds)
        }
        guard padding >= 0, width - 2 * padding >= 1, height - 2 * padding >= 1 else {
            throw .paddingTooLarge(padding: padding, width: width, height: height)
        }
        let east = bounds.east < bounds.west ? bounds.east + 360 : bounds.east
        let nw = WebMercator.worldPixel(from: LonLat(lon: bounds.west, lat: bounds.north), zoom: 0)
        let se = WebMercator.worldPixel(from: LonLat(lon: east, lat: bounds.south), zoom: 0)
        let spanX = se.x - nw.x, spanY = se.y - nw.y
        let fit = min(Double(width - 2 * padding) / spanX, Double(height - 2 * padding) / spanY)
        var zoom = min(max(log2(fit), 0), maxZoom)
        if !fractionalZoom { zoom = floor(zoom + 1e-9) }
        let centerPixel = WorldPixel(x: (nw.x + se.x) / 2, y: (nw.y + se.y) / 2)
        var center = WebMercator.lonLat(from: centerPixel, zoom: 0)
        center.lon = WebMercator.wrapLongitude(center.lon)
        return try Viewport(center: center, zoom: zoom, width: width, height: height, scale: scale)
    }
}

/// Why a viewport cannot be made.
public enum ViewportError: Error, Equatable, CustomStringConvertible {
    case invalidCenter(LonLat)
    case invalidZoom(Double)
    case invalidScale(Double)
    case invalidSize(width: Int, height: Int)
    case tooLarge(width: Int, height: Int)
    case invalidBounds(GeoBounds)
    case paddingTooLarge(padding: Int, width: Int, height: Int)

    public var description: String {
        switch self {
        case .invalidCenter(let c):
            return "center \(c.lat),\(c.lon) is not a latitude in -90…90 and a longitude"
        case .invalidZoom(let z):
            return "zoom \(z.plainText) is outside 0…24"
        case .invalidScale(let s):
            return "scale \(s.plainText) is outside 0.25…8"
        case .invalidSize(let w, let h):
            return "size \(w)x\(h) must be at least 1x1"
        case .tooLarge(let w, let h):
            return "output of \(w)x\(h) pixels is over the limit of \(Viewport.maxDeviceSide) pixels a side"
        case .invalidBounds(let b):
            return "bbox \(b.west),\(b.south),\(b.east),\(b.north) is not W,S,E,N in degrees with S < N"
        case .paddingTooLarge(let p, let w, let h):
            return "padding \(p) leaves no room in a \(w)x\(h) map"
        }
    }
}

extension Double {
    /// The number as people write it: `25`, `2.5`, `nan`.
    var plainText: String { String(format: "%g", self) }
}
