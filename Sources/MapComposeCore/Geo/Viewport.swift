import Foundation

/// What the map shows: a center, a zoom, an output size in CSS pixels and a pixel scale.
///
/// The output is `width·scale × height·scale` *device* pixels. Zoom z means the Web Mercator
/// world is 256·2^z CSS pixels wide, so one device pixel covers `resolution` metres. All tile
/// math is done in EPSG:3857 metres against a source's `TileMatrix`, never in tile pixels.
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
        // Doubles: a side near Int.max times the scale must be reported, not overflow.
        let dw = (Double(width) * scale).rounded(), dh = (Double(height) * scale).rounded()
        guard dw <= Double(Self.maxDeviceSide), dh <= Double(Self.maxDeviceSide) else {
            throw .tooLarge(width: dw, height: dh)
        }
        guard dw >= 1, dh >= 1 else { throw .tooSmall(width: dw, height: dh) }
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
    /// The zoom at which one device pixel is one pixel of a 256-px Web Mercator tile.
    public var deviceZoom: Double { zoom + log2(scale) }

    /// Metres covered by one device pixel.
    public var resolution: Double {
        2 * WebMercator.originShift / WebMercator.worldSize(atZoom: deviceZoom)
    }

    /// The center in EPSG:3857 metres.
    public var centerMeters: (x: Double, y: Double) { WebMercator.meters(from: center) }

    /// The output's outer edges in EPSG:3857 metres; x is not wrapped (it may pass ±180°).
    public var extent: MetersRect {
        let c = centerMeters, r = resolution
        let halfWidth = Double(deviceWidth) / 2 * r, halfHeight = Double(deviceHeight) / 2 * r
        return MetersRect(minX: c.x - halfWidth, minY: c.y - halfHeight, maxX: c.x + halfWidth, maxY: c.y + halfHeight)
    }

    /// Maps a point in metres to a device pixel of the output (x may lie off the output).
    public func devicePoint(x: Double, y: Double) -> (x: Double, y: Double) {
        let e = extent, r = resolution
        return ((x - e.minX) / r, (e.maxY - y) / r)
    }

    /// Maps a longitude/latitude to a device pixel of the output, taking the copy of the
    /// world nearest the center.
    public func devicePoint(_ point: LonLat) -> (x: Double, y: Double) {
        var m = WebMercator.meters(from: point)
        let world = 2 * WebMercator.originShift, cx = centerMeters.x
        m.x += (((cx - m.x) / world).rounded()) * world
        return devicePoint(x: m.x, y: m.y)
    }

    /// The viewport that shows `bounds` in an output of `width × height` CSS pixels,
    /// keeping `padding` CSS pixels free on every side, at the largest zoom that fits
    /// (a whole zoom unless `fractionalZoom`). A west edge east of the east edge crosses
    /// the antimeridian.
    public static func fitting(_ bounds: GeoBounds, width: Int, height: Int, scale: Double = 1,
                               padding: Int = 0, maxZoom: Double = 20,
                               fractionalZoom: Bool = false) throws(ViewportError) -> Viewport {
        guard bounds.isValidBox else { throw .invalidBounds(bounds) }
        guard padding >= 0 else { throw .negativePadding(padding) }
        guard width >= 1, height >= 1 else { throw .invalidSize(width: width, height: height) }
        // Compared in halves so that a padding near Int.max cannot overflow.
        guard padding < (width + 1) / 2, padding < (height + 1) / 2,
              width - padding - padding >= 1, height - padding - padding >= 1 else {
            throw .paddingTooLarge(padding: padding, width: width, height: height)
        }
        let east = bounds.east < bounds.west ? bounds.east + 360 : bounds.east
        let nw = WebMercator.meters(from: LonLat(lon: bounds.west, lat: bounds.north))
        let se = WebMercator.meters(from: LonLat(lon: east, lat: bounds.south))
        let world = 2 * WebMercator.originShift
        let spanX = (se.x - nw.x) / world * WebMercator.zoom0WorldSize
        let spanY = (nw.y - se.y) / world * WebMercator.zoom0WorldSize
        let fit = min(Double(width - 2 * padding) / spanX, Double(height - 2 * padding) / spanY)
        var zoom = min(max(log2(fit), 0), maxZoom)
        if !fractionalZoom { zoom = floor(zoom + 1e-9) }
        var center = WebMercator.lonLat(fromMetersX: (nw.x + se.x) / 2, y: (nw.y + se.y) / 2)
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
    case tooLarge(width: Double, height: Double)
    case tooSmall(width: Double, height: Double)
    case invalidBounds(GeoBounds)
    case negativePadding(Int)
    case paddingTooLarge(padding: Int, width: Int, height: Int)
    case nothingToFit
    /// Every overlay to fit lies beyond the Web Mercator limit; the latitude nearest to it.
    case beyondMercatorLimit(latitude: Double)

    public var description: String {
        switch self {
        case .invalidCenter(let c):
            return "center \(c.lat.exactText),\(c.lon.exactText) is not a latitude in -90…90 and a longitude"
        case .invalidZoom(let z):
            return "zoom \(z.exactText) is outside 0…24"
        case .invalidScale(let s):
            return "scale \(s.exactText) is outside 0.25…8"
        case .invalidSize(let w, let h):
            return "size \(w)x\(h) must be at least 1x1"
        case .tooLarge(let w, let h):
            return "output of \(w.exactText)x\(h.exactText) pixels (size × scale) is over the limit of "
                + "\(Viewport.maxDeviceSide) pixels a side"
        case .tooSmall(let w, let h):
            return "output of \(w.exactText)x\(h.exactText) pixels (size × scale, rounded) is under 1 pixel a side; "
                + "use a larger --size or --scale"
        case .invalidBounds(let b):
            return "bbox \(b.west.exactText),\(b.south.exactText),\(b.east.exactText),\(b.north.exactText) "
                + "is not W,S,E,N in degrees within ±180/±90 with S < N and W ≠ E"
        case .negativePadding(let p):
            return "padding \(p) must be 0 or more"
        case .paddingTooLarge(let p, let w, let h):
            return "padding \(p) on every side leaves no room in a \(w)x\(h) map"
        case .nothingToFit:
            return "nothing to show: give a center and zoom, a bbox, or overlays to fit the view to"
        case .beyondMercatorLimit(let latitude):
            return "the overlays lie at latitude \(latitude.exactText), beyond the Web Mercator limit of ±85.0511°, "
                + "where no map can show them: give points within ±85.0511° latitude"
        }
    }
}
