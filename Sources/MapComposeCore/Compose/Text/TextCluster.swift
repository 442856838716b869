import CPangoLoader

/// A cluster of a shaped line: the glyphs Pango shaped from the same characters (a letter with
/// its marks, an Indic conjunct, an Arabic letter in its joined form), which are drawn together.
/// It is the smallest piece a line is cut into when its pieces are set apart (along a curve).
struct TextCluster: Equatable, Sendable {
    /// The run holding it (its index in `TextLine.forEachRun`'s order) and its glyphs there.
    let run: Int
    let glyphs: Range<Int>
    /// Its left end and its advance, in pixels from the line's left end.
    let x: Double
    let width: Double

    /// The middle of its advance, in pixels from the line's left end.
    var center: Double { x + width / 2 }
}

extension TextLine {
    /// The clusters of a one-line `TextLine`, left to right; each cluster's glyphs are one
    /// run's consecutive glyphs that share their first character.
    var clusters: [TextCluster] {
        TextEngine.locked {
            var result: [TextCluster] = []
            var index = 0
            forEachRun { run, left in
                defer { index += 1 }
                let glyphs = run.pointee.glyphs.pointee
                let count = Int(glyphs.num_glyphs)
                var x = left, start = 0
                while start < count {
                    var end = start, width = 0.0
                    repeat {
                        width += Double(glyphs.glyphs[end].geometry.width) / Double(MC_PANGO_SCALE)
                        end += 1
                    } while end < count && glyphs.log_clusters[end] == glyphs.log_clusters[start]
                    result.append(TextCluster(run: index, glyphs: start..<end, x: x, width: width))
                    x += width
                    start = end
                }
            }
            return result
        }
    }
}
