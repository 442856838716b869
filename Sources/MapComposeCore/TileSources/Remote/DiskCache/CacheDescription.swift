import Foundation

/// What a cache folder holds, written beside its entries as `cache.json` so `mapcompose cache`
/// can name it: the folder's id, the layer that filled it, its source (secrets never resolved)
/// and its size cap. The file is also the folder's mark: `mapcompose cache` touches no folder
/// without one (see `DiskTileCache.descriptions`).
public struct CacheDescription: Codable, Sendable, Equatable {
    public static let fileName = "cache.json"

    /// The format this version writes in `format`.
    public static let currentFormat = "mapcompose-cache/1"

    /// `currentFormat`; absent in the files of earlier versions.
    public var format: String?

    /// The folder's name.
    public var id: String
    /// The id of the style layer that filled it.
    public var layer: String
    /// The source definition, as written (environment references unresolved).
    public var source: String
    public var maxBytes: Int

    public init(id: String, layer: String, source: String, maxBytes: Int) {
        self.id = id
        self.layer = layer
        self.source = source
        self.maxBytes = maxBytes
        format = Self.currentFormat
    }

    /// The description in a `cache.json`, or nil when the data is not one this version knows
    /// (another program's file, or a later format).
    static func marked(_ data: Data) -> CacheDescription? {
        guard let description = try? JSONDecoder().decode(CacheDescription.self, from: data),
              description.format == nil || description.format == currentFormat else { return nil }
        return description
    }

    /// A folder name for `layer`'s cache of `identity`: the layer id made file-safe, then a
    /// fingerprint of the source definition, so two definitions never share a folder.
    public static func derivedID(layer: String, identity: String) -> String {
        let safe = layer.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "-" }
        let slug = String(String(safe).prefix(40))
        return "\(slug.isEmpty ? "layer" : slug)-\(ContentDigest.hex(of: Data(identity.utf8)))"
    }

    /// True when `id` can name a folder: letters, digits, `-`, `_` and `.`, not starting with a dot.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 100 && !id.hasPrefix(".")
            && id.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) }
    }
}
