extension RasterImage {
    /// A copy of the `width`×`height` pixels whose top-left corner is at (`x`, `y`); the part
    /// outside this image stays transparent.
    public func cropped(x: Int, y: Int, width: Int, height: Int) throws(CairoError) -> RasterImage {
        let crop = try RasterImage(width: width, height: height)
        let left = max(0, x), top = max(0, y)
        let right = min(self.width, x + width), bottom = min(self.height, y + height)
        guard right > left, bottom > top else { return crop }
        withPixels { source, sourceRow in
            crop.withMutablePixels { target, targetRow in
                for row in top..<bottom {
                    let from = row * sourceRow + left, to = (row - y) * targetRow + (left - x)
                    for column in 0..<(right - left) { target[to + column] = source[from + column] }
                }
            }
        }
        return crop
    }
}
