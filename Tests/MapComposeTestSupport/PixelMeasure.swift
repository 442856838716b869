import MapComposeCore

/// Measures where something was drawn: weighted centroids of the pixels a weight function
/// picks (e.g. "how red"), so positions compare to a fraction of a pixel between renderers.
public enum PixelMeasure {
    /// How strongly a pixel shows a colour family, 0…1.
    public typealias Weight = @Sendable (RGBA) -> Double

    /// Red marker pixels (red well above green and blue), weighted by how saturated.
    public static let red: Weight = { p in
        let r = Double(p.r), g = Double(p.g), b = Double(p.b)
        return r - max(g, b) > 30 ? (r - max(g, b)) / 255 : 0
    }

    /// Blue line pixels (blue well above red and green), weighted by how saturated.
    public static let blue: Weight = { p in
        let r = Double(p.r), g = Double(p.g), b = Double(p.b)
        return b - max(r, g) > 30 ? (b - max(r, g)) / 204 : 0
    }

    /// The weighted centroid of the pixels within `radius` of `point`; nil when none weigh.
    public static func centroid(in image: RasterImage, near point: (x: Double, y: Double), radius: Int,
                                weight: Weight) -> (x: Double, y: Double)? {
        let cx = Int(point.x.rounded()), cy = Int(point.y.rounded())
        var sum = 0.0, sx = 0.0, sy = 0.0
        for y in max(0, cy - radius)...min(image.height - 1, cy + radius) {
            for x in max(0, cx - radius)...min(image.width - 1, cx + radius) {
                let w = weight(image.rgba(x: x, y: y))
                sum += w
                sx += w * (Double(x) + 0.5)
                sy += w * (Double(y) + 0.5)
            }
        }
        return sum > 0 ? (sx / sum, sy / sum) : nil
    }

    /// The weighted mean y (pixel centres at +0.5) of column `x` over `rows`.
    public static func row(in image: RasterImage, column x: Int, rows: ClosedRange<Int>, weight: Weight) -> Double? {
        mean(over: rows, limit: image.height, weight: weight) { image.rgba(x: x, y: $0) }
    }

    /// The weighted mean x (pixel centres at +0.5) of row `y` over `columns`.
    public static func column(in image: RasterImage, row y: Int, columns: ClosedRange<Int>, weight: Weight) -> Double? {
        mean(over: columns, limit: image.width, weight: weight) { image.rgba(x: $0, y: y) }
    }

    private static func mean(over range: ClosedRange<Int>, limit: Int, weight: Weight, pixel: (Int) -> RGBA) -> Double? {
        var sum = 0.0, s = 0.0
        for i in max(0, range.lowerBound)...min(limit - 1, range.upperBound) {
            let w = weight(pixel(i))
            sum += w
            s += w * (Double(i) + 0.5)
        }
        return sum > 0 ? s / sum : nil
    }
}
