import CZlib
import Foundation

/// Why compressed bytes could not be inflated.
public struct GzipError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

/// Inflates gzip (and zlib) streams, as vector tiles and PMTiles directories are stored,
/// never past a size limit: a small bomb stops at the limit, not at the machine's memory.
public enum Gzip {
    /// True when `data` starts with the gzip magic bytes (1f 8b).
    public static func isCompressed(_ data: Data) -> Bool {
        data.count >= 2 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B
    }

    /// The inflated bytes of the gzip or zlib stream in `data`; at most `limit` of them.
    public static func inflate(_ data: Data, limit: Int) throws(GzipError) -> Data {
        var stream = z_stream()
        // 15 + 32: the largest window, and a gzip or a zlib header recognised by itself.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw GzipError(description: "cannot start inflating (out of memory)")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let status: Int32 = data.withUnsafeBytes { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            var status = Z_OK
            repeat {
                status = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let result = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(buffer.baseAddress!, count: buffer.count - Int(stream.avail_out))
                    return result
                }
                if output.count > limit { return Z_MEM_ERROR }
            } while status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
            return status
        }
        switch status {
        case Z_STREAM_END:
            return output
        case Z_MEM_ERROR where output.count > limit:
            throw GzipError(description: "inflates to more than \(limit) bytes")
        case Z_OK, Z_BUF_ERROR:
            throw GzipError(description: "the compressed data ends early")
        default:
            let reason = stream.msg.map { String(cString: $0) } ?? "code \(status)"
            throw GzipError(description: "not valid gzip data (\(reason))")
        }
    }
}
