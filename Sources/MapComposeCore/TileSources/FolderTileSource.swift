import Foundation

/// XYZ or TMS tiles stored as files under a folder, addressed by a path template.
public struct FolderTileSource: TileSource {
    public let info: TileSourceInfo
    let root: URL
    let template: TilePathTemplate
    let tms: Bool

    public init(spec: XYZSourceSpec) {
        root = spec.root
        template = spec.template
        tms = spec.tms
        let matrix = TileMatrix.webMercator(tileSize: spec.tileSize)
        info = TileSourceInfo(
            identity: "xyz:\(spec.root.standardizedFileURL.path)/\(spec.template.text)\(spec.tms ? "#tms" : "")@\(matrix.identity)",
            matrix: matrix, nativeZoom: spec.nativeZoom, bounds: spec.bounds)
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        await TileFileReader.perform { readNow(coord) }
    }

    public var localReader: LocalReader? {
        { coord, _ in readNow(coord) }
    }

    /// Reads the tile file at `coord`, blocking the caller.
    func readNow(_ coord: TileCoord) -> TileFetch {
        let origin = root.appendingPathComponent(template.expand(coord, tms: tms)).path
        switch TileFileReader.readNow(origin) {
        case .data(let data): return TileFetch(.found(.encoded(data)), origin: origin)
        case .absent: return TileFetch(.missing(.absent), origin: origin)
        case .failed(let reason): return TileFetch(.missing(.readFailed(reason)), origin: origin)
        }
    }

    /// The numeric level folders present when the template starts with `{z}/`, if any.
    public static func levelsPresent(root: URL, template: TilePathTemplate) -> ClosedRange<Int>? {
        guard template.text.hasPrefix("{z}/"),
              let names = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return nil }
        let levels = names.compactMap(Int.init).filter { (0...TileMatrix.maxLevel).contains($0) }
        guard let low = levels.min(), let high = levels.max() else { return nil }
        return low...high
    }
}
