import Foundation

/// Why two PNG files compared row by row could not be compared to the end.
public enum StreamedDiffError: Error, CustomStringConvertible {
    /// The first (0) or second (1) file failed to decode.
    case unreadable(image: Int, TileDecodeError)
    case sizesDiffer(first: (width: Int, height: Int), second: (width: Int, height: Int))
    /// The diff image's rows could not be encoded or written.
    case diffImage(any Error)

    public var description: String {
        switch self {
        case .unreadable(_, let error): return "\(error)"
        case .sizesDiffer(let a, let b): return "sizes differ: \(a.width)x\(a.height) vs \(b.width)x\(b.height)"
        case .diffImage(let error): return "\(error)"
        }
    }
}

extension ImageDiff {
    /// About how many pixels of each image a streamed comparison holds at once (16 MB each).
    public static let streamedPixelsPerBand = 1 << 22

    /// Compares two PNG files as `compare` does (the same counts, the same diff image), decoding
    /// them a band of rows at a time: memory holds a band of each image, the two rows above
    /// and below it that pixelmatch's anti-aliasing test reads, and a band of the diff image,
    /// whatever the images' height. `diffRows`, when given, receives the diff image's rows in
    /// order, a band at a time (whole rows of straight RGBA words).
    public static func compare(_ first: PNGRowReader, _ second: PNGRowReader, threshold: Double = 0.1,
                               includeAntialiasing: Bool = false, pixelsPerBand: Int = streamedPixelsPerBand,
                               diffRows: ((UnsafeBufferPointer<UInt32>) throws -> Void)? = nil) throws(StreamedDiffError) -> ImageDiffResult {
        guard first.width == second.width, first.height == second.height else {
            throw .sizesDiffer(first: (first.width, first.height), second: (second.width, second.height))
        }
        precondition(threshold.isFinite && (0...1).contains(threshold), "threshold outside 0…1")
        let w = first.width, h = first.height
        if let a = first.wholeImage, let b = second.wholeImage {
            return try compareWhole(a, b, threshold: threshold, includeAntialiasing: includeAntialiasing,
                                    rowsPerBand: max(1, pixelsPerBand / max(1, w)), diffRows: diffRows)
        }
        let maxDelta = maxYIQDelta * threshold * threshold
        // Rows pixelmatch's anti-aliasing test reads beyond the pixel's own: a neighbour's neighbours.
        let reach = 2
        let bandRows = max(RowBands.minimumRows, min(h, pixelsPerBand / max(1, w)))
        let windowRows = bandRows + 2 * reach
        let windows = [UnsafeMutableBufferPointer<UInt32>.allocate(capacity: windowRows * w),
                       UnsafeMutableBufferPointer<UInt32>.allocate(capacity: windowRows * w)]
        let marks = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: diffRows == nil ? 0 : bandRows * w)
        let diffBand = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: diffRows == nil ? 0 : bandRows * w)
        defer {
            windows.forEach { $0.deallocate() }
            marks.deallocate()
            diffBand.deallocate()
        }
        let readers = [first, second]
        // The window holds rows `loaded` of both images, from its start.
        var loaded = 0..<0
        var differing = 0, antialiased = 0
        var start = 0
        while start < h {
            let end = min(h, start + bandRows)
            // Rows still needed move to the window's start; then the rows below the band are read.
            let keep = max(0, start - reach)..<loaded.upperBound
            if keep.lowerBound > loaded.lowerBound, !keep.isEmpty {
                for window in windows {
                    memmove(window.baseAddress!, window.baseAddress! + (keep.lowerBound - loaded.lowerBound) * w,
                            keep.count * w * MemoryLayout<UInt32>.stride)
                }
            }
            loaded = keep.lowerBound..<keep.upperBound
            let needed = min(h, end + reach)
            if needed > loaded.upperBound {
                let count = needed - loaded.upperBound, offset = loaded.count * w
                try ConcurrentWork.run(2) { (image: Int) throws(StreamedDiffError) in
                    do throws(TileDecodeError) {
                        try readers[image].read(count, into: windows[image].baseAddress! + offset)
                    } catch {
                        throw .unreadable(image: image, error)
                    }
                }
                loaded = loaded.lowerBound..<needed
            }
            let pixels = windows.map {
                Pixels(words: UnsafeBufferPointer($0), width: w, height: h, firstRow: loaded.lowerBound)
            }
            if diffRows != nil { marks.update(repeating: 0) }
            let bands = RowBands(rows: end - start)
            var counts = [(differing: Int, antialiased: Int)](repeating: (0, 0), count: bands.count)
            counts.withUnsafeMutableBufferPointer { counts in
                bands.forEachConcurrently { band, rows in
                    counts[band] = compareRows(rows.lowerBound + start..<rows.upperBound + start, pixels[0], pixels[1],
                                               maxDelta: maxDelta, includeAntialiasing: includeAntialiasing,
                                               marks: diffRows == nil ? nil : marks, marksFirstRow: start)
                }
            }
            differing += counts.reduce(0) { $0 + $1.differing }
            antialiased += counts.reduce(0) { $0 + $1.antialiased }
            if let diffRows {
                let count = (end - start) * w, offset = (start - loaded.lowerBound) * w
                drawDiff(UnsafeBufferPointer(rebasing: windows[0][offset..<offset + count]),
                         marks: UnsafeBufferPointer(rebasing: marks[0..<count]),
                         into: UnsafeMutableBufferPointer(rebasing: diffBand[0..<count]))
                do {
                    try diffRows(UnsafeBufferPointer(rebasing: diffBand[0..<count]))
                } catch {
                    throw .diffImage(error)
                }
            }
            start = end
        }
        return ImageDiffResult(width: w, height: h, differingPixels: differing, antialiasedPixels: antialiased,
                               diffImage: nil)
    }

    /// `compare` for two images both readers decoded whole: compared in place, as `compare` of
    /// two images does, with the diff image handed to `diffRows` in bands of `rowsPerBand` rows.
    private static func compareWhole(_ a: RGBAImage, _ b: RGBAImage, threshold: Double, includeAntialiasing: Bool,
                                     rowsPerBand: Int,
                                     diffRows: ((UnsafeBufferPointer<UInt32>) throws -> Void)?) throws(StreamedDiffError) -> ImageDiffResult {
        let result: ImageDiffResult
        do {
            result = try compare(a, b, threshold: threshold, includeAntialiasing: includeAntialiasing, makeDiffImage: diffRows != nil)
        } catch {
            // Not met: the caller checked both sizes and the threshold.
            throw .sizesDiffer(first: (a.width, a.height), second: (b.width, b.height))
        }
        if let diffRows, let image = result.diffImage {
            do {
                try image.pixels.withUnsafeBufferPointer { pixels in
                    for start in stride(from: 0, to: image.height, by: rowsPerBand) {
                        let rows = start..<min(image.height, start + rowsPerBand)
                        try diffRows(UnsafeBufferPointer(rebasing: pixels[rows.lowerBound * image.width..<rows.upperBound * image.width]))
                    }
                }
            } catch {
                throw .diffImage(error)
            }
        }
        return ImageDiffResult(width: result.width, height: result.height, differingPixels: result.differingPixels,
                               antialiasedPixels: result.antialiasedPixels, diffImage: nil)
    }
}
