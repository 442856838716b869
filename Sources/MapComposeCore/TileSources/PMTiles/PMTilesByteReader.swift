import Foundation

/// Where a PMTiles archive's bytes come from: a local file, or a server answering HTTP range
/// requests.
protocol PMTilesByteReader: Sendable {
    /// The file path or URL, for messages.
    var name: String { get }
    /// The archive's size when known up front (a file), so sections can be checked against it.
    var size: UInt64? { get }
    /// Exactly the bytes of `range`, or why they cannot be had.
    func read(_ range: Range<UInt64>) async -> Result<Data, PMTilesError.Reason>
    /// `read`, blocking the calling thread (for opening the archive while a style loads).
    func readBlocking(_ range: Range<UInt64>) -> Result<Data, PMTilesError.Reason>
}

/// A PMTiles file on disk, read with positioned reads off the cooperative pool.
struct PMTilesFileReader: PMTilesByteReader {
    let file: PositionedFile

    var name: String { file.path }
    var size: UInt64? { file.size }

    /// Opens the file at `path`.
    static func open(_ path: String) -> Result<PMTilesFileReader, PMTilesError.Reason> {
        switch PositionedFile.open(path, kind: "PMTiles file") {
        case .opened(let file): return .success(PMTilesFileReader(file: file))
        case .absent: return .failure(.init("no such PMTiles file"))
        case .failed(let reason): return .failure(.init(reason))
        }
    }

    func read(_ range: Range<UInt64>) async -> Result<Data, PMTilesError.Reason> {
        await TileFileReader.perform { readBlocking(range) }
    }

    func readBlocking(_ range: Range<UInt64>) -> Result<Data, PMTilesError.Reason> {
        file.read(at: range.lowerBound, count: Int(range.count)).mapError { .init($0.description) }
    }
}

/// A PMTiles archive on a server, read by HTTP range requests through the shared client (its
/// retries, deadlines and per-host health apply) and kept in the disk cache, range by range, as
/// the server's headers say: a stale copy serves when the server cannot be reached, and the
/// cache is the only source offline.
struct PMTilesHTTPReader: PMTilesByteReader {
    let url: EnvironmentReference
    let client: TileHTTPClient
    let settings: HTTPSettings
    /// The archive's cache folder (nil: not cached) and how long answers are kept.
    let cache: CacheSpace?
    let policy: CachePolicy
    let offline: Bool

    var name: String { client.redacted(url.text) }
    var size: UInt64? { nil }

    func read(_ range: Range<UInt64>) async -> Result<Data, PMTilesError.Reason> {
        guard !range.isEmpty else { return .success(Data()) }
        let key = Self.cacheKey(range)
        let cached = await cache?.read(key)
        return await answer(range, cached: cached) {
            await client.get(url, settings: settings, headers: [Self.rangeHeader(range)])
        }
    }

    func readBlocking(_ range: Range<UInt64>) -> Result<Data, PMTilesError.Reason> {
        guard !range.isEmpty else { return .success(Data()) }
        return answerBlocking(range, cached: cache?.readNow(Self.cacheKey(range))) {
            client.getBlocking(url, settings: settings, headers: [Self.rangeHeader(range)])
        }
    }

    private static func cacheKey(_ range: Range<UInt64>) -> String { "ranges/\(range.lowerBound)-\(range.upperBound)" }

    private static func rangeHeader(_ range: Range<UInt64>) -> (String, String) {
        ("Range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)")
    }

    /// The cached bytes when fresh (or offline); else the server's, kept; else the stale copy.
    private func answer(_ range: Range<UInt64>, cached: CacheEntry?,
                        fetch: () async -> Result<HTTPAnswer, HTTPFailure>) async -> Result<Data, PMTilesError.Reason> {
        if let early = fromCache(range, cached) { return early }
        return settle(range, cached: cached, await fetch())
    }

    private func answerBlocking(_ range: Range<UInt64>, cached: CacheEntry?,
                                fetch: () -> Result<HTTPAnswer, HTTPFailure>) -> Result<Data, PMTilesError.Reason> {
        if let early = fromCache(range, cached) { return early }
        return settle(range, cached: cached, fetch())
    }

    /// An answer without asking the server: a fresh cached copy, or, offline, the copy or a failure.
    private func fromCache(_ range: Range<UInt64>, _ cached: CacheEntry?) -> Result<Data, PMTilesError.Reason>? {
        if let cached, cached.body.count == range.count, !cached.isNegative, cached.isFresh(at: Date()) || offline {
            return .success(cached.body)
        }
        return offline ? .failure(.init("bytes \(range.lowerBound)…\(range.upperBound - 1) are not in the disk cache (offline)")) : nil
    }

    /// The bytes of `range` in the server's answer (kept in the cache), or the stale copy when
    /// the server gave none.
    private func settle(_ range: Range<UInt64>, cached: CacheEntry?,
                        _ result: Result<HTTPAnswer, HTTPFailure>) -> Result<Data, PMTilesError.Reason> {
        let bytes = bytes(range, from: result)
        switch bytes {
        case .success(let data):
            if let cache, case .success(let answer) = result,
               let expires = policy.expiry(headers: answer.headers, now: Date()) {
                cache.write(Self.cacheKey(range), CacheEntry(metadata: .init(status: 200, expires: expires.timeIntervalSince1970,
                                                                             etag: answer.headers["etag"]), body: data))
            }
            return bytes
        case .failure:
            if let cached, cached.body.count == range.count, !cached.isNegative { return .success(cached.body) }
            return bytes
        }
    }

    /// The bytes of `range` in the server's answer to a range request.
    private func bytes(_ range: Range<UInt64>, from result: Result<HTTPAnswer, HTTPFailure>) -> Result<Data, PMTilesError.Reason> {
        let span = "bytes \(range.lowerBound)…\(range.upperBound - 1)"
        switch result {
        case .failure(let failure):
            return .failure(.init("\(span): \(failure)"))
        case .success(let answer) where answer.status == 206:
            guard answer.body.count == range.count else {
                return .failure(.init("\(span): the server sent \(answer.body.count) bytes"))
            }
            return .success(answer.body)
        case .success(let answer) where answer.status == 200:
            // A server that ignores ranges sends the whole archive (up to the client's body limit).
            guard UInt64(answer.body.count) >= range.upperBound else {
                return .failure(.init("the server ignores range requests and sent \(answer.body.count) bytes"))
            }
            return .success(answer.body.subdata(in: Int(range.lowerBound)..<Int(range.upperBound)))
        case .success(let answer):
            return .failure(.init("\(span): HTTP \(answer.status)"))
        }
    }
}
