import Foundation

/// A document a remote source reads while its style loads (a TileJSON, WMTS capabilities),
/// through the disk cache: kept as the server's headers say, used stale when the server cannot
/// be reached, and the only source when offline.
public enum RemoteDocument {
    /// Why no document could be had.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// No server answered (or none was asked, offline); false when one answered with an error.
        public var unreachable = false
    }

    /// The document at `url`, cached in a folder of its own named after `options.layer` and `kind`.
    public static func fetch(_ url: EnvironmentReference, kind: String, options: RemoteOptions,
                             environment: RemoteEnvironment) -> Result<Data, Failure> {
        let identity = "\(kind):\(url.text)"
        let space: CacheSpace? = options.cache.enabled ? environment.cache.map {
            let id = CacheDescription.derivedID(layer: options.layer, identity: identity)
            return $0.space(for: CacheDescription(id: id, layer: options.layer, source: identity, maxBytes: options.cache.maxBytes))
        } : nil
        let now = Date()
        let cached = space?.readNow(kind)
        if let cached, !cached.isNegative, cached.isFresh(at: now) || environment.offline { return .success(cached.body) }
        if environment.offline { return .failure(Failure(description: "not in the disk cache (offline): \(url.text)", unreachable: true)) }
        switch environment.client.getBlocking(url, settings: options.http) {
        case .success(let answer) where answer.status == 200 && !answer.body.isEmpty:
            if let space, let expires = options.cache.expiry(headers: answer.headers, now: Date()) {
                space.write(kind, CacheEntry(metadata: .init(status: 200, expires: expires.timeIntervalSince1970,
                                                             etag: answer.headers["etag"], contentType: answer.mediaType),
                                             body: answer.body))
            }
            return .success(answer.body)
        case .success(let answer):
            if let cached, !cached.isNegative { return .success(cached.body) }
            let detail = ServiceExceptionText.message(in: answer.body).map { ": \(environment.client.redacted($0))" } ?? ""
            return .failure(Failure(description: "HTTP \(answer.status)\(detail) from \(url.text)"))
        case .failure(let failure):
            if let cached, !cached.isNegative { return .success(cached.body) }
            return .failure(Failure(description: "\(environment.client.redacted("\(failure)")) from \(url.text)", unreachable: true))
        }
    }
}
