import CCairo
import CResampling

/// The paint of an image at its own scale, moved by a fraction of a pixel and resampled
/// bilinearly, OVER the target at full opacity: what a map layer's tiles need at an integer
/// zoom when the view's corner falls between tile pixels. `mc_translated_bilinear_over` does it
/// with pixman's arithmetic (the same pixels) in loops made for this one case, where pixman's
/// general bilinear path recomputes the same weights at every pixel.
struct TranslatedBilinearPaint {
    /// Added to a target column to get the source column of its left samples.
    let columnOffset: Int
    /// Added to a target row to get the source row of its upper samples.
    let rowOffset: Int
    /// The weights of the right and lower samples, out of 128.
    let weightX: Int32, weightY: Int32
    /// The target columns painted.
    let columns: Range<Int>

    /// The paint of `image` with its top-left at (`x`, `y`) as Cairo would do it with
    /// `filter`, over target `columns` and `rows`; nil unless it is this case (scale 1, full
    /// opacity, bilinear, off whole pixels) and every sample falls inside `image`.
    init?(image: RasterImage, x: Double, y: Double, scale: Double, alpha: Double, filter: cairo_filter_t,
          columns: Range<Int>, rows: Range<Int>) {
        self.init(imageWidth: image.width, imageHeight: image.height, x: x, y: y, scale: scale, alpha: alpha,
                  filter: filter, columns: columns, rows: rows)
    }

    /// The same for an image of `imageWidth × imageHeight` pixels.
    init?(imageWidth: Int, imageHeight: Int, x: Double, y: Double, scale: Double, alpha: Double,
          filter: cairo_filter_t, columns: Range<Int>, rows: Range<Int>) {
        guard scale == 1, alpha >= 1, filter == CAIRO_FILTER_BILINEAR, !columns.isEmpty, !rows.isEmpty,
              abs(x) < 0x1p30, abs(y) < 0x1p30 else { return nil }
        // Cairo copies pixels (nearest) when both offsets are whole in its own 24.8 fixed point,
        // within 1/512 of a pixel.
        func wholeInCairo(_ offset: Double) -> Bool { (offset * 256).rounded(.toNearestOrEven).remainder(dividingBy: 256) == 0 }
        if wholeInCairo(x), wholeInCairo(y) { return nil }
        // Cairo hands pixman the translation in 16.16 fixed point, rounded to nearest (even on a
        // tie); pixman samples target pixel centres there, half a pixel up and left of the
        // centre, and takes the top 7 bits of the fraction as the weight.
        let fixedX = Int((-x * 65536).rounded(.toNearestOrEven)), fixedY = Int((-y * 65536).rounded(.toNearestOrEven))
        columnOffset = fixedX >> 16
        rowOffset = fixedY >> 16
        weightX = Int32((fixedX & 0xFFFF) >> 9)
        weightY = Int32((fixedY & 0xFFFF) >> 9)
        self.columns = columns
        guard columns.lowerBound + columnOffset >= 0, columns.upperBound + columnOffset < imageWidth,
              rows.lowerBound + rowOffset >= 0, rows.upperBound + rowOffset < imageHeight else { return nil }
    }

    /// Paints target rows `rows` of `target`, a view whose first row is target row
    /// `rows.lowerBound`, from `source`, a view of all of the image's rows. False (nothing
    /// painted) when the buffers for it cannot be had.
    func paint(_ source: RasterImage, onto target: RasterImage, rows: Range<Int>) -> Bool {
        source.withPixels { sourcePixels, sourceWords in
            target.withMutablePixels { targetPixels, targetWords in
                let from = sourcePixels.baseAddress! + (rows.lowerBound + rowOffset) * sourceWords
                    + columns.lowerBound + columnOffset
                let to = targetPixels.baseAddress! + columns.lowerBound
                return from.withMemoryRebound(to: UInt8.self, capacity: 4) { from in
                    to.withMemoryRebound(to: UInt8.self, capacity: 4) { to in
                        mc_translated_bilinear_over(from, sourceWords * 4, nil, to, targetWords * 4, Int32(columns.count),
                                                    Int32(rows.count), weightX, weightY, 0) == 0
                    }
                }
            }
        }
    }
}
