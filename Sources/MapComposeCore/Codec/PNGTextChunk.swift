import Foundation

/// `tEXt` chunks (keyword and Latin-1 text) for the PNG writer to put right after the header
/// chunk, e.g. the EPSG:3857 bounding box of a map so tools can place it.
enum PNGTextChunk {
    /// The chunks for `entries`, each whole: length, type, keyword, a zero byte, the text and
    /// the CRC. Keywords are cut to PNG's 79 bytes.
    static func chunks(_ entries: [(keyword: String, text: String)]) -> [UInt8] {
        // Built as bytes: Data's generic initialisers look up protocol conformances at run time.
        var chunks: [UInt8] = []
        for (keyword, text) in entries {
            var body = Array("tEXt".utf8)
            body.append(contentsOf: keyword.utf8.prefix(79))
            body.append(0)
            // Latin-1, with '?' for what it cannot hold.
            body.append(contentsOf: text.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") })
            appendBigEndian(UInt32(body.count - 4), to: &chunks)
            chunks += body
            appendBigEndian(crc32(body), to: &chunks)
        }
        return chunks
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static let table: [UInt32] = (0..<256).map { n in
        (0..<8).reduce(UInt32(n)) { c, _ in c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }

    /// The CRC-32 PNG chunks carry (ISO 3309, over type and data).
    static func crc32<Bytes: Sequence<UInt8>>(_ data: Bytes) -> UInt32 {
        ~data.reduce(0xFFFF_FFFF as UInt32) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}
