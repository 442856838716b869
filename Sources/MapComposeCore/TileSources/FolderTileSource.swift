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
        info = TileSourceInfo(nativeZoom: spec.nativeZoom, bounds: spec.bounds)
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        let file = root.appendingPathComponent(template.expand(coord, tms: tms))
        let origin = file.path
        guard FileManager.default.fileExists(atPath: origin) else {
            return TileFetch(.missing(.absent), origin: origin)
        }
        do {
            return TileFetch(.found(.encoded(try Data(contentsOf: file))), origin: origin)
        } catch {
            return TileFetch(.missing(.readFailed((error as NSError).localizedDescription)), origin: origin)
        }
    }

    /// The numeric level folders present when the template starts with `{z}/`, if any.
    public static func levelsPresent(root: URL, template: TilePathTemplate) -> ClosedRange<Int>? {
        guard template.text.hasPrefix("{z}/"),
              let names = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return nil }
        let levels = names.compactMap(Int.init).filter { (0...30).contains($0) }
        guard let low = levels.min(), let high = levels.max() else { return nil }
        return low...high
    }
}
