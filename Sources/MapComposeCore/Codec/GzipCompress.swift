import CZlib

extension Gzip {
    /// `bytes` deflated into a gzip stream (a gzip header and trailer around raw deflate), as
    /// vector tiles and PMTiles directories and metadata are stored. `level` runs from 0 (store)
    /// to 9 (smallest), -1 for zlib's default (6); a value outside is clamped.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        var stream = z_stream()
        // 15 + 16: the largest window, written with a gzip header rather than a zlib one.
        let started = deflateInit2_(&stream, max(-1, min(9, level)), Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                                    ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        // The arguments are valid, so only a failed allocation stops it.
        guard started == Z_OK else { fatalError("zlib deflateInit2 failed (code \(started)): out of memory") }
        defer { deflateEnd(&stream) }
        // deflateBound covers the whole stream, so one Z_FINISH call normally ends it; the loop
        // grows the output should it not.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        var written = 0
        var status = Z_OK
        bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            repeat {
                if written == output.count { output += [UInt8](repeating: 0, count: max(64, output.count / 2)) }
                status = output.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress! + written
                    stream.avail_out = uInt(buffer.count - written)
                    let result = deflate(&stream, Z_FINISH)
                    written = buffer.count - Int(stream.avail_out)
                    return result
                }
            } while status == Z_OK || status == Z_BUF_ERROR && written == output.count
        }
        guard status == Z_STREAM_END else { fatalError("zlib deflate failed (code \(status))") }
        output.removeSubrange(written...)
        return output
    }
}
