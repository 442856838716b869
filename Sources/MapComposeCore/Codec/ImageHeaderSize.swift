import CImageCodecs
import Foundation

extension TileDecoder {
    /// Width and height a PNG or JPEG header claims, read without decoding any pixels; nil
    /// when the bytes are neither or the header is unreadable (decoding then says why).
    static func headerSize(_ data: Data) -> (width: Int, height: Int)? {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return pngHeaderSize(data) }
        guard data.starts(with: [0xFF, 0xD8]) else { return nil }
        var info = mc_jpeg_info()
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBytes { raw in
            mc_jpeg_read_info(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &info, &message, message.count)
        }
        return status == 0 ? (Int(info.width), Int(info.height)) : nil
    }
}
