import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// A GeoJSON label's box, which keeps labels apart and decides which tiles draw it, is measured
/// by the same engine that draws it: every pixel the label paints lies inside its box, in every
/// script, however far its marks reach above or below the line.
@Suite struct LabelInkBoxTests {
    @Test(arguments: TextScriptTests.samples)
    func everyPaintedPixelIsInsideTheLabelsBox(_ sample: TextScriptTests.Sample) throws {
        let json = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "\#(sample.name)"}, "#
            + #""geometry": {"type": "Point", "coordinates": [0, 0]}}]}"#
        let symbolizer = FeatureSymbolizer(fill: nil, stroke: nil, labelProperty: "name", labelSize: 14)
        let placement = LabelPlacement(features: try GeoJSONFeatures.parse(Data(json.utf8), labelProperty: "name"),
                                       symbolizer: symbolizer)
        let label = try #require(placement.placed(atScale: 1).first)
        let image = try RasterImage(width: 480, height: 100)
        let context = try DrawingContext(image)
        let (x, y) = (40.0, 50.0)
        context.text(sample.name, font: TextFont(size: symbolizer.labelSize), color: symbolizer.labelColor,
                     halo: symbolizer.labelHalo) { _ in (x + placement.textOffset, y + placement.baselineOffset) }
        try context.finish("draw a label")
        let box = placement.inkBox(of: label, atTileX: x, y: y)
        var painted = 0, outside: [(Int, Int)] = []
        for row in 0..<image.height {
            for column in 0..<image.width where image.rgba(x: column, y: row).a > 0 {
                painted += 1
                let inside = Double(column) >= box.x0.rounded(.down) && Double(column + 1) <= box.x1.rounded(.up)
                    && Double(row) >= box.y0.rounded(.down) && Double(row + 1) <= box.y1.rounded(.up)
                if !inside { outside.append((column, row)) }
            }
        }
        #expect(painted > 50, "\(sample.name) is drawn")
        #expect(outside.isEmpty, "\(sample.name): \(outside.count) pixels outside \(box), e.g. \(outside.prefix(5))")
        // Tight, too: the box is the ink and its halo, not a guess for the tallest script.
        #expect(box.y1 - box.y0 < symbolizer.labelSize * 2.2, "\(box)")
    }
}
