/// How a line is drawn: colour (with alpha) and width in CSS pixels.
public struct StrokeStyle: Sendable, Equatable {
    /// Widths accepted for any overlay line, in CSS pixels.
    public static let widthRange = 0.0...100.0

    public var color: RGBA
    public var width: Double

    public init(color: RGBA, width: Double) {
        self.color = color
        self.width = width
    }
}
