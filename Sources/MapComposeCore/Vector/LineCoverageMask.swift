import CCairo
import CLineCoverage
import Foundation

/// Lines drawn without Cairo's stroker: their coverage gathered in an 8-bit mask over the part
/// of the map they reach (at each pixel the most that any piece of them covers, so where they
/// meet or cross nothing is drawn twice), then painted through it at once.
///
/// Each piece is a band with its edges ramped over a pixel, as MapLibre's line shader ramps
/// them, its ends flat, square or round; pieces meet in round joins. Cairo computes the exact
/// area of the stroke's polygon in every pixel, scanning each edge 15 times per row; on a map of
/// many thin lines (borders, roads) that was most of the drawing.
final class LineCoverageMask {
    typealias Point = SIMD2<Double>

    /// The most pixels one mask holds (beyond, lines are stroked by Cairo).
    static let maximumPixels = 1 << 26

    private var mask: mc_coverage_mask
    private let data: UnsafeMutablePointer<UInt8>
    /// Where `data` comes from: memory shared among masks and images (zero when had), or nil
    /// for `malloc`'s.
    private let memory: PixelMemory?

    /// An empty mask over the whole pixels that `minX`…`maxY` touches (device coordinates);
    /// nil when that is empty or holds more than `maximumPixels`.
    init?(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite, minX < maxX, minY < maxY,
              abs(minX) < 1e9, abs(minY) < 1e9, abs(maxX) < 1e9, abs(maxY) < 1e9 else { return nil }
        let x0 = Int(minX.rounded(.down)), y0 = Int(minY.rounded(.down))
        let width = Int(maxX.rounded(.up)) - x0, height = Int(maxY.rounded(.up)) - y0
        guard width > 0, height > 0, width * height <= Self.maximumPixels else { return nil }
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(width)))
        guard stride >= width else { return nil }
        // A mask the size of a band of the map is drawn on memory that takes a page fault per
        // 2 MiB (and is often reused from the last mask), not one per 4 KiB.
        memory = PixelMemory(length: stride * height)
        guard let bytes = memory?.bytes ?? malloc(stride * height) else { return nil }
        data = bytes.assumingMemoryBound(to: UInt8.self)
        mask = mc_coverage_mask(data: data, stride: Int32(stride), width: Int32(width), height: Int32(height),
                                origin_x: Int32(x0), origin_y: Int32(y0), touched_x0: 0, touched_y0: 0,
                                touched_x1: 0, touched_y1: 0)
        if memory == nil { mc_coverage_mask_clear(&mask) }
    }

    deinit {
        if let memory { memory.free() } else { free(data) }
    }

    /// Adds `line` (device coordinates) stroked `halfWidth` either side with `cap` at its ends
    /// (but those `ends` leaves open or joins), or only its dashes (`dashes`: device pixels on and
    /// off in turn, from its first point); with a `blur` (device pixels, `line-blur`), its sides
    /// fading as MapLibre fades them.
    func add(_ line: [Point], halfWidth: Double, blur: Double = 0, cap: mc_line_cap, ends: mc_line_ends = MC_ENDS_CAPPED,
             dashes: [Double] = []) {
        guard line.count >= 2 else { return }
        line.withUnsafeBufferPointer { points in
            points.withMemoryRebound(to: Double.self) { coordinates in
                dashes.withUnsafeBufferPointer { pattern in
                    _ = mc_line_coverage_add(&mask, coordinates.baseAddress, points.count, halfWidth, blur, cap,
                                             Int32(bitPattern: ends.rawValue), pattern.baseAddress, Int32(pattern.count))
                }
            }
        }
    }

    /// Paints the source set on `cr` through the part of the mask drawn on, with `cr`'s
    /// operator and clip.
    func paint(on cr: OpaquePointer) throws(CairoError) {
        guard mask.touched_x0 < mask.touched_x1, mask.touched_y0 < mask.touched_y1 else { return }
        let x = Int(mask.touched_x0), y = Int(mask.touched_y0)
        let stride = Int(mask.stride)
        // A view of the rows and columns drawn on.
        let surface = cairo_image_surface_create_for_data(data + y * stride + x, CAIRO_FORMAT_A8,
                                                          mask.touched_x1 - mask.touched_x0,
                                                          mask.touched_y1 - mask.touched_y0, mask.stride)!
        defer { cairo_surface_destroy(surface) }
        try CairoError.check(cairo_surface_status(surface), "image_surface_create_for_data")
        cairo_mask_surface(cr, surface, Double(Int(mask.origin_x) + x), Double(Int(mask.origin_y) + y))
        try CairoError.check(cairo_status(cr), "mask_surface")
    }
}
