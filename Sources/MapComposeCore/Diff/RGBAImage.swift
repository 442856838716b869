import Foundation

/// An image as straight-alpha (not premultiplied) 8-bit RGBA: what a PNG file holds and what
/// pixelmatch compares. Each pixel is one word whose bytes in memory are R, G, B, A, so two
/// pixels are equal exactly when their words are.
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width × height` words, rows top to bottom; `red | green << 8 | blue << 16 | alpha << 24`.
    public private(set) var pixels: [UInt32]

    /// An image of `width × height` pixels given row by row; `pixels` must hold exactly that many.
    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The straight colours of a Cairo image, un-premultiplied as Cairo's PNG writer does, so
    /// the result equals what `ImageEncoder.png` writes for it.
    public init(_ image: RasterImage) {
        width = image.width
        height = image.height
        var out = [UInt32](repeating: 0, count: image.width * image.height)
        image.withPixels { words, perRow in
            for y in 0..<image.height {
                for x in 0..<image.width {
                    out[y * image.width + x] = Self.word(RGBA(premultipliedARGB: words[y * perRow + x]))
                }
            }
        }
        pixels = out
    }

    /// The pixel's colour.
    public func rgba(x: Int, y: Int) -> RGBA {
        let word = pixels[y * width + x]
        return RGBA(r: UInt8(truncatingIfNeeded: word), g: UInt8(truncatingIfNeeded: word >> 8),
                    b: UInt8(truncatingIfNeeded: word >> 16), a: UInt8(truncatingIfNeeded: word >> 24))
    }

    /// Packs a colour as a pixel word.
    public static func word(_ color: RGBA) -> UInt32 {
        UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16 | UInt32(color.a) << 24
    }

    /// The image as a Cairo image (premultiplied), e.g. to encode it.
    public func rasterImage() throws(CairoError) -> RasterImage {
        try RasterImage(width: width, height: height) { x, y in rgba(x: x, y: y) }
    }
}
