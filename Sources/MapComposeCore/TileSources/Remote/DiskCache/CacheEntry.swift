import Foundation

/// One cached answer: what the server said about it, and its body (empty for a remembered 404).
///
/// On disk: the line `mapcompose-cache 2`, one line of tab-separated metadata (status, expiry,
/// ETag, Last-Modified, content type), then the body bytes.
public struct CacheEntry: Sendable, Equatable {
    /// What the server said about the answer.
    public struct Metadata: Sendable, Equatable {
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

    static let magic = Data("mapcompose-cache 2\n".utf8)

    /// The bytes written to disk.
    public func encoded() -> Data {
        func field(_ text: String?) -> String {
            String((text ?? "").unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" })
        }
        let m = metadata
        let line = [String(m.status), String(m.expires), field(m.etag), field(m.lastModified), field(m.contentType)]
            .joined(separator: "\t") + "\n"
        var data = Self.magic
        data.append(contentsOf: Array(line.utf8))
        data.append(body)
        return data
    }

    /// Reads bytes written by `encoded()`; nil for anything else (a torn or foreign file).
    public init?(decoding data: Data) {
        guard data.starts(with: Self.magic) else { return nil }
        let rest = data.dropFirst(Self.magic.count)
        guard let newline = rest.firstIndex(of: 0x0A) else { return nil }
        let fields = String(decoding: rest[rest.startIndex..<newline], as: UTF8.self)
            .split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 5, let status = Int(fields[0]), (100...599).contains(status),
              let expires = Double(fields[1]), expires.isFinite else { return nil }
        func optional(_ text: String) -> String? { text.isEmpty ? nil : text }
        metadata = Metadata(status: status, expires: expires, etag: optional(fields[2]), lastModified: optional(fields[3]),
                            contentType: optional(fields[4]))
        body = Data(rest[rest.index(after: newline)...])
    }
}
