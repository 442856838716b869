/// Why an overlay cannot be drawn; the reason names the part at fault and what to write instead.
public struct OverlayError: Error, CustomStringConvertible, Equatable {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
