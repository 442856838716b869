/// Pictures from a WMS server (`type: wms`).
public struct WMSSourceSpec: Sendable {
    /// How requests cover the map.
    public enum Mode: String, Sendable, CaseIterable {
        /// One GetMap per grid tile (or per metatile): cacheable, shared between renders.
        case tiled
        /// One GetMap for the whole view (in parts when larger than `maxSize`).
        case single
    }

    public var getMap: WMSGetMap
    public var mode: Mode
    /// Pixel size of the grid's tiles in tiled mode: 256 or 512.
    public var tileSize: Int
    /// Tiled mode: tiles on a side asked for in one request, then cut apart.
    public var metatile: Int
    /// Tiled mode: pixels added around each request and cut off, so labels are not clipped at
    /// tile edges.
    public var buffer: Int
    /// Single mode: the largest width or height of one request.
    public var maxSize: Int
    public var nativeZoom: ClosedRange<Int>
    public var bounds: GeoBounds?
    public var attribution: String?
    public var remote: RemoteOptions

    public init(getMap: WMSGetMap, mode: Mode = .tiled, tileSize: Int = 256, metatile: Int = 1, buffer: Int = 0,
                maxSize: Int = 4096, nativeZoom: ClosedRange<Int> = TileSourceInfo.defaultNativeLevels,
                bounds: GeoBounds? = nil, attribution: String? = nil, remote: RemoteOptions) {
        self.getMap = getMap
        self.mode = mode
        self.tileSize = tileSize
        self.metatile = metatile
        self.buffer = buffer
        self.maxSize = maxSize
        self.nativeZoom = nativeZoom
        self.bounds = bounds
        self.attribution = attribution
        self.remote = remote
    }
}
