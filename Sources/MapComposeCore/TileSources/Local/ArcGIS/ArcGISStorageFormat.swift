/// How an ArcGIS cache stores its tiles (`CacheStorageInfo/StorageFormat` in conf.xml).
public enum ArcGISStorageFormat: String, Sendable, CaseIterable {
    /// One file per tile: `_alllayers/L{level}/R{row}/C{col}.{png|jpg}`.
    case exploded = "esriMapCacheStorageModeExploded"
    /// 128×128 tiles per `.bundle`, with a separate `.bundlx` index (ArcGIS 10.0–10.2).
    case compact = "esriMapCacheStorageModeCompact"
    /// 128×128 tiles per `.bundle` holding its own index (ArcGIS 10.3 and later).
    case compactV2 = "esriMapCacheStorageModeCompactV2"

    /// A short name for reports.
    public var label: String {
        switch self {
        case .exploded: return "exploded"
        case .compact: return "compact v1"
        case .compactV2: return "compact v2"
        }
    }
}
