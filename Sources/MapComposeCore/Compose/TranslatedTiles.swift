import CCairo

/// A map that is its only layer's tiles, decoded into one slab, moved by a fraction of a pixel
/// (a translated bilinear paint onto a transparent map), before the resampling is done: a PNG
/// writer resamples each row as it filters it (`ImageEncoder.png(_:compression:text:)`), and
/// the map is never made; anything else takes `resampledInPlace()`.
struct TranslatedTiles {
    /// The slab; its pixels from (`paint.columns.lowerBound + paint.columnOffset`,
    /// `paint.rowOffset`), `width` + 1 on each of `height` + 1 rows, are what the map is
    /// resampled from.
    let slab: RasterImage
    let paint: TranslatedBilinearPaint
    /// The map's size in device pixels.
    let width: Int, height: Int

    /// The map: the slab resampled in place, as a view of it. No one may read the slab as
    /// tiles afterwards.
    func resampledInPlace() throws(CairoError) -> RasterImage {
        guard paint.resampleInPlace(slab, rows: 0..<height) else {
            throw CairoError(operation: "resample tiles in place", status: CAIRO_STATUS_NO_MEMORY.rawValue)
        }
        return try slab.cellView(x: paint.columns.lowerBound + paint.columnOffset, y: paint.rowOffset, width: width,
                                 height: height, slab: nil)
    }

    /// Calls `body` with the first source pixel's bytes and the bytes between rows.
    func withSource<Result>(_ body: (UnsafePointer<UInt8>, Int) -> Result) -> Result {
        slab.withPixels { pixels, words in
            let corner = pixels.baseAddress! + paint.rowOffset * words + paint.columns.lowerBound + paint.columnOffset
            return UnsafeRawPointer(corner).withMemoryRebound(to: UInt8.self, capacity: 4) { body($0, words * 4) }
        }
    }
}
