import Foundation

/// A small world in the layout `mapcompose basemap build` reads (matplotlib basemap's GSHHG
/// files and places.geojson): a square island at 10–20° E, 0–10° N with a lake (14–16° E,
/// 4–6° N) holding an islet (14.8–15.2° E, 4.8–5.2° N), a river, a border and a region
/// border across the island, and two places.
public enum SampleWorld {
    static func square(_ west: Double, _ south: Double, _ east: Double, _ north: Double) -> [(Double, Double)] {
        [(west, south), (east, south), (east, north), (west, north), (west, south)]
    }

    /// Writes `NAME_f.dat` and `NAMEmeta_f.dat` holding `shapes` (level, points).
    public static func write(_ name: String, _ shapes: [(Int, [(Double, Double)])], to folder: URL) throws {
        var data = Data(), meta = ""
        for (index, (level, points)) in shapes.enumerated() {
            let offset = data.count
            for (lon, lat) in points {
                withUnsafeBytes(of: Float(lon).bitPattern.littleEndian) { data.append(contentsOf: $0) }
                withUnsafeBytes(of: Float(lat).bitPattern.littleEndian) { data.append(contentsOf: $0) }
            }
            let south = points.map(\.1).min()!, north = points.map(\.1).max()!
            meta += "\(level) \(level < 0 ? -1 : 1000) \(points.count) \(south) \(north) \(offset) \(points.count * 8) \(index)\n"
        }
        try data.write(to: folder.appendingPathComponent("\(name)_f.dat"))
        try meta.write(to: folder.appendingPathComponent("\(name)meta_f.dat"), atomically: true, encoding: .utf8)
    }

    public static let places = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","geometry":{"type":"Point","coordinates":[12,2]},"properties":{"kind":"locality","kind_detail":"city","name":"東京","name:en":"Tokyo","script":"Han","population":9000000,"population_rank":14,"min_zoom":3}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[18,8]},"properties":{"kind":"locality","kind_detail":"village","name":"Deepville","name:en":"Deepville","population":600,"population_rank":1,"min_zoom":12}}
        ]}
        """

    /// Writes the whole sample into `folder`.
    public static func write(to folder: URL) throws {
        try write("gshhs", [(1, square(10, 0, 20, 10)), (2, square(14, 4, 16, 6)), (3, square(14.8, 4.8, 15.2, 5.2))], to: folder)
        try write("rivers", [(-1, [(11, 9), (12, 7), (13, 5)])], to: folder)
        try write("countries", [(-1, [(17, 0), (17, 10)])], to: folder)
        try write("states", [(-1, [(10, 3), (17, 3)])], to: folder)
        try places.write(to: folder.appendingPathComponent("places.geojson"), atomically: true, encoding: .utf8)
    }

    /// The sample in a new temporary folder.
    public static func sources() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try write(to: folder.url)
        return folder
    }
}
