/// Draws attribution text on a light box in the bottom-right corner of the map.
struct AttributionPainter {
    let viewport: Viewport

    func paint(_ text: String, onto context: DrawingContext) {
        guard !text.isEmpty else { return }
        let scale = viewport.scale
        let size = 10 * scale, pad = 3 * scale
        guard let line = context.line(text, font: TextFont(size: size)) else { return }
        let boxWidth = line.extents.width + 2 * pad, boxHeight = size + 2 * pad
        let x = Double(viewport.deviceWidth) - boxWidth, y = Double(viewport.deviceHeight) - boxHeight
        context.rectangle(x, y, boxWidth, boxHeight)
        context.fill(RGBA(r: 255, g: 255, b: 255, a: 190))
        context.draw(line, x: x + pad, y: y + pad + size * 0.8, color: RGBA(r: 51, g: 51, b: 51))
    }
}
