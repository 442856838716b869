import Foundation

/// Where an ArcGIS cache's layer lies: the folder holding conf.xml, conf.cdi and `_alllayers`,
/// found from the path a style names, which may be that folder or the cache folder above it
/// when that holds exactly one data frame.
public struct ArcGISCacheFolder: Sendable, Equatable {
    /// The layer folder (with conf.xml).
    public let layer: URL
    /// Says which folder was chosen when the path named the cache folder above it.
    public let choice: String?

    public var confXML: URL { layer.appendingPathComponent("conf.xml") }
    public var confCDI: URL { layer.appendingPathComponent("conf.cdi") }
    public var tiles: URL { layer.appendingPathComponent("_alllayers") }

    /// Finds the layer folder at or directly under `folder`.
    public init(locating folder: URL) throws(ArcGISCacheError) {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ArcGISCacheError(path: folder.path, reason: "no such folder")
        }
        if manager.fileExists(atPath: folder.appendingPathComponent("conf.xml").path) {
            layer = folder
            choice = nil
            return
        }
        let names = ((try? manager.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        let frames = names.filter { name in
            var sub: ObjCBool = false
            let candidate = folder.appendingPathComponent(name)
            return manager.fileExists(atPath: candidate.path, isDirectory: &sub) && sub.boolValue
                && manager.fileExists(atPath: candidate.appendingPathComponent("conf.xml").path)
        }
        switch frames.count {
        case 0:
            throw ArcGISCacheError(path: folder.path, reason: "no conf.xml here or in a folder directly below: "
                                   + "not an ArcGIS cache (name the layer folder holding conf.xml and _alllayers)")
        case 1:
            layer = folder.appendingPathComponent(frames[0])
            choice = "cache folder \(folder.path): drawing its one data frame '\(frames[0])'"
        default:
            throw ArcGISCacheError(path: folder.path, reason: "holds \(frames.count) data frames ("
                                   + frames.joined(separator: ", ") + "): name the one to draw in path")
        }
    }

    /// The level IDs that have a folder under `_alllayers` (`L00`, `L01`, …).
    public func levelIDsPresent() -> Set<Int> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: tiles.path)) ?? []
        return Set(names.compactMap { name -> Int? in
            guard name.count >= 2, name.first == "L" || name.first == "l" else { return nil }
            return Int(name.dropFirst())
        })
    }
}
