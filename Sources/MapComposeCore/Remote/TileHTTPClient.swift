import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// The process's HTTP client for tiles and documents: one async-http-client per proxy route
/// (keep-alive connections reused across layers and renders), a bound on requests in flight in
/// all, and per host, and retries by the layer's `RetryPolicy`. URLs given to it may reference
/// `${NAME}` environment variables; messages and logs only ever show them unresolved.
public final class TileHTTPClient: @unchecked Sendable {
    /// Largest answer body accepted.
    public static let maxBodyBytes = 64 << 20

    private let proxies: ProxySettings
    private let environment: [String: String]
    private let lock = NSLock()
    private var clients: [ProxySettings.Server?: HTTPClient] = [:]
    private var hostLimits: [String: (limit: Int, semaphore: AsyncSemaphore)] = [:]
    private var requestCount = 0
    private let total: AsyncSemaphore
    private let logger: Logger

    /// - Parameters:
    ///   - environment: where `${NAME}` references and the proxy variables are read.
    ///   - maxInFlight: most requests in flight at once, all hosts together.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, maxInFlight: Int = 32,
                logger: Logger = Logger(label: "mapcompose.http")) {
        self.environment = environment
        proxies = ProxySettings(environment: environment)
        total = AsyncSemaphore(maxInFlight)
        self.logger = logger
    }

    deinit {
        for client in clients.values { try? client.syncShutdown() }
    }

    /// Requests sent so far (each retry counts).
    public var requestsSent: Int { lock.withLock { requestCount } }

    /// The value of environment variable references in `text`.
    public func resolve(_ text: EnvironmentReference) -> String { text.resolved(in: environment) }

    /// The variables among `names` that are not set.
    public func unset(_ names: [String]) -> [String] { names.filter { environment[$0] == nil } }

    /// Caps requests to `host` at once at `limit` (the lowest limit asked for a host wins).
    public func limitHost(_ host: String, to limit: Int) {
        lock.withLock {
            if let existing = hostLimits[host], existing.limit <= limit { return }
            hostLimits[host] = (limit, AsyncSemaphore(limit))
        }
    }

    /// GETs `url` with `settings`, retrying as its policy says; `headers` are added to the
    /// layer's. A retryable status that outlives the retries is returned as the answer.
    public func get(_ url: EnvironmentReference, settings: HTTPSettings,
                    headers extra: [(String, String)] = []) async -> Result<HTTPAnswer, HTTPFailure> {
        guard let (target, headers) = prepare(url, settings: settings, extra: extra) else {
            return .failure(.badURL("'\(url.text)' is not an http or https URL"))
        }
        var prepared = HTTPClientRequest(url: target.absoluteString)
        prepared.headers = headers
        let request = prepared
        let client = client(for: target)
        let hostLimit = lock.withLock { target.host.flatMap { hostLimits[$0]?.semaphore } }
        var attempt = 0
        while true {
            attempt += 1
            let result = await limited(hostLimit) {
                await self.attempt(request, client: client, timeout: settings.timeout)
            }
            guard let wait = settings.retry.wait(after: result, attempt: attempt), !Task.isCancelled else { return result }
            logger.info("retrying", metadata: ["url": "\(url.text)", "attempt": "\(attempt + 1)", "wait_s": "\(wait)"])
            try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
        }
    }

    /// `get` for callers outside Swift concurrency (loading a style): blocks the calling thread
    /// only, while the client's own event loop threads do the work.
    public func getBlocking(_ url: EnvironmentReference, settings: HTTPSettings) -> Result<HTTPAnswer, HTTPFailure> {
        guard let (target, headers) = prepare(url, settings: settings, extra: []),
              let request = try? HTTPClient.Request(url: target, headers: headers) else {
            return .failure(.badURL("'\(url.text)' is not an http or https URL"))
        }
        let client = client(for: target)
        var attempt = 0
        while true {
            attempt += 1
            lock.withLock { requestCount += 1 }
            let result: Result<HTTPAnswer, HTTPFailure>
            do {
                let response = try client.execute(request: request, deadline: .now() + .milliseconds(Int64(settings.timeout * 1000))).wait()
                var headers: [String: String] = [:]
                for (name, value) in response.headers { headers[name.lowercased()] = value }
                let body = response.body.map { Data($0.readableBytesView) } ?? Data()
                result = body.count > Self.maxBodyBytes ? .failure(.tooLarge(limit: Self.maxBodyBytes))
                    : .success(HTTPAnswer(status: Int(response.status.code), headers: headers, body: body))
            } catch {
                result = .failure(Self.failure(error, timeout: settings.timeout))
            }
            guard let wait = settings.retry.wait(after: result, attempt: attempt) else { return result }
            Thread.sleep(forTimeInterval: wait)
        }
    }

    /// The resolved URL when it is http(s) with a host, and the request headers.
    private func prepare(_ url: EnvironmentReference, settings: HTTPSettings, extra: [(String, String)]) -> (URL, HTTPHeaders)? {
        guard let target = URL(string: url.resolved(in: environment)), let scheme = target.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = target.host, !host.isEmpty else { return nil }
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: settings.userAgent.resolved(in: environment))
        for header in settings.headers { headers.replaceOrAdd(name: header.name, value: header.value.resolved(in: environment)) }
        for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
        return (target, headers)
    }

    private func limited(_ hostLimit: AsyncSemaphore?, _ body: @escaping @Sendable () async -> Result<HTTPAnswer, HTTPFailure>)
        async -> Result<HTTPAnswer, HTTPFailure> {
        await total.withPermit {
            if let hostLimit { return await hostLimit.withPermit(body) }
            return await body()
        }
    }

    /// One request and its whole body, within `timeout` seconds.
    private func attempt(_ request: HTTPClientRequest, client: HTTPClient, timeout: Double) async -> Result<HTTPAnswer, HTTPFailure> {
        lock.withLock { requestCount += 1 }
        do {
            return try await withThrowingTaskGroup(of: HTTPAnswer?.self) { group in
                group.addTask {
                    let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
                    let body = try await response.body.collect(upTo: Self.maxBodyBytes)
                    var headers: [String: String] = [:]
                    for (name, value) in response.headers { headers[name.lowercased()] = value }
                    return HTTPAnswer(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
                }
                group.addTask {
                    try await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let answer = first else {
                    return .failure(.timedOut(seconds: timeout))
                }
                return .success(answer)
            }
        } catch {
            return .failure(Self.failure(error, timeout: timeout))
        }
    }

    /// The failure an error of the client stands for.
    static func failure(_ error: any Error, timeout: Double) -> HTTPFailure {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
                return .timedOut(seconds: timeout)
            default:
                return .connection(systemReason(error))
            }
        case is NIOTooManyBytesError:
            return .tooLarge(limit: maxBodyBytes)
        case is CancellationError:
            return .connection("cancelled")
        default:
            return .connection(systemReason(error))
        }
    }

    /// The system's own words ("Connection refused") when the error carries an errno (NIO's
    /// connection and I/O errors describe themselves as "... (errno: 111)"), else its description.
    static func systemReason(_ error: any Error) -> String {
        let text = String(describing: error)
        guard let range = text.range(of: #"errno: [0-9]+"#, options: .regularExpression),
              let code = Int32(text[range].dropFirst(7)), let reason = strerror(code) else { return text }
        return String(cString: reason)
    }

    /// The client for `url`'s route: direct, or through the proxy the environment names.
    private func client(for url: URL) -> HTTPClient {
        let proxy = proxies.proxy(for: url)
        return lock.withLock {
            if let client = clients[proxy] { return client }
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .follow(max: 5, allowCycles: false),
                timeout: .init(connect: .seconds(10), read: .seconds(60)))
            configuration.proxy = proxy.map { .server(host: $0.host, port: $0.port) }
            configuration.connectionPool = .init(idleTimeout: .seconds(30))
            // A refused or failed connection is answered at once; the layer's RetryPolicy
            // decides about asking again (the pool would otherwise retry until the deadline).
            configuration.connectionPool.retryConnectionEstablishment = false
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            clients[proxy] = client
            return client
        }
    }
}
