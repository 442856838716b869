import Foundation

/// How a layer asks a WMS for pictures: the service URL and GetMap parameters.
public struct WMSGetMap: Sendable, Equatable {
    /// The service URL, with any parameters of its own (`MAP=` for a mapserv CGI); may
    /// reference `${NAME}` environment variables.
    public var url: String
    public var version: WMSVersion
    public var layers: String
    public var styles: String
    /// The image type asked for (`image/png`, `image/jpeg`).
    public var format: String
    public var transparent: Bool
    /// `0xRRGGBB`, or nil for the server's default.
    public var bgcolor: String?
    public var crs: WMSCoordinateSystem
    /// Extra parameters, sent as given, in key order.
    public var params: [String: String]

    public init(url: String, version: WMSVersion = .v1_3_0, layers: String, styles: String = "", format: String = "image/png",
                transparent: Bool = true, bgcolor: String? = nil, crs: WMSCoordinateSystem = WMSCoordinateSystem("EPSG:3857"),
                params: [String: String] = [:]) {
        self.url = url
        self.version = version
        self.layers = layers
        self.styles = styles
        self.format = format
        self.transparent = transparent
        self.bgcolor = bgcolor
        self.crs = crs
        self.params = params
    }

    /// The BBOX value for `box` (minx, miny, maxx, maxy in the request's system): every
    /// coordinate as the shortest text that reads back as the same Double, axes swapped where
    /// 1.3.0 asks latitude first.
    public func bboxText(_ box: MetersRect) -> String {
        let values = crs.swapsAxes(in: version) ? [box.minY, box.minX, box.maxY, box.maxX] : [box.minX, box.minY, box.maxX, box.maxY]
        return values.map(\.exactText).joined(separator: ",")
    }

    /// The GetMap URL for `box` at `width`×`height` pixels (environment references unresolved).
    public func url(for box: MetersRect, width: Int, height: Int) -> EnvironmentReference {
        var query: [(String, String)] = [
            ("SERVICE", "WMS"), ("VERSION", version.rawValue), ("REQUEST", "GetMap"),
            ("LAYERS", layers), ("STYLES", styles), (version.crsParameter, crs.code),
            ("BBOX", bboxText(box)), ("WIDTH", String(width)), ("HEIGHT", String(height)),
            ("FORMAT", format), ("TRANSPARENT", transparent ? "TRUE" : "FALSE"), ("EXCEPTIONS", version.xmlExceptions),
        ]
        if let bgcolor { query.append(("BGCOLOR", bgcolor)) }
        let standard = Set(query.map { $0.0 })
        for key in params.keys.sorted() where !standard.contains(key.uppercased()) { query.append((key, params[key]!)) }
        let encoded = query.map { "\(Self.escape($0.0))=\(Self.escape($0.1))" }.joined(separator: "&")
        let separator = url.contains("?") ? (url.hasSuffix("?") || url.hasSuffix("&") ? "" : "&") : "?"
        return EnvironmentReference(url + separator + encoded)
    }

    /// Percent-encodes a query component, leaving `${NAME}` references as written.
    static func escape(_ text: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        allowed.insert(charactersIn: "${}")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// Everything that changes the pictures, for the source identity (no secrets: references unresolved).
    var identity: String {
        let extra = params.keys.sorted().map { "\($0)=\(params[$0]!)" }.joined(separator: "&")
        return "wms:\(url)|\(version.rawValue)|\(layers)|\(styles)|\(format)|\(transparent)|\(bgcolor ?? "")|\(crs.code)|\(extra)"
    }
}
