import Foundation

/// Draws overlays onto a map in device pixels: positions through `Viewport.devicePoint`, line
/// widths, marker and text sizes in CSS pixels times the viewport's scale. Shapes are drawn in
/// the copy of the world nearest the map's center (and in the copies beside it that show),
/// clipped to a margin around the output.
struct OverlayPainter {
    typealias Point = DeviceClipper.Point

    let viewport: Viewport
    /// Lines and rings are simplified to what the pixels can show (off only to test that).
    var simplifies = true

    func paint(_ overlays: [Overlay], onto context: DrawingContext) {
        for overlay in overlays {
            switch overlay {
            case .marker(let marker): paint(marker, context)
            case .path(let path): paint(path, context)
            case .polygon(let polygon): paintArea(polygon.rings, geodesic: polygon.geodesic, fill: polygon.fill,
                                                  stroke: polygon.stroke, context)
            case .circle(let circle): paintArea([circle.ring(count: ringCount(circle))], geodesic: false,
                                                fill: circle.fill, stroke: circle.stroke, context)
            case .text(let text): paint(text, context)
            }
        }
    }

    private var scale: Double { viewport.scale }

    /// The clip rectangle for shapes reaching `reach` CSS pixels beyond their outline.
    private func clipper(reach: Double) -> DeviceClipper {
        DeviceClipper(width: viewport.deviceWidth, height: viewport.deviceHeight, margin: (reach + 16) * scale)
    }

    /// Width of the world in device pixels.
    private var worldWidth: Double { WebMercator.worldSize(atZoom: viewport.deviceZoom) }

    /// Outlines (unwrapped longitudes) in device pixels, in the world copy nearest the center,
    /// simplified to what the pixels can show (`PathSimplifier`), and the horizontal shifts (in
    /// device pixels) of every copy that reaches the output.
    private func project(_ outlines: [[LonLat]], reach: Double) -> (outlines: [[Point]], shifts: [Double]) {
        let world = 2 * WebMercator.originShift
        var west = Double.infinity, east = -Double.infinity
        for outline in outlines {
            for point in outline {
                west = min(west, point.lon)
                east = max(east, point.lon)
            }
        }
        guard west <= east else { return ([], []) }
        let middle = (WebMercator.meters(from: LonLat(lon: west, lat: 0)).x + WebMercator.meters(from: LonLat(lon: east, lat: 0)).x) / 2
        let shift = ((viewport.centerMeters.x - middle) / world).rounded() * world
        let points = outlines.map { outline in
            let line = outline.map { point in
                let m = WebMercator.meters(from: point)
                return viewport.devicePoint(x: m.x + shift, y: m.y)
            }
            return simplifies ? PathSimplifier.simplified(line) : line
        }
        var left = Double.infinity, right = -Double.infinity
        for outline in points {
            for point in outline {
                left = min(left, point.x)
                right = max(right, point.x)
            }
        }
        let margin = (reach + 16) * scale, width = Double(viewport.deviceWidth), w = worldWidth
        let shifts = [0.0, -w, w, -2 * w, 2 * w].filter { right + $0 >= -margin && left + $0 <= width + margin }
        return (points, shifts)
    }

    /// Fills in geodesic steps to within a quarter of a device pixel.
    private var densifier: GeodesicDensifier { GeodesicDensifier(zoom: viewport.deviceZoom) }

    private func ringCount(_ circle: CircleOverlay) -> Int {
        let metersPerPixel = viewport.resolution * max(cos(circle.center.lat * .pi / 180), 0.01)
        let circumference = 2 * Double.pi * circle.radius / metersPerPixel
        return circumference.isFinite ? min(max(Int(circumference / 3), 64), 4096) : 64
    }

    private func paint(_ path: PathOverlay, _ context: DrawingContext) {
        let stroke = path.stroke
        guard stroke.width > 0, stroke.color.a > 0 else { return }
        let outline = OverlayGeometry.vertices(path.points, geodesic: path.geodesic, densifier: densifier)
        let (projected, shifts) = project([outline], reach: stroke.width)
        let clip = clipper(reach: stroke.width)
        for shift in shifts {
            for piece in clip.clip(line: projected[0].map { ($0.x + shift, $0.y) }) {
                trace(piece, context)
            }
        }
        context.stroke(stroke.color, width: stroke.width * scale)
    }

    private func paintArea(_ rings: [[LonLat]], geodesic: Bool, fill: RGBA?, stroke: StrokeStyle?,
                           _ context: DrawingContext) {
        let densifier = self.densifier
        let outlines = rings.map { OverlayGeometry.vertices($0, geodesic: geodesic, closed: true, densifier: densifier) }
        let reach = stroke?.width ?? 0
        let (projected, shifts) = project(outlines, reach: reach)
        let clip = clipper(reach: reach)
        for shift in shifts {
            for ring in projected {
                let clipped = clip.clip(ring: ring.map { ($0.x + shift, $0.y) })
                guard clipped.count >= 3 else { continue }
                trace(clipped, context)
                context.closePath()
            }
        }
        if let fill, fill.a > 0 { context.fill(fill, preserve: true) }
        if let stroke, stroke.width > 0, stroke.color.a > 0 {
            context.stroke(stroke.color, width: stroke.width * scale)
        } else {
            context.newPath()
        }
    }

    private func trace(_ points: [Point], _ context: DrawingContext) {
        guard let first = points.first else { return }
        context.moveTo(first.x, first.y)
        for point in points.dropFirst() { context.lineTo(point.x, point.y) }
    }

    /// The device point of a marker or text, nil when it is too far outside to show.
    private func anchor(_ position: LonLat, reach: Double) -> Point? {
        let point = viewport.devicePoint(position)
        return clipper(reach: reach).contains(point) ? point : nil
    }

    private func paint(_ marker: MarkerOverlay, _ context: DrawingContext) {
        guard let p = anchor(marker.position, reach: marker.symbol.reach + 200) else { return }
        var labelInside = false
        switch marker.symbol {
        case .pin(let size):
            let (w, h) = size.pin
            let r = w / 2 * scale, d = (h * scale) - r
            let cx = p.x, cy = p.y - d
            let alpha = acos(r / d)
            context.moveTo(p.x, p.y)
            context.arc(cx, cy, radius: r, from: .pi / 2 + alpha, to: .pi / 2 - alpha + 2 * .pi)
            context.closePath()
            context.fill(marker.color, preserve: true)
            context.stroke(marker.color.darkened(by: 0.35), width: 1 * scale)
            if let label = marker.label, label.count <= 3 {
                labelInside = true
                context.text(label, font: TextFont(size: w * 0.55 * scale, bold: true),
                             color: marker.color.contrastingText) { extents in
                    (cx - extents.width / 2, cy + extents.inkHeight / 2)
                }
            } else {
                context.circle(cx, cy, radius: r * 0.38)
                context.fill(marker.color.contrastingText)
            }
        case .dot(let size):
            context.circle(p.x, p.y, radius: size.dot / 2 * scale)
            context.fill(marker.color, preserve: true)
            context.stroke(.white, width: 1.5 * scale)
        case .icon(let icon):
            context.draw(icon.image, x: p.x - icon.anchorX * scale, y: p.y - icon.anchorY * scale, scale: scale, padEdges: false)
        }
        if let label = marker.label, !labelInside {
            let size = 12 * scale
            let top = p.y - marker.symbol.reach * scale
            let x = p.x + (marker.symbol.reach / 2 + 3) * scale
            let y = marker.symbol.isPin ? top + size : p.y + size * 0.35
            context.text(label, font: TextFont(size: size, bold: true), color: RGBA(r: 34, g: 34, b: 34),
                         halo: .white, haloWidth: 3 * scale) { _ in (x, y) }
        }
    }

    private func paint(_ text: TextOverlay, _ context: DrawingContext) {
        guard let p = anchor(text.position, reach: text.size * Double(text.text.count)) else { return }
        context.text(text.text, font: Self.font(of: text, scale: scale), color: text.color,
                     halo: text.halo, haloWidth: max(text.size / 5, 2) * scale) { extents in
            (p.x - extents.width / 2, p.y + extents.inkHeight / 2)
        }
    }

    /// The font of a text overlay at `scale` device pixels per CSS pixel.
    static func font(of text: TextOverlay, scale: Double) -> TextFont {
        TextFont(size: text.size * scale)
    }
}
