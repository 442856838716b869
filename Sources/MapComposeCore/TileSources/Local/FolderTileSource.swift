import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// XYZ or TMS tiles stored as files under a folder, addressed by a path template.
public struct FolderTileSource: TileSource {
    public let info: TileSourceInfo
    let root: URL
    /// `root`'s path ending in one slash: a tile's path is this and the expanded template (string
    /// concatenation, where appending to a URL costs microseconds per tile).
    let rootPrefix: String
    let template: TilePathTemplate
    let tms: Bool

    public init(spec: XYZSourceSpec) {
        root = spec.root
        let rootPath = spec.root.path
        rootPrefix = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
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
        let origin = rootPrefix + template.expand(coord, tms: tms)
        switch TileFileReader.readNow(origin) {
        case .data(let data): return TileFetch(.found(.encoded(data)), origin: origin)
        case .absent: return TileFetch(.missing(.absent), origin: origin)
        case .failed(let reason): return TileFetch(.missing(.readFailed(reason)), origin: origin)
        }
    }

    /// The numeric level folders present when the template starts with `{z}/`, if any.
    public static func levelsPresent(root: URL, template: TilePathTemplate) -> ClosedRange<Int>? {
        guard template.text.hasPrefix("{z}/"), let folder = opendir(root.path) else { return nil }
        defer { closedir(folder) }
        // readdir rather than FileManager: this runs for every folder layer of every render, and
        // FileManager's listing looks up conformances at run time.
        var low = Int.max, high = Int.min
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let level = Int(name), (0...TileMatrix.maxLevel).contains(level) else { continue }
            low = min(low, level)
            high = max(high, level)
        }
        return low <= high ? low...high : nil
    }
}
