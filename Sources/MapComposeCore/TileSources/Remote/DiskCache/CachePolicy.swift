import Foundation

/// A layer's `cache:` settings: how long answers stay fresh, how much disk the layer may use.
public struct CachePolicy: Sendable, Equatable {
    /// Freshness when neither the style nor the server says: one day.
    public static let defaultTTL: Double = 86_400
    /// How long a 404 is believed: one hour.
    public static let defaultNegativeTTL: Double = 3_600
    /// Disk a layer's cache may use: 512 MiB.
    public static let defaultMaxBytes = 512 << 20

    /// False turns the disk cache off for the layer (`cache: false`).
    public var enabled: Bool
    /// The cache folder's name, instead of one derived from the source definition.
    public var id: String?
    /// Seconds answers stay fresh, whatever the server's headers say.
    public var ttl: Double?
    public var negativeTTL: Double
    public var maxBytes: Int

    public init(enabled: Bool = true, id: String? = nil, ttl: Double? = nil,
                negativeTTL: Double = CachePolicy.defaultNegativeTTL, maxBytes: Int = CachePolicy.defaultMaxBytes) {
        self.enabled = enabled
        self.id = id
        self.ttl = ttl
        self.negativeTTL = negativeTTL
        self.maxBytes = maxBytes
    }

    /// When an answer with `headers` received at `now` stops being fresh: the style's `ttl`,
    /// else `Cache-Control: max-age` (less `Age`; `no-cache` is stale at once), else `Expires`
    /// (against the server's `Date`), else `defaultTTL`. Nil when the server says `no-store`
    /// and the style sets no `ttl`.
    public func expiry(headers: [String: String], now: Date) -> Date? {
        if let ttl { return now.addingTimeInterval(ttl) }
        let directives = (headers["cache-control"] ?? "").lowercased().split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if directives.contains("no-store") { return nil }
        if directives.contains("no-cache") { return now }
        if let maxAge = directives.first(where: { $0.hasPrefix("max-age=") }).flatMap({ Double($0.dropFirst(8)) }) {
            let age = headers["age"].flatMap(Double.init) ?? 0
            return now.addingTimeInterval(max(0, maxAge - age))
        }
        if let expires = headers["expires"] {
            guard let date = HTTPDate.parse(expires) else { return now }  // "0" or garbage: already expired
            let serverNow = headers["date"].flatMap(HTTPDate.parse) ?? now
            return now.addingTimeInterval(date.timeIntervalSince(serverNow))
        }
        return now.addingTimeInterval(Self.defaultTTL)
    }
}
