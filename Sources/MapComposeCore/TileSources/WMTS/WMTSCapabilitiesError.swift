/// Why a WMTS capabilities document, or a tile matrix set in it, cannot be used.
public struct WMTSCapabilitiesError: Error, Equatable, CustomStringConvertible {
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
