import Foundation

/// One shape of a GSHHG or WDBII file in matplotlib basemap's layout: its level (1 land,
/// 2 lake, 3 island in a lake, 5 Antarctica; −1 for rivers and borders) and its points
/// (longitude, latitude in degrees).
struct GSHHGShape {
    let level: Int
    /// Area in km² (polygons; −1 for lines).
    let area: Double
    let points: [SIMD2<Double>]
}

/// Reads basemap's GSHHG/WDBII pairs: `NAME_f.dat` holds little-endian float32 longitude,
/// latitude pairs; `NAMEmeta_f.dat` has a line per shape, `level area count south north
/// offset bytes id`, naming the shape's bytes in the data file.
enum GSHHGFile {
    /// The shapes of `name` (e.g. `gshhs`, `rivers`) at resolution `resolution` in `folder`.
    static func read(_ name: String, resolution: String = "f", in folder: URL) throws(BasemapBuildError) -> [GSHHGShape] {
        let dataURL = folder.appendingPathComponent("\(name)_\(resolution).dat")
        let metaURL = folder.appendingPathComponent("\(name)meta_\(resolution).dat")
        let data: Data, meta: String
        do {
            data = try Data(contentsOf: dataURL, options: .alwaysMapped)
            meta = try String(contentsOf: metaURL, encoding: .utf8)
        } catch {
            throw BasemapBuildError("cannot read \(dataURL.lastPathComponent) and \(metaURL.lastPathComponent) in \(folder.path): "
                                    + "\(error.localizedDescription) (run scripts/basemap/prepare_sources.py to fetch them)")
        }
        var shapes: [GSHHGShape] = []
        for (number, line) in meta.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 7, let level = Int(fields[0]), let area = Double(fields[1]), let count = Int(fields[2]),
                  let offset = Int(fields[5]), let bytes = Int(fields[6]), count > 0, offset >= 0,
                  bytes == count * 8, offset + bytes <= data.count else {
                throw BasemapBuildError("\(metaURL.lastPathComponent) line \(number + 1): not a shape of \(dataURL.lastPathComponent) "
                                        + "(expected `level area count south north offset bytes id` within the data file)")
            }
            var points = [SIMD2<Double>](repeating: .zero, count: count)
            data.withUnsafeBytes { raw in
                for index in 0..<count {
                    let at = offset + index * 8
                    let lon = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
                    let lat = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)))
                    points[index] = SIMD2(Double(lon), Double(lat))
                }
            }
            guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite && abs($0.x) <= 360 && abs($0.y) <= 90 }) else {
                throw BasemapBuildError("\(dataURL.lastPathComponent): shape on line \(number + 1) of \(metaURL.lastPathComponent) "
                                        + "has coordinates outside longitude ±360, latitude ±90")
            }
            shapes.append(GSHHGShape(level: level, area: area, points: points))
        }
        return shapes
    }
}

/// Why a basemap cannot be built: which file or input, and what to do.
public struct BasemapBuildError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
