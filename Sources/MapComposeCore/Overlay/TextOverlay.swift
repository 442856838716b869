/// Text centred on a point, with a halo so it reads on any map.
public struct TextOverlay: Sendable {
    /// Font sizes accepted, in CSS pixels.
    public static let sizeRange = 4.0...200.0

    public var position: LonLat
    public var text: String
    public var color: RGBA
    /// Font size in CSS pixels.
    public var size: Double
    public var halo: RGBA?

    public init(position: LonLat, text: String, color: RGBA = RGBA(r: 34, g: 34, b: 34), size: Double = 14,
                halo: RGBA? = .white) {
        self.position = position
        self.text = text
        self.color = color
        self.size = size
        self.halo = halo
    }
}
