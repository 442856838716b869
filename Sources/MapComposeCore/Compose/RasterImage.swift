import CCairo
import CImageCodecs
import CPixelMemory
import Foundation

/// An ARGB32 (premultiplied) image backed by a Cairo image surface that this value owns.
///
/// Immutable once made public by its creator, so it can be shared across tasks.
public final class RasterImage: @unchecked Sendable {
    /// The owned Cairo surface; destroyed with this object.
    let surface: OpaquePointer

    public let width: Int
    public let height: Int
    /// The image whose pixels a view draws on (see RasterImage+Views.swift), kept alive with it.
    private let pixelOwner: RasterImage?
    /// True for a view of another image's pixels.
    var isView: Bool { pixelOwner != nil }
    /// For a tile decoded straight into a slab (see TileSlab.swift): the slab and the cell.
    let slabCell: TileSlab.Cell?

    /// Takes ownership of `surface`, which must be a successfully created image surface.
    ///
    /// Pixel readers assume ARGB32, so a surface in any other format (RGB24 with undefined
    /// alpha bytes, A8, RGB16_565, or the float formats Cairo ≥ 1.17.2 gives 16-bit PNGs) is
    /// painted onto a new ARGB32 surface, which Cairo converts exactly, and the original is
    /// released.
    init(adopting surface: OpaquePointer) throws(CairoError) {
        var status = cairo_surface_status(surface)
        if status == CAIRO_STATUS_SUCCESS,
           cairo_surface_get_type(surface) != CAIRO_SURFACE_TYPE_IMAGE
            || cairo_image_surface_get_width(surface) < 1 || cairo_image_surface_get_height(surface) < 1
            || cairo_image_surface_get_data(surface) == nil {
            status = CAIRO_STATUS_INVALID_SIZE
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw CairoError(operation: "image surface", status: status.rawValue)
        }
        var adopted = surface
        if cairo_image_surface_get_format(surface) != CAIRO_FORMAT_ARGB32 {
            let converted = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, cairo_image_surface_get_width(surface),
                                                       cairo_image_surface_get_height(surface))!
            let context = cairo_create(converted)!
            cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_surface(context, surface, 0, 0)
            cairo_paint(context)
            status = cairo_status(context)
            cairo_destroy(context)
            cairo_surface_destroy(surface)
            if status == CAIRO_STATUS_SUCCESS { status = cairo_surface_status(converted) }
            guard status == CAIRO_STATUS_SUCCESS else {
                cairo_surface_destroy(converted)
                throw CairoError(operation: "convert image surface to ARGB32", status: status.rawValue)
            }
            adopted = converted
        }
        self.surface = adopted
        width = Int(cairo_image_surface_get_width(adopted))
        height = Int(cairo_image_surface_get_height(adopted))
        pixelOwner = nil
        slabCell = nil
    }

    /// Takes ownership of `surface`, an ARGB32 image surface over pixels of `owner` (the pixels
    /// of `cell` of a slab, when given).
    init(view surface: OpaquePointer, of owner: RasterImage, cell: TileSlab.Cell? = nil) throws(CairoError) {
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw CairoError(operation: "image view", status: status.rawValue)
        }
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        pixelOwner = owner
        slabCell = cell
    }

    /// A new fully transparent image.
    public convenience init(width: Int, height: Int) throws(CairoError) {
        try self.init(adopting: Self.newSurface(width: width, height: height, zeroed: true))
    }

    /// A new image whose pixels may be an earlier image's (reused memory, see `PixelMemory`),
    /// for a caller that sets every pixel before any is read, then calls `markChanged`.
    convenience init(unclearedWidth width: Int, height: Int) throws(CairoError) {
        try self.init(adopting: Self.newSurface(width: width, height: height, zeroed: false))
    }

    /// Images of at least this many bytes are drawn on huge pages of their own (see
    /// `PixelMemory`).
    static let hugePageThreshold = PixelMemory.hugePageThreshold

    /// Tags the buffer a surface draws on; Cairo releases it with the surface.
    nonisolated(unsafe) private static var ownedBufferKey = cairo_user_data_key_t()

    /// A new ARGB32 surface, all transparent (with `zeroed: false`, possibly holding an earlier
    /// image's pixels). A large one draws on a buffer of huge pages, a tile-sized one on a
    /// buffer from the pool that shares huge pages among tiles (see pooled_buffers.c); the
    /// surface owns the buffer. Where neither can be had, or for small images, Cairo allocates
    /// as usual (one page fault per 4 KiB filled), transparent.
    private static func newSurface(width: Int, height: Int, zeroed: Bool) -> OpaquePointer {
        let w = Int32(clamping: width), h = Int32(clamping: height)
        if let (stride, bytes) = layout(width: width, height: height),
           let memory = PixelMemory(length: bytes, zeroed: zeroed),
           let surface = surface(on: memory, width: w, height: h, stride: stride) {
            return surface
        }
        return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h)
    }

    /// The row stride and byte count of an ARGB32 image of this size (each side clamped to
    /// 32 bits, as the surface's is); nil when there is no such buffer to make.
    static func layout(width: Int, height: Int) -> (stride: Int, bytes: Int)? {
        guard width > 0, height > 0 else { return nil }
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(clamping: width)))
        let (bytes, overflow) = stride.multipliedReportingOverflow(by: Int(Int32(clamping: height)))
        guard stride > 0, !overflow else { return nil }
        return (stride, bytes)
    }

    /// A surface drawing on `memory`, which it frees when destroyed; nil (with the memory
    /// freed) when Cairo cannot attach it.
    private static func surface(on memory: PixelMemory, width: Int32, height: Int32, stride: Int) -> OpaquePointer? {
        let surface = cairo_image_surface_create_for_data(memory.bytes.assumingMemoryBound(to: UInt8.self),
                                                          CAIRO_FORMAT_ARGB32, width, height, Int32(stride))!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              cairo_surface_set_user_data(surface, &ownedBufferKey, memory.owner, memory.release) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            memory.free()
            return nil
        }
        return surface
    }

    deinit {
        cairo_surface_destroy(surface)
    }

    /// Bytes per row.
    public var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

    /// Bytes of the pixels this image shows (a view of part of a larger image's rows holds
    /// no more than that).
    public var byteCount: Int { width * 4 * height }

    /// Words from the first pixel to the last: rows of a view of a wider image's cell are
    /// `stride` apart, and its last row ends at its own last pixel.
    private var wordsSpanned: Int { stride / 4 * (height - 1) + width }

    /// Gives read access to the premultiplied pixels (native-endian 0xAARRGGBB words), rows
    /// `wordsPerRow` apart.
    public func withPixels<T>(_ body: (UnsafeBufferPointer<UInt32>, _ wordsPerRow: Int) throws -> T) rethrows -> T {
        cairo_surface_flush(surface)
        let base = cairo_image_surface_get_data(surface)!
        return try base.withMemoryRebound(to: UInt32.self, capacity: wordsSpanned) { pointer in
            try body(UnsafeBufferPointer(start: pointer, count: wordsSpanned), stride / 4)
        }
    }

    /// Gives write access to the pixels, rows `wordsPerRow` apart; marks the surface dirty
    /// afterwards.
    func withMutablePixels<T>(_ body: (UnsafeMutableBufferPointer<UInt32>, _ wordsPerRow: Int) throws -> T) rethrows -> T {
        cairo_surface_flush(surface)
        let base = cairo_image_surface_get_data(surface)!
        defer { cairo_surface_mark_dirty(surface) }
        return try base.withMemoryRebound(to: UInt32.self, capacity: wordsSpanned) { pointer in
            try body(UnsafeMutableBufferPointer(start: pointer, count: wordsSpanned), stride / 4)
        }
    }

    /// Makes every pixel transparent.
    func clearPixels() {
        clearPixels(exceptColumns: [])
    }

    /// Makes every pixel transparent but those in `kept` (ranges of columns, in any order, each
    /// within the image, none overlapping another), on every row.
    func clearPixels(exceptColumns kept: [Range<Int>]) {
        var cleared: [Range<Int>] = []
        var start = 0
        for columns in kept.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if columns.lowerBound > start { cleared.append(start..<columns.lowerBound) }
            start = max(start, columns.upperBound)
        }
        if start < width { cleared.append(start..<width) }
        guard !cleared.isEmpty else { return }
        withMutablePixels { pixels, wordsPerRow in
            for row in 0..<height {
                let line = pixels.baseAddress!.advanced(by: row * wordsPerRow)
                for columns in cleared { line.advanced(by: columns.lowerBound).update(repeating: 0, count: columns.count) }
            }
        }
    }

    /// The un-premultiplied RGBA colour of one pixel.
    public func rgba(x: Int, y: Int) -> RGBA {
        withPixels { pixels, words in RGBA(premultipliedARGB: pixels[y * words + x]) }
    }
}

extension RasterImage {
    /// A new image of one colour.
    public convenience init(width: Int, height: Int, color: RGBA) throws(CairoError) {
        try self.init(width: width, height: height)
        let word = color.premultipliedARGB
        withMutablePixels { pixels, _ in pixels.update(repeating: word) }  // a new image: rows are contiguous
    }

    /// A new image whose pixel at (x, y) is `color(x, y)`.
    public convenience init(width: Int, height: Int, color: (_ x: Int, _ y: Int) -> RGBA) throws(CairoError) {
        try self.init(width: width, height: height)
        withMutablePixels { pixels, wordsPerRow in
            for y in 0..<height {
                for x in 0..<width { pixels[y * wordsPerRow + x] = color(x, y).premultipliedARGB }
            }
        }
    }
}
