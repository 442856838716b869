import Foundation

/// The outcome of comparing two images pixel by pixel.
public struct ImageDiffResult: Sendable {
    public let width: Int
    public let height: Int
    /// Pixels whose colour difference exceeds the threshold (anti-aliasing excluded unless
    /// it was included): pixelmatch's return value.
    public let differingPixels: Int
    /// Pixels over the threshold that were judged anti-aliasing and not counted.
    public let antialiasedPixels: Int
    /// pixelmatch's output image: red where pixels differ, yellow for anti-aliasing, elsewhere
    /// the first image's brightness faded to 10% over white. Opaque.
    public let diffImage: RGBAImage?

    public var totalPixels: Int { width * height }
    /// Share of differing pixels, 0…1.
    public var differingFraction: Double { Double(differingPixels) / Double(max(1, totalPixels)) }

    /// `N of T pixels differ (P%), A anti-aliased not counted`.
    public var summary: String {
        String(format: "%d of %d pixels differ (%.4f%%), %d anti-aliased not counted",
               differingPixels, totalPixels, differingFraction * 100, antialiasedPixels)
    }
}

/// Why two images cannot be compared.
public struct ImageDiffError: Error, CustomStringConvertible {
    public let description: String
}

/// pixelmatch, exactly as the reference implementation (mapbox/pixelmatch, and its Python port
/// `pixelmatch` on PyPI) counts: perceptual YIQ colour distance against
/// `35215 · threshold²`, translucent pixels blended over white, and anti-aliased pixels
/// (Vysniauskas 2009) left out of the count unless included. Neighbours are visited column by
/// column (x outer, y inner) as the reference does, so ties pick the same darkest and
/// brightest neighbour and every anti-aliasing decision agrees.
public enum ImageDiff {
    /// Largest image `mapcompose diff` compares unless told otherwise: 2^28 pixels (16384 ×
    /// 16384). Files are compared a band of rows at a time (see `compare(_:_:threshold:…)` on
    /// `PNGRowReader`s), so this bounds the time a comparison takes, not its memory.
    public static let defaultMaxPixels = 1 << 28

    /// Largest possible YIQ squared distance (black vs white).
    static let maxYIQDelta = 35215.0

    /// Compares two straight-alpha images of the same size.
    public static func compare(_ a: RGBAImage, _ b: RGBAImage, threshold: Double = 0.1,
                               includeAntialiasing: Bool = false,
                               makeDiffImage: Bool = false) throws(ImageDiffError) -> ImageDiffResult {
        guard a.width == b.width, a.height == b.height else {
            throw ImageDiffError(description: "sizes differ: \(a.width)x\(a.height) vs \(b.width)x\(b.height)")
        }
        guard threshold.isFinite, (0...1).contains(threshold) else {
            throw ImageDiffError(description: "threshold \(threshold) is outside 0…1")
        }
        let w = a.width, h = a.height
        let maxDelta = maxYIQDelta * threshold * threshold
        // 0 similar, 1 differs, 2 anti-aliased
        var marks = [UInt8](repeating: 0, count: makeDiffImage ? w * h : 0)
        // Bands of rows on all cores: a pixel's verdict reads only the two images (its
        // neighbours' too), never another pixel's verdict, so the counts are the same summed.
        let bands = RowBands(rows: h)
        var counts = [(differing: Int, antialiased: Int)](repeating: (0, 0), count: bands.count)
        a.pixels.withUnsafeBufferPointer { one in
            b.pixels.withUnsafeBufferPointer { two in
                marks.withUnsafeMutableBufferPointer { marks in
                    counts.withUnsafeMutableBufferPointer { counts in
                        let first = Pixels(words: one, width: w, height: h), second = Pixels(words: two, width: w, height: h)
                        bands.forEachConcurrently { band, rows in
                            counts[band] = compareRows(rows, first, second, maxDelta: maxDelta,
                                                       includeAntialiasing: includeAntialiasing,
                                                       marks: makeDiffImage ? marks : nil)
                        }
                    }
                }
            }
        }
        let differing = counts.reduce(0) { $0 + $1.differing }, antialiased = counts.reduce(0) { $0 + $1.antialiased }
        let image = makeDiffImage ? drawDiff(a, marks: marks) : nil
        return ImageDiffResult(width: w, height: h, differingPixels: differing,
                               antialiasedPixels: antialiased, diffImage: image)
    }

    /// Compares two Cairo images by their straight colours (as their PNG files would hold them).
    public static func compare(_ a: RasterImage, _ b: RasterImage, threshold: Double = 0.1,
                               includeAntialiasing: Bool = false,
                               makeDiffImage: Bool = false) throws(ImageDiffError) -> ImageDiffResult {
        guard a.width == b.width, a.height == b.height else {
            throw ImageDiffError(description: "sizes differ: \(a.width)x\(a.height) vs \(b.width)x\(b.height)")
        }
        return try compare(RGBAImage(a), RGBAImage(b), threshold: threshold,
                           includeAntialiasing: includeAntialiasing, makeDiffImage: makeDiffImage)
    }

    /// pixelmatch's loop over `rows`: how many pixels differ and how many of those are
    /// anti-aliasing, each marked in `marks` when given.
    /// `marks` holds the rows from `marksFirstRow` on. The anti-aliasing test reads two rows
    /// above and below `rows` (where the image has them).
    static func compareRows(_ rows: Range<Int>, _ first: Pixels, _ second: Pixels, maxDelta: Double,
                                    includeAntialiasing: Bool, marks: UnsafeMutableBufferPointer<UInt8>?,
                                    marksFirstRow: Int = 0) -> (differing: Int, antialiased: Int) {
        let w = first.width
        var differing = 0, antialiased = 0
        for y in rows {
            for x in 0..<w {
                let i = (y - marksFirstRow) * w + x
                let p1 = first[x, y], p2 = second[x, y]
                if p1 == p2 { continue }
                guard colorDelta(p1, p2) > maxDelta else { continue }
                if !includeAntialiasing,
                   isAntialiased(first, x: x, y: y, other: second) || isAntialiased(second, x: x, y: y, other: first) {
                    antialiased += 1
                    marks?[i] = 2
                } else {
                    differing += 1
                    marks?[i] = 1
                }
            }
        }
        return (differing, antialiased)
    }

    /// Read access to one image's words by coordinate: rows `firstRow ..< firstRow +
    /// words.count / width` of an image `height` rows tall (its whole height when it is whole
    /// in memory, a window of rows when it is streamed).
    struct Pixels {
        let words: UnsafeBufferPointer<UInt32>
        let width: Int, height: Int
        var firstRow = 0

        subscript(x: Int, y: Int) -> UInt32 { words[(y - firstRow) * width + x] }
    }

    @inline(__always)
    private static func channels(_ p: UInt32) -> (Double, Double, Double) {
        var r = Double(p & 0xFF), g = Double((p >> 8) & 0xFF), b = Double((p >> 16) & 0xFF)
        let alpha = Double(p >> 24)
        if alpha < 255 {
            let a = alpha / 255
            r = blend(r, a)
            g = blend(g, a)
            b = blend(b, a)
        }
        return (r, g, b)
    }

    /// A translucent channel over white.
    @inline(__always)
    private static func blend(_ c: Double, _ a: Double) -> Double { 255 + (c - 255) * a }

    @inline(__always)
    private static func rgb2y(_ r: Double, _ g: Double, _ b: Double) -> Double {
        r * 0.29889531 + g * 0.58662247 + b * 0.11448223
    }

    /// pixelmatch's colour distance: the squared YIQ distance (its brightness-only form is
    /// `brightness(p1) - brightness(p2)`, used by the anti-aliasing test). The arithmetic is
    /// the reference's, step for step, so results are bit-identical.
    @inline(__always)
    static func colorDelta(_ p1: UInt32, _ p2: UInt32) -> Double {
        if p1 == p2 { return 0 }
        let (r1, g1, b1) = channels(p1), (r2, g2, b2) = channels(p2)
        let y = rgb2y(r1, g1, b1) - rgb2y(r2, g2, b2)
        let i = (r1 * 0.59597799 - g1 * 0.27417610 - b1 * 0.32180189) - (r2 * 0.59597799 - g2 * 0.27417610 - b2 * 0.32180189)
        let q = (r1 * 0.21147017 - g1 * 0.52261711 + b1 * 0.31114694) - (r2 * 0.21147017 - g2 * 0.52261711 + b2 * 0.31114694)
        return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    }

    /// A pixel's brightness over white: the Y of pixelmatch's YIQ.
    @inline(__always)
    static func brightness(_ p: UInt32) -> Double {
        let (r, g, b) = channels(p)
        return rgb2y(r, g, b)
    }

    /// pixelmatch's anti-aliasing test: the pixel lies on a gradient between a darkest and a
    /// brightest neighbour, one of which has 3 or more identical neighbours in both images.
    static func isAntialiased(_ image: Pixels, x x1: Int, y y1: Int, other: Pixels) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, image.width - 1), y2 = min(y1 + 1, image.height - 1)
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        let center = image[x1, y1]
        // The centre's brightness once, not per neighbour: the same value colorDelta computes.
        let centerBrightness = brightness(center)
        // Column by column, as the reference: the first of equal extremes wins.
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                let neighbour = image[x, y]
                let delta = neighbour == center ? 0 : centerBrightness - brightness(neighbour)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta
                    minX = x
                    minY = y
                } else if delta > maxDelta {
                    maxDelta = delta
                    maxX = x
                    maxY = y
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(image, x: minX, y: minY) && hasManySiblings(other, x: minX, y: minY))
            || (hasManySiblings(image, x: maxX, y: maxY) && hasManySiblings(other, x: maxX, y: maxY))
    }

    /// True when three or more neighbours (an edge counting as one) share the pixel's exact value.
    static func hasManySiblings(_ image: Pixels, x x1: Int, y y1: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, image.width - 1), y2 = min(y1 + 1, image.height - 1)
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        let value = image[x1, y1]
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                if image[x, y] == value { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    /// pixelmatch's output: red (1), yellow (2), else the first image's brightness at 10%
    /// opacity over white, truncated to whole values as the reference does.
    private static func drawDiff(_ base: RGBAImage, marks: [UInt8]) -> RGBAImage {
        let w = base.width
        let out = [UInt32](unsafeUninitializedCapacity: base.pixels.count) { out, initialized in
            base.pixels.withUnsafeBufferPointer { pixels in
                marks.withUnsafeBufferPointer { marks in
                    RowBands(rows: base.height).forEachConcurrently { _, rows in
                        let range = rows.lowerBound * w..<rows.upperBound * w
                        drawDiff(UnsafeBufferPointer(rebasing: pixels[range]), marks: UnsafeBufferPointer(rebasing: marks[range]),
                                 into: UnsafeMutableBufferPointer(rebasing: out[range]))
                    }
                }
            }
            initialized = base.pixels.count
        }
        return RGBAImage(width: base.width, height: base.height, pixels: out)
    }

    /// The diff image's pixels for the first image's `pixels` and their `marks`, into `out`.
    static func drawDiff(_ pixels: UnsafeBufferPointer<UInt32>, marks: UnsafeBufferPointer<UInt8>,
                         into out: UnsafeMutableBufferPointer<UInt32>) {
        let red = RGBAImage.word(RGBA(r: 255, g: 0, b: 0)), yellow = RGBAImage.word(RGBA(r: 255, g: 255, b: 0))
        for i in 0..<pixels.count {
            switch marks[i] {
            case 1: out[i] = red
            case 2: out[i] = yellow
            default:
                let p = pixels[i]
                let luma = rgb2y(Double(p & 0xFF), Double((p >> 8) & 0xFF), Double((p >> 16) & 0xFF))
                let value = UInt32(max(0, min(255, blend(luma, 0.1 * Double(p >> 24) / 255))))
                out[i] = value | value << 8 | value << 16 | 0xFF00_0000
            }
        }
    }
}
