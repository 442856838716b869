import Foundation

/// Stands in for a layer whose server could not be reached while its style loaded (see
/// `RemoteEnvironment.documentsMayBeUnreachable`): every tile is a miss giving the reason.
public struct UnreachableSource: TileSource {
    public let info: TileSourceInfo
    /// Why the layer's source could not be set up.
    public let reason: String

    public init(reason: String) {
        self.reason = reason
        info = TileSourceInfo(identity: "unreachable:\(reason)", nativeZoom: TileMatrix.webMercator().levelRange)
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        TileFetch(.missing(.readFailed(reason)), origin: info.identity)
    }
}
