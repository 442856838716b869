import CCairo
import Foundation
import Testing
@testable import MapComposeCore

/// Every image is ARGB32 however Cairo made it, so pixel readers never misread its memory.
@Suite struct SurfaceFormatTests {
    /// A Cairo image surface of `format` whose every 32-bit word (or byte, for A8) is `value`.
    static func surface(_ format: cairo_format_t, width: Int32 = 3, height: Int32 = 2, fill value: UInt32) -> OpaquePointer {
        let surface = cairo_image_surface_create(format, width, height)!
        cairo_surface_flush(surface)
        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<Int(height) {
            for x in 0..<Int(width) {
                if format == CAIRO_FORMAT_A8 {
                    data[y * stride + x] = UInt8(value & 0xFF)
                } else {
                    (data + y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee = value }
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }

    @Test func rgb24WithUndefinedAlphaBytesBecomesOpaque() throws {
        let image = try RasterImage(adopting: Self.surface(CAIRO_FORMAT_RGB24, fill: 0x0012_3456))
        #expect(image.width == 3 && image.height == 2)
        #expect(image.rgba(x: 2, y: 1) == RGBA(r: 0x12, g: 0x34, b: 0x56, a: 255))
        #expect(cairo_image_surface_get_format(image.surface) == CAIRO_FORMAT_ARGB32)
    }

    @Test func alphaOnlySurfacesBecomeBlackWithThatAlpha() throws {
        let image = try RasterImage(adopting: Self.surface(CAIRO_FORMAT_A8, width: 5, fill: 0x80))
        #expect(image.width == 5)
        #expect(image.rgba(x: 4, y: 1) == RGBA(r: 0, g: 0, b: 0, a: 0x80))
    }

    @Test func rgb16SurfacesAreConverted() throws {
        // 0xF800 is pure red in RGB 5-6-5; two pixels share each word.
        let image = try RasterImage(adopting: Self.surface(CAIRO_FORMAT_RGB16_565, width: 4, fill: 0xF800_F800))
        #expect(image.rgba(x: 3, y: 1) == RGBA(r: 255, g: 0, b: 0))
    }

    @Test func argb32SurfacesAreKeptAsTheyAre() throws {
        let surface = Self.surface(CAIRO_FORMAT_ARGB32, fill: 0x8040_2010)
        let image = try RasterImage(adopting: surface)
        #expect(image.surface == surface)
        #expect(image.rgba(x: 0, y: 0) == RGBA(premultipliedARGB: 0x8040_2010))
    }

    @Test func sixteenBitPNGsDecodeToTheirColours() throws {
        // RGBA 16-bit: red opaque, green half transparent; RGB 16-bit: a blue-grey.
        let rgba = HandMadePNG.make(width: 2, height: 1, bitDepth: 16, colorType: 6, rows: [
            [0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0, 0, 0x80, 0x00],
        ])
        let image = try TileDecoder.decode(rgba)
        #expect(image.width == 2 && image.height == 1)
        #expect(image.rgba(x: 0, y: 0) == RGBA(r: 255, g: 0, b: 0))
        let green = image.rgba(x: 1, y: 0)
        #expect(green.a == 128 && green.r == 0 && green.b == 0 && green.g >= 254, "\(green)")
        let rgb = HandMadePNG.make(width: 1, height: 2, bitDepth: 16, colorType: 2, rows: [
            [0x40, 0x00, 0x60, 0x00, 0xC0, 0x00], [0, 0, 0, 0, 0, 0],
        ])
        let opaque = try TileDecoder.decode(rgb)
        #expect(opaque.rgba(x: 0, y: 0) == RGBA(r: 0x40, g: 0x60, b: 0xC0))
        #expect(opaque.rgba(x: 0, y: 1) == RGBA(r: 0, g: 0, b: 0))
    }
}
