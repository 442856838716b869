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

    /// The document at `url`, made by `read` from its bytes, cached in a folder of its own named
    /// after `options.layer` and `kind`. Only bytes that `read` accepts are cached: a server's
    /// broken answer is reported and not kept, and a cached copy that no longer reads is dropped.
    public static func fetch<Document>(_ url: EnvironmentReference, kind: String, options: RemoteOptions,
                                       environment: RemoteEnvironment,
                                       reading read: (Data) throws(Failure) -> Document) -> Result<Document, Failure> {
        let identity = "\(kind):\(url.text)"
        let space: CacheSpace? = options.cache.enabled ? environment.cache.map {
            let id = CacheDescription.derivedID(layer: options.layer, identity: identity)
            return $0.space(for: CacheDescription(id: id, layer: options.layer, source: identity, maxBytes: options.cache.maxBytes))
        } : nil
        let now = Date()
        let entry = space?.readNow(kind).flatMap { $0.isNegative ? nil : $0 }
        /// The cached copy, read; nil (and the copy dropped) when it does not read.
        func cached() -> Document? {
            guard let entry else { return nil }
            if let document = try? read(entry.body) { return document }
            _ = space?.remove(kind)
            return nil
        }
        if let entry, entry.isFresh(at: now) || environment.offline, let document = cached() { return .success(document) }
        if environment.offline { return .failure(Failure(description: "not in the disk cache (offline): \(url.text)", unreachable: true)) }
        switch environment.client.getBlocking(url, settings: options.http) {
        case .success(let answer) where answer.status == 200 && !answer.body.isEmpty:
            let document: Document
            do {
                document = try read(answer.body)
            } catch {
                return cached().map { .success($0) } ?? .failure(error)
            }
            if let space, let expires = options.cache.expiry(headers: answer.headers, now: Date()) {
                space.write(kind, CacheEntry(metadata: .init(status: 200, expires: expires.timeIntervalSince1970,
                                                             etag: answer.headers["etag"], contentType: answer.mediaType),
                                             body: answer.body))
            }
            return .success(document)
        case .success(let answer):
            if let document = cached() { return .success(document) }
            let detail = ServiceExceptionText.message(in: answer.body).map { ": \(environment.client.redacted($0))" } ?? ""
            return .failure(Failure(description: "HTTP \(answer.status)\(detail) from \(url.text)"))
        case .failure(let failure):
            if let document = cached() { return .success(document) }
            return .failure(Failure(description: "\(environment.client.redacted("\(failure)")) from \(url.text)", unreachable: true))
        }
    }
}
