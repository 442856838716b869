import Foundation
import MapComposeCore

/// Tile bytes made on the fly for tests: valid, corrupt and oversized images.
public enum TileFixtures {
    /// A PNG tile of one colour.
    public static func solidPNG(_ color: RGBA, size: Int = 256) throws -> Data {
        try ImageEncoder.png(solidImage(color, size: size))
    }

    /// A JPEG tile of one colour.
    public static func solidJPEG(_ color: RGBA, size: Int = 256, quality: Int = 95) throws -> Data {
        try ImageEncoder.jpeg(solidImage(color, size: size), quality: quality)
    }

    public static func solidImage(_ color: RGBA, size: Int) throws -> RasterImage {
        try RasterImage(width: size, height: size, color: color)
    }

    /// A PNG of `size`² pixels whose data stops halfway through its compressed pixels.
    public static func truncatedPNG(size: Int = 256) throws -> Data {
        let data = try solidPNG(RGBA(r: 10, g: 200, b: 30), size: size)
        return data.prefix(data.count / 2)
    }

    /// Bytes that start like a JPEG and then are not one.
    public static func corruptJPEG() -> Data {
        Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) + Data("this is not image data at all".utf8)
    }

    /// A real PNG header claiming `width`×`height` pixels, with no pixel data after it.
    public static func pngHeader(width: UInt32, height: UInt32) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        var chunk = Data("IHDR".utf8)
        for value in [width, height] { chunk.append(contentsOf: withUnsafeBytes(of: value.bigEndian, Array.init)) }
        chunk.append(contentsOf: [8, 6, 0, 0, 0])
        data.append(chunk)
        data.append(contentsOf: withUnsafeBytes(of: crc32(chunk).bigEndian, Array.init))
        return data
    }

    /// A valid small JPEG whose frame header is patched to claim `width`×`height` pixels.
    public static func jpegClaiming(width: UInt16, height: UInt16) throws -> Data {
        var bytes = [UInt8](try solidJPEG(RGBA(r: 50, g: 60, b: 70), size: 16))
        for i in 0..<(bytes.count - 9) where bytes[i] == 0xFF && (bytes[i + 1] == 0xC0 || bytes[i + 1] == 0xC2) {
            bytes[i + 5] = UInt8(height >> 8); bytes[i + 6] = UInt8(height & 0xFF)
            bytes[i + 7] = UInt8(width >> 8); bytes[i + 8] = UInt8(width & 0xFF)
            return Data(bytes)
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

extension TileFixtures {
    /// A 256-px tile whose left half is `left` and right half `right`.
    public static func halfSplit(left: RGBA, right: RGBA) throws -> RasterImage {
        try RasterImage(width: 256, height: 256) { x, _ in x < 128 ? left : right }
    }
}
