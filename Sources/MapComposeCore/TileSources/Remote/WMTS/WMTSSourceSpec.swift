/// Tiles of a WMTS layer (`type: wmts`), described by its capabilities document.
public struct WMTSSourceSpec: Sendable {
    /// The capabilities document: a KVP GetCapabilities URL or a RESTful `WMTSCapabilities.xml`.
    public var url: EnvironmentReference
    /// The choices; nil takes the capabilities' only one (or, for the style, its default).
    public var layer: String?
    public var style: String?
    public var tileMatrixSet: String?
    public var format: String?
    public var nativeZoom: ClosedRange<Int>?
    public var bounds: GeoBounds?
    public var attribution: String?
    public var remote: RemoteOptions

    public init(url: EnvironmentReference, layer: String? = nil, style: String? = nil, tileMatrixSet: String? = nil,
                format: String? = nil, nativeZoom: ClosedRange<Int>? = nil, bounds: GeoBounds? = nil, attribution: String? = nil,
                remote: RemoteOptions) {
        self.url = url
        self.layer = layer
        self.style = style
        self.tileMatrixSet = tileMatrixSet
        self.format = format
        self.nativeZoom = nativeZoom
        self.bounds = bounds
        self.attribution = attribution
        self.remote = remote
    }
}
