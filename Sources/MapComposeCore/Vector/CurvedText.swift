import CCairo
import Foundation

/// A label's text set along a `LabelPath` as MapLibre sets labels along lines: shaped once as
/// one line, cut into clusters, and centred on its anchor; each cluster lies with the middle of
/// its advance on the path, at its own distance along it, turned to the segment there, and the
/// path runs through the middle of the text's height.
struct CurvedText {
    /// How text is set along a path.
    struct Rules {
        /// The most the path may turn (radians, the turns at its corners added up) within any
        /// stretch of 3/5 of the font size under the text: MapLibre's `text-max-angle` test.
        var maxAngle: Double
        /// Set text whose last cluster would lie left of its first (or, on a vertical stretch,
        /// above it) along the path reversed, so it reads left to right (`text-keep-upright`);
        /// text shaped vertically (`TextLine.isVertical`), whose last cluster would lie above its
        /// first, so it reads top to bottom.
        var keepUpright: Bool
        /// Pixels added around each cluster's box.
        var padding: Double
        /// `text-offset` in pixels, in the text's own frame: x along the line, y across it
        /// (down from upright text, so positive y sets the label below the line), the label
        /// then following the line moved that far.
        var offset: SIMD2<Double>
        /// `text-rotate` (radians, clockwise): each cluster turned by it about its own middle,
        /// on top of the line's direction there.
        var rotate: Double = 0
        /// Each cluster set upright where it falls on the line, not turned to the line
        /// (`text-rotation-alignment: viewport-glyph`).
        var uprightClusters = false
    }

    /// Each cluster with the transformation from the line's frame into device pixels.
    let clusters: [(cluster: TextCluster, transform: cairo_matrix_t)]
    /// An upright box around each cluster's logical box, padded, for the collision grid.
    let boxes: [CollisionGrid.Box]
    /// True when the text runs more up or down than across, from its first cluster's middle to
    /// its last's: where MapLibre sets text that may be written vertically top to bottom.
    let isSteep: Bool

    /// `line` centred `distance` along `path`; nil when it runs past an end of the path or the
    /// path bends too sharply under it.
    init?(_ line: TextLine, along path: LabelPath, at distance: Double, rules: Rules) {
        let extents = line.extents, width = extents.width
        guard width > 0, distance - width / 2 >= 0, distance + width / 2 <= path.length else { return nil }
        let clusters = line.clusters
        guard let first = clusters.first, let last = clusters.last else { return nil }
        var path = path, start = distance - width / 2
        let a = path.position(at: start + first.center).point, b = path.position(at: start + last.center).point
        isSteep = abs(b.y - a.y) > abs(b.x - a.x)
        if rules.keepUpright {
            let backwards = line.isVertical ? b.y < a.y || (b.y == a.y && b.x < a.x) : b.x < a.x || (b.x == a.x && b.y < a.y)
            if backwards {
                path = path.reversed()
                start = path.length - distance - width / 2
            }
        }
        // Across the line by the offset's y: set on the line moved that far to its right (down
        // from the text), so clusters stay evenly spaced round its bends; the anchor keeps its
        // share of the length.
        if rules.offset.y != 0, path.length > 0 {
            let moved = LabelPath(MapLibrePainter.offset(path.points, by: rules.offset.y))
            start *= moved.length / path.length
            path = moved
        }
        // Along it by the offset's x (in the direction the text reads).
        start += rules.offset.x
        guard start >= 0, start + width <= path.length,
              path.sharpestBend(from: start, to: start + width, window: 0.6 * line.font.size) <= rules.maxAngle
        else { return nil }
        let middle = (extents.descent - extents.ascent) / 2, height = extents.ascent + extents.descent
        var placed: [(cluster: TextCluster, transform: cairo_matrix_t)] = []
        var boxes: [CollisionGrid.Box] = []
        placed.reserveCapacity(clusters.count)
        for cluster in clusters {
            let (point, lineAngle) = path.position(at: start + cluster.center)
            let angle = (rules.uprightClusters ? 0 : lineAngle) + rules.rotate
            var transform = cairo_matrix_t()
            cairo_matrix_init_translate(&transform, point.x, point.y)
            cairo_matrix_rotate(&transform, angle)
            cairo_matrix_translate(&transform, -cluster.center, -middle)
            placed.append((cluster, transform))
            if cluster.width > 0 {
                boxes.append(MapLibrePainter.box(around: point, width: cluster.width, height: height, angle: angle,
                                                 pad: rules.padding))
            }
        }
        self.clusters = placed
        self.boxes = boxes
    }
}
