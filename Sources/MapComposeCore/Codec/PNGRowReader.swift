import CImageCodecs
import Foundation

/// A PNG decoded a band of rows at a time, as straight RGBA words like `StraightPNGDecoder`
/// gives, so a large image is never whole in memory: `mapcompose diff` compares two files this
/// way. An image of at most `wholeImagePixels` is decoded whole when the reader is made, through
/// `StraightPNGDecoder`'s fast path (several times quicker than libpng row by row), and handed
/// out from memory; so is an interlaced (Adam7) file, whose passes revisit every row.
public final class PNGRowReader {
    public let width: Int
    public let height: Int
    /// Rows handed out so far.
    public private(set) var rowsRead = 0
    /// The file's bytes, which libpng reads from as rows are asked for (nil when decoded whole).
    private let bytes: UnsafeMutableRawBufferPointer?
    private var reader: OpaquePointer?
    /// The whole image, for a small or an interlaced file.
    private var whole: RGBAImage?

    /// The image, when it was decoded whole and no row has been handed out yet.
    var wholeImage: RGBAImage? { rowsRead == 0 ? whole : nil }

    /// Largest image decoded whole when its reader is made: 2^22 pixels, 16 MiB, e.g. 2048 × 2048.
    public static let wholeImagePixels = 1 << 22
    /// Largest interlaced image read (decoded whole): 2^24 pixels, 64 MB.
    public static let maxInterlacedPixels = 1 << 24

    /// Reads the header of the PNG in `data` (the size must be within `maxPixels`) and gets
    /// ready to decode its rows; an image of at most `wholePixels` pixels is decoded now.
    public init(_ data: Data, maxPixels: Int = StraightPNGDecoder.maxPixels,
                decodingWholeUpTo wholePixels: Int = PNGRowReader.wholeImagePixels) throws(TileDecodeError) {
        let size = try StraightPNGDecoder.size(of: data)
        guard size.width <= Int(Int32.max), size.height <= Int(Int32.max), size.width * size.height <= maxPixels else {
            throw .corrupt(format: "PNG", detail: "\(size.width)x\(size.height) pixels is over the limit of \(maxPixels) pixels")
        }
        if size.width * size.height <= wholePixels {
            whole = try StraightPNGDecoder.decode(data)
            width = size.width
            height = size.height
            bytes = nil
            reader = nil
            return
        }
        // Everything is made before the stored properties are set, so a failure frees what it made.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        buffer.copyBytes(from: data)
        var message = [CChar](repeating: 0, count: 256)
        var interlaced: Int32 = 0
        let opened = mc_png_rows_open(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.count,
                                      Int32(size.width), Int32(size.height), &interlaced, &message, message.count)
        var decodedWhole: RGBAImage?
        if opened == nil {
            guard interlaced != 0 else {
                buffer.deallocate()
                let detail = String(messageBuffer: message)
                throw .corrupt(format: "PNG", detail: detail.isEmpty ? "unreadable image data" : detail)
            }
            guard size.width * size.height <= Self.maxInterlacedPixels else {
                buffer.deallocate()
                throw .corrupt(format: "PNG", detail: "an interlaced image is decoded whole, and \(size.width)x\(size.height) "
                               + "is over the limit of \(Self.maxInterlacedPixels) pixels for that: save it without interlacing")
            }
            do {
                decodedWhole = try StraightPNGDecoder.decode(data)
            } catch {
                buffer.deallocate()
                throw error
            }
        }
        width = size.width
        height = size.height
        bytes = buffer
        reader = opened
        whole = decodedWhole
    }

    /// Readers of several PNG files, made side by side on the cores there are (the images
    /// decoded whole are decoded at once): each file's reader or why it cannot be read, in order.
    public static func open(_ files: [Data], maxPixels: Int = StraightPNGDecoder.maxPixels)
        -> [Result<PNGRowReader, TileDecodeError>] {
        ConcurrentWork.map(files.count) { index in
            Result { () throws(TileDecodeError) in try PNGRowReader(files[index], maxPixels: maxPixels) }
        }
    }

    deinit {
        mc_png_rows_close(reader)
        bytes?.deallocate()
    }

    /// Decodes the next `count` rows into `out`, which holds `count × width` words.
    public func read(_ count: Int, into out: UnsafeMutablePointer<UInt32>) throws(TileDecodeError) {
        precondition(count >= 0 && count <= height - rowsRead, "reading past the last row")
        if let whole {
            whole.pixels.withUnsafeBufferPointer { pixels in
                out.update(from: pixels.baseAddress! + rowsRead * width, count: count * width)
            }
        } else {
            var message = [CChar](repeating: 0, count: 256)
            let status = mc_png_rows_read(reader, UnsafeMutableRawPointer(out).assumingMemoryBound(to: UInt8.self),
                                          Int32(count), &message, message.count)
            guard status == 0 else {
                let detail = String(messageBuffer: message)
                throw .corrupt(format: "PNG", detail: "row \(rowsRead + 1) or after: "
                               + (detail.isEmpty ? "unreadable image data" : detail))
            }
            #if _endian(big)
            for i in 0..<count * width { out[i] = UInt32(littleEndian: out[i]) }
            #endif
        }
        rowsRead += count
    }
}
