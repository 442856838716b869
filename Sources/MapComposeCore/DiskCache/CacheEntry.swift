import Foundation

/// One cached answer: what the server said about it, and its body (empty for a remembered 404).
///
/// On disk: the line `mapcompose-cache 1`, one line of JSON metadata, then the body bytes.
public struct CacheEntry: Sendable, Equatable {
    /// What the server said about the answer.
    public struct Metadata: Codable, Sendable, Equatable {
        /// 200 for a tile, or the status of a remembered miss (404, 410, 204).
        public var status: Int
        /// Seconds since 1970 after which the entry must be revalidated.
        public var expires: Double
        public var etag: String?
        public var lastModified: String?
        public var contentType: String?

        public init(status: Int, expires: Double, etag: String? = nil, lastModified: String? = nil, contentType: String? = nil) {
            self.status = status
            self.expires = expires
            self.etag = etag
            self.lastModified = lastModified
            self.contentType = contentType
        }
    }

    public var metadata: Metadata
    public var body: Data

    public init(metadata: Metadata, body: Data) {
        self.metadata = metadata
        self.body = body
    }

    /// A remembered miss rather than a tile.
    public var isNegative: Bool { metadata.status != 200 }

    public func isFresh(at now: Date) -> Bool { metadata.expires > now.timeIntervalSince1970 }

    static let magic = Data("mapcompose-cache 1\n".utf8)

    /// The bytes written to disk.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var data = Self.magic
        data.append((try? encoder.encode(metadata)) ?? Data("{}".utf8))
        data.append(0x0A)
        data.append(body)
        return data
    }

    /// Reads bytes written by `encoded()`; nil for anything else (a torn or foreign file).
    public init?(decoding data: Data) {
        guard data.starts(with: Self.magic) else { return nil }
        let rest = data.dropFirst(Self.magic.count)
        guard let newline = rest.firstIndex(of: 0x0A),
              let metadata = try? JSONDecoder().decode(Metadata.self, from: rest[rest.startIndex..<newline]) else { return nil }
        self.metadata = metadata
        body = Data(rest[rest.index(after: newline)...])
    }
}
