/// How a WMTS tile is asked for: a RESTful `ResourceURL` template or a KVP GetTile request.
public enum WMTSTileAddress: Sendable, Equatable {
    case rest(template: String)
    /// The GetTile endpoint, ending in `?` or `&`.
    case kvp(base: String)

    /// What identifies the tiles of a layer besides its address.
    public struct Request: Sendable, Equatable {
        public var layer: String
        public var style: String
        public var tileMatrixSet: String
        public var format: String
    }

    /// The URL of tile (`column`, `row`) of matrix `matrix`.
    public func url(_ request: Request, matrix: String, column: Int, row: Int) -> String {
        switch self {
        case .rest(let template):
            return template.replacingOccurrences(of: "{TileMatrixSet}", with: request.tileMatrixSet)
                .replacingOccurrences(of: "{TileMatrix}", with: matrix)
                .replacingOccurrences(of: "{TileRow}", with: String(row))
                .replacingOccurrences(of: "{TileCol}", with: String(column))
                .replacingOccurrences(of: "{Style}", with: request.style)
                .replacingOccurrences(of: "{Layer}", with: request.layer)
        case .kvp(let base):
            let parameters = [("SERVICE", "WMTS"), ("REQUEST", "GetTile"), ("VERSION", "1.0.0"), ("LAYER", request.layer),
                              ("STYLE", request.style), ("FORMAT", request.format), ("TILEMATRIXSET", request.tileMatrixSet),
                              ("TILEMATRIX", matrix), ("TILEROW", String(row)), ("TILECOL", String(column))]
            let query = parameters.map { "\($0.0)=\(WMSGetMap.escape($0.1))" }.joined(separator: "&")
            let separator = base.hasSuffix("?") || base.hasSuffix("&") ? "" : (base.contains("?") ? "&" : "?")
            return base + separator + query
        }
    }
}
