import Foundation

/// The outcome of comparing two images pixel by pixel.
public struct ImageDiffResult: Sendable {
    public let width: Int
    public let height: Int
    /// Pixels whose colour difference exceeds the threshold (anti-aliasing excluded).
    public let differingPixels: Int
    /// Pixels over the threshold that were judged anti-aliasing and not counted.
    public let antialiasedPixels: Int
    /// Red where pixels differ, yellow for anti-aliasing, over a faded copy of the first image.
    public let diffImage: RasterImage?

    public var totalPixels: Int { width * height }
    /// Share of differing pixels, 0…1.
    public var differingFraction: Double { Double(differingPixels) / Double(max(1, totalPixels)) }
}

/// Why two images cannot be compared.
public struct ImageDiffError: Error, CustomStringConvertible {
    public let description: String
}

/// A pixelmatch-style comparison: perceptual YIQ colour distance with a threshold, and
/// anti-aliased pixels detected and left out of the count.
public enum ImageDiff {
    /// Largest possible YIQ squared distance (black vs white).
    static let maxYIQDelta = 35215.0

    public static func compare(_ a: RasterImage, _ b: RasterImage, threshold: Double = 0.1,
                               includeAntialiasing: Bool = false,
                               makeDiffImage: Bool = false) throws -> ImageDiffResult {
        guard a.width == b.width, a.height == b.height else {
            throw ImageDiffError(description: "sizes differ: \(a.width)x\(a.height) vs \(b.width)x\(b.height)")
        }
        let w = a.width, h = a.height
        let one = StraightPixels(a), two = StraightPixels(b)
        let maxDelta = maxYIQDelta * threshold * threshold
        var differing = 0, antialiased = 0
        var marks = [UInt8](repeating: 0, count: makeDiffImage ? w * h : 0)
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                if one.pixels[i] == two.pixels[i] { continue }
                let delta = colorDelta(one.pixels[i], two.pixels[i], yOnly: false)
                guard abs(delta) > maxDelta else { continue }
                if !includeAntialiasing,
                   isAntialiased(one, x: x, y: y, other: two) || isAntialiased(two, x: x, y: y, other: one) {
                    antialiased += 1
                    if makeDiffImage { marks[i] = 2 }
                } else {
                    differing += 1
                    if makeDiffImage { marks[i] = 1 }
                }
            }
        }
        let image = makeDiffImage ? try drawDiff(one, marks: marks, width: w, height: h) : nil
        return ImageDiffResult(width: w, height: h, differingPixels: differing,
                               antialiasedPixels: antialiased, diffImage: image)
    }

    /// Straight-alpha RGBA pixels packed as 0xRRGGBBAA.
    struct StraightPixels {
        let width: Int, height: Int
        let pixels: [UInt32]

        init(_ image: RasterImage) {
            width = image.width
            height = image.height
            var out = [UInt32](repeating: 0, count: image.width * image.height)
            image.withPixels { words, perRow in
                for y in 0..<image.height {
                    for x in 0..<image.width {
                        let c = RGBA(premultipliedARGB: words[y * perRow + x])
                        out[y * image.width + x] = UInt32(c.r) << 24 | UInt32(c.g) << 16 | UInt32(c.b) << 8 | UInt32(c.a)
                    }
                }
            }
            pixels = out
        }

        subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }
    }

    /// Channels blended over white by alpha, as pixelmatch does.
    private static func blended(_ p: UInt32) -> (Double, Double, Double) {
        let a = Double(p & 0xFF) / 255
        func ch(_ shift: UInt32) -> Double { 255 + (Double((p >> shift) & 0xFF) - 255) * a }
        return (ch(24), ch(16), ch(8))
    }

    /// Signed YIQ distance (negative when the first pixel is brighter); brightness only if `yOnly`.
    static func colorDelta(_ p1: UInt32, _ p2: UInt32, yOnly: Bool) -> Double {
        let (r1, g1, b1) = blended(p1), (r2, g2, b2) = blended(p2)
        let y1 = r1 * 0.29889531 + g1 * 0.58662247 + b1 * 0.11448223
        let y2 = r2 * 0.29889531 + g2 * 0.58662247 + b2 * 0.11448223
        let y = y1 - y2
        if yOnly { return y }
        let i = (r1 * 0.59597799 - g1 * 0.27417610 - b1 * 0.32180189) - (r2 * 0.59597799 - g2 * 0.27417610 - b2 * 0.32180189)
        let q = (r1 * 0.21147017 - g1 * 0.52261711 + b1 * 0.31114694) - (r2 * 0.21147017 - g2 * 0.52261711 + b2 * 0.31114694)
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y1 > y2 ? -delta : delta
    }

    /// Pixelmatch's anti-aliasing test: the pixel lies on a gradient between a darkest and a
    /// brightest neighbour, one of which sits in a flat area in both images.
    static func isAntialiased(_ image: StraightPixels, x: Int, y: Int, other: StraightPixels) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
        let x2 = min(x + 1, image.width - 1), y2 = min(y + 1, image.height - 1)
        var zeroes = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        let center = image[x, y]
        for ny in y0...y2 {
            for nx in x0...x2 where !(nx == x && ny == y) {
                let delta = colorDelta(center, image[nx, ny], yOnly: true)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta; minX = nx; minY = ny
                } else if delta > maxDelta {
                    maxDelta = delta; maxX = nx; maxY = ny
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(image, x: minX, y: minY) && hasManySiblings(other, x: minX, y: minY))
            || (hasManySiblings(image, x: maxX, y: maxY) && hasManySiblings(other, x: maxX, y: maxY))
    }

    /// True when more than two neighbours share the pixel's exact value.
    static func hasManySiblings(_ image: StraightPixels, x: Int, y: Int) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
        let x2 = min(x + 1, image.width - 1), y2 = min(y + 1, image.height - 1)
        var zeroes = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        let value = image[x, y]
        for ny in y0...y2 {
            for nx in x0...x2 where !(nx == x && ny == y) && image[nx, ny] == value {
                zeroes += 1
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    private static func drawDiff(_ base: StraightPixels, marks: [UInt8], width: Int, height: Int) throws -> RasterImage {
        let image = try RasterImage(width: width, height: height)
        image.withMutablePixels { words, perRow in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * width + x
                    let word: UInt32
                    switch marks[i] {
                    case 1: word = 0xFFFF_0000
                    case 2: word = 0xFFFF_FF00
                    default:
                        let (r, g, b) = blended(base.pixels[i])
                        let luma = r * 0.29889531 + g * 0.58662247 + b * 0.11448223
                        let faded = UInt32(255 + (luma - 255) * 0.1)
                        word = 0xFF00_0000 | faded << 16 | faded << 8 | faded
                    }
                    words[y * perRow + x] = word
                }
            }
        }
        return image
    }
}
