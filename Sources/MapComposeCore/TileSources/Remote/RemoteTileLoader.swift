import Foundation
import Logging

/// Fetches one remote tile through the disk cache: a fresh entry answers without a request, a
/// stale one is revalidated (`If-None-Match` / `If-Modified-Since`; a 304 refreshes it), and a
/// server that cannot be reached leaves a stale copy in use. Answers are sorted into tiles,
/// definite misses (404, 410, 204, an empty body, not an image, an exception report; 404s
/// remembered on disk for the negative TTL) and transient failures (timeouts, resets, 5xx and
/// 429 once retries are spent).
public struct RemoteTileLoader: Sendable {
    public let environment: RemoteEnvironment
    public let settings: HTTPSettings
    public let policy: CachePolicy
    /// The layer's cache folder; nil when the cache is off.
    public let space: CacheSpace?
    /// What a tile is: an image, or a vector tile (whose bytes are checked when decoded).
    public let content: Content
    private let logger = Logger(label: "mapcompose.remote")

    public enum Content: Sendable {
        case image, vectorTile
    }

    /// - Parameters:
    ///   - layer: the id of the layer, naming its cache folder.
    ///   - identity: the source's identity (no secrets), fingerprinted into the folder name.
    ///   - servers: URLs (or templates) of the servers asked; each host gets the layer's concurrency limit.
    public init(environment: RemoteEnvironment, settings: HTTPSettings, policy: CachePolicy,
                layer: String, identity: String, content: Content = .image, servers: [String] = []) {
        self.content = content
        for host in Set(servers.compactMap { URL(string: $0)?.host }) {
            environment.client.limitHost(host, to: settings.concurrency)
        }
        self.environment = environment
        self.settings = settings
        self.policy = policy
        if policy.enabled, let cache = environment.cache {
            let id = policy.id ?? CacheDescription.derivedID(layer: layer, identity: identity)
            space = cache.space(for: CacheDescription(id: id, layer: layer, source: identity, maxBytes: policy.maxBytes))
        } else {
            space = nil
        }
    }

    /// The tile at `url` (environment references unresolved), cached under `key`.
    public func load(_ url: EnvironmentReference, key: String, now: Date = Date()) async -> TileFetch {
        let origin = url.text
        let cached = await space?.read(key)
        func fromCache(_ entry: CacheEntry, note: String? = nil) -> TileFetch {
            if let note { logger.warning("\(note)", metadata: ["url": "\(origin)"]) }
            if entry.isNegative {
                return TileFetch(.missing(.notServed("HTTP \(entry.metadata.status) (remembered in the disk cache)")),
                                 origin: origin)
            }
            return TileFetch(.found(.encoded(entry.body)), origin: origin, fromDiskCache: true)
        }
        if let cached, cached.isFresh(at: now) || environment.offline { return fromCache(cached) }
        if environment.offline {
            return TileFetch(.missing(.notServed("not in the disk cache (offline)")), origin: origin)
        }
        var conditions: [(String, String)] = []
        if let cached, !cached.isNegative {
            if let etag = cached.metadata.etag { conditions.append(("If-None-Match", etag)) }
            if let modified = cached.metadata.lastModified { conditions.append(("If-Modified-Since", modified)) }
        }
        let result = await environment.client.get(url, settings: settings, headers: conditions)
        let answer: HTTPAnswer
        switch result {
        case .failure(let failure):
            let reason = environment.client.redacted("\(failure)")
            if let cached { return fromCache(cached, note: "using a stale cached copy: \(reason)") }
            return TileFetch(.missing(.readFailed(reason)), origin: origin)
        case .success(let value):
            answer = value
        }
        let received = Date()
        switch answer.status {
        case 304 where cached != nil && !cached!.isNegative:
            var entry = cached!
            entry.metadata.expires = (policy.expiry(headers: answer.headers, now: received) ?? received).timeIntervalSince1970
            if let etag = answer.headers["etag"] { entry.metadata.etag = etag }
            space?.write(key, entry)
            return fromCache(entry)
        case 200 where !answer.body.isEmpty && (content == .vectorTile ? Self.isVectorTile(answer) : Self.isImage(answer)):
            store(key, status: 200, answer: answer, at: received)
            return TileFetch(.found(.encoded(answer.body)), origin: origin)
        case 200, 203:
            let what = answer.body.isEmpty ? "an empty body"
                : serverText(answer).map { "a service exception: \($0)" }
                ?? "content type \(answer.mediaType ?? "(none)"), not \(content == .vectorTile ? "a vector tile" : "an image")"
            return TileFetch(.missing(.notServed("HTTP \(answer.status) with \(what)")), origin: origin)
        case 204, 404, 410:
            store(key, status: answer.status, answer: answer, at: received)
            return TileFetch(.missing(.notServed("HTTP \(answer.status)")), origin: origin)
        case _ where RetryPolicy.isRetryable(status: answer.status):
            let attempts = settings.retry.retries + 1
            if let cached { return fromCache(cached, note: "using a stale cached copy: HTTP \(answer.status) after \(attempts) attempts") }
            return TileFetch(.missing(.readFailed("HTTP \(answer.status) after \(attempts) attempts")), origin: origin)
        default:
            let detail = serverText(answer).map { ": \($0)" } ?? ""
            return TileFetch(.missing(.notServed("HTTP \(answer.status)\(detail)")), origin: origin)
        }
    }

    /// The exception text of a server's answer, with any secret it quotes redacted.
    private func serverText(_ answer: HTTPAnswer) -> String? {
        ServiceExceptionText.message(in: answer.body).map(environment.client.redacted)
    }

    /// Forgets the cached copy under `key`.
    public func drop(_ key: String) -> Bool {
        space?.remove(key) ?? false
    }

    private func store(_ key: String, status: Int, answer: HTTPAnswer, at now: Date) {
        guard let space else { return }
        let expires: Date?
        if status == 200 {
            expires = policy.expiry(headers: answer.headers, now: now)
        } else {
            expires = now.addingTimeInterval(policy.negativeTTL)
        }
        guard let expires else { return }
        let metadata = CacheEntry.Metadata(status: status, expires: expires.timeIntervalSince1970, etag: answer.headers["etag"],
                                           lastModified: answer.headers["last-modified"], contentType: answer.mediaType)
        space.write(key, CacheEntry(metadata: metadata, body: status == 200 ? answer.body : Data()))
    }

    /// A vector tile: anything but text (an HTML error page, an exception report).
    static func isVectorTile(_ answer: HTTPAnswer) -> Bool {
        guard let type = answer.mediaType else { return true }
        return !(type.hasPrefix("text/") || type.hasSuffix("xml") || type.hasSuffix("json") || type.hasPrefix("image/"))
    }

    /// An image by its content type, or by its first bytes when the type says nothing.
    static func isImage(_ answer: HTTPAnswer) -> Bool {
        switch answer.mediaType {
        case let type? where type.hasPrefix("image/"): return true
        case nil, "application/octet-stream", "binary/octet-stream": return TileDecoder.headerSize(answer.body) != nil
        default: return false
        }
    }
}
