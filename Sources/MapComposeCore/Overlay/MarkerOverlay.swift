/// A marker on a point: a pin, a dot or an icon, with an optional label (up to three
/// characters inside the pin, longer text beside it).
public struct MarkerOverlay: Sendable {
    public var position: LonLat
    public var color: RGBA
    public var label: String?
    public var symbol: MarkerSymbol

    public init(position: LonLat, color: RGBA = MarkerOverlay.defaultColor, label: String? = nil,
                symbol: MarkerSymbol = .pin(.medium)) {
        self.position = position
        self.color = color
        self.label = label
        self.symbol = symbol
    }

    public static let defaultColor = RGBA(r: 224, g: 60, b: 49)
}
