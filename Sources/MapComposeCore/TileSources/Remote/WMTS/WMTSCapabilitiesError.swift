/// Why a WMTS capabilities document, or a tile matrix set in it, cannot be used.
public struct WMTSCapabilitiesError: Error, Equatable, CustomStringConvertible {
    public let reason: String
    /// The document could not be had because no server answered.
    public let unreachable: Bool

    public init(reason: String, unreachable: Bool = false) {
        self.reason = reason
        self.unreachable = unreachable
    }

    public var description: String { reason }
}
