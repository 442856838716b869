import Foundation

/// A parsed, validated style: what to draw, bottom layer first.
public struct StyleDocument: Sendable {
    public var name: String
    public var background: RGBA
    public var attribution: String?
    /// Layers in drawing order (style order, stably sorted by `z`).
    public var layers: [LayerSpec]
    /// Shapes drawn above all layers, in order.
    public var overlays: [Overlay] = []
    /// Seconds a render may wait for its tiles (`deadline:`); nil for the default.
    public var deadline: Double? = nil
    /// Environment variables the style's sources may read as `${NAME}` (`env:`).
    public var environmentVariables: [String] = []
}

/// One layer of a style.
public struct LayerSpec: Sendable {
    public var id: String
    public var source: SourceSpec
    /// Explicit stacking order; layers without one keep style order among equals (z 0).
    public var z: Int
    public var opacity: Double
    public var blend: BlendMode
    /// Visible when `minzoom <= zoom < maxzoom`.
    public var minzoom: Double
    public var maxzoom: Double
    /// Nothing of the layer is drawn or requested outside these bounds (west > east crosses
    /// the antimeridian).
    public var bounds: GeoBounds?
    /// The levels the source really has, overriding what the source says; outside them tiles
    /// come from the nearest of these levels, scaled.
    public var native: ClosedRange<Int>? = nil
    /// Opacity ramps over the render zoom.
    public var fade: ZoomFade? = nil
    /// Blend the two levels around the render zoom by its fraction instead of drawing one.
    public var crossfade = false
    /// Where a tile is missing: ancestors and descendants searched.
    public var fallback = TileFallback.standard
    /// What fills a tile nothing covers.
    public var missing = MissingTileFill.transparent
    public var resampling = Resampling.bilinear

    /// True when the layer shows at `zoom`.
    public func isVisible(atZoom zoom: Double) -> Bool {
        zoom >= minzoom && zoom < maxzoom
    }

    /// The opacity at `zoom`: `opacity` times the fade factor.
    public func effectiveOpacity(atZoom zoom: Double) -> Double {
        opacity * (fade?.factor(atZoom: zoom) ?? 1)
    }
}

/// Where a layer's tiles come from.
public enum SourceSpec: Sendable {
    case xyz(XYZSourceSpec)
    case remoteXYZ(RemoteXYZSourceSpec)
    case tilejson(TileJSONSourceSpec)
    case wms(WMSSourceSpec)
    case wmts(WMTSSourceSpec)
    case mbtiles(MBTilesSourceSpec)
    case pmtiles(PMTilesSourceSpec)
    case geojson(GeoJSONSourceSpec)
    case solid(color: RGBA)
    case checkerboard(CheckerboardSourceSpec)
    case debug(color: RGBA)
    case arcgis(ArcGISSourceSpec)
    /// A MapLibre style drawn as one layer (see `MapLibreGroup`).
    case maplibre(MapLibreSourceSpec)

    /// The `type` value that selects this source.
    public var typeName: String {
        switch self {
        case .xyz, .remoteXYZ: return "xyz"
        case .tilejson: return "tilejson"
        case .wms: return "wms"
        case .wmts: return "wmts"
        case .mbtiles: return "mbtiles"
        case .pmtiles: return "pmtiles"
        case .geojson: return "geojson"
        case .solid: return "solid"
        case .checkerboard: return "checkerboard"
        case .debug: return "debug"
        case .arcgis: return "arcgis"
        case .maplibre: return "maplibre"
        }
    }
}

/// Tiles in a local folder addressed by a path template.
public struct XYZSourceSpec: Sendable {
    public var template: TilePathTemplate
    public var root: URL
    public var tms: Bool
    public var nativeZoom: ClosedRange<Int>
    public var bounds: GeoBounds?
    /// Pixel size of the tiles: 256 or 512 (`tile-size` in the style).
    public var tileSize: Int = 256
}

/// Tiles in an MBTiles (SQLite) file.
public struct MBTilesSourceSpec: Sendable {
    public var file: URL
    /// Overrides the file's metadata minzoom/maxzoom when given.
    public var nativeZoom: ClosedRange<Int>?
    /// Pixel size of the tiles: 256 or 512 (`tile-size` in the style).
    public var tileSize: Int

    public init(file: URL, nativeZoom: ClosedRange<Int>? = nil, tileSize: Int = 256) {
        self.file = file
        self.nativeZoom = nativeZoom
        self.tileSize = tileSize
    }
}

/// Vector features from a GeoJSON file, drawn per tile.
public struct GeoJSONSourceSpec: Sendable {
    /// The GeoJSON text's bytes.
    public var data: Data {
        get { embeddedText.map { Data(utf8Of: $0) } ?? storedData }
        set {
            storedData = newValue
            embeddedText = nil
            prepared = nil
            fixedContentName = nil
        }
    }
    public var path: String
    public var symbolizer: FeatureSymbolizer
    /// The same features stored ready to read (the built-in style's data, see `PreparedGeoJSON`).
    var prepared: Data?
    /// A name that stands for the data in the source's identity instead of its digest: the
    /// built-in style's files, which a binary never changes.
    var fixedContentName: String?
    private var storedData: Data
    /// A built-in style's file: its text, made into `data` only when asked for (a render reads
    /// the prepared features instead).
    private var embeddedText: String?

    /// `path` names the data in messages.
    public init(data: Data, path: String, symbolizer: FeatureSymbolizer = FeatureSymbolizer()) {
        storedData = data
        self.path = path
        self.symbolizer = symbolizer
    }

    /// A built-in style's file at `path`, with its features stored ready to read (`prepared`).
    init(builtInText text: String, prepared: Data?, path: String, symbolizer: FeatureSymbolizer) {
        storedData = Data()
        embeddedText = text
        self.prepared = prepared
        fixedContentName = "built-in/\(path)"
        self.path = path
        self.symbolizer = symbolizer
    }
}

/// An ArcGIS Server tile cache on disk.
public struct ArcGISSourceSpec: Sendable {
    /// The layer folder (with conf.xml) or the cache folder holding exactly one data frame.
    public var folder: URL

    public init(folder: URL) {
        self.folder = folder
    }
}

/// Two-colour checkerboard tiles.
public struct CheckerboardSourceSpec: Sendable {
    public var colors: (RGBA, RGBA)
    public var cellSize: Int
}
