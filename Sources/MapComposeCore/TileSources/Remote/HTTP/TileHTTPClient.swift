import CCurl
import Foundation
import Logging

/// The process's HTTP client for tiles and documents, on Debian's libcurl (`CurlTransfers`:
/// one connection pool, TLS from the system's OpenSSL): a bound on requests in flight in all
/// and per host, retries by the layer's `RetryPolicy`, redirects by `RedirectPolicy`, and one
/// `HostHealth` so a failing host stops being asked. URLs given to it may reference `${NAME}`
/// environment variables; messages and logs only ever show them unresolved.
public final class TileHTTPClient: @unchecked Sendable {
    /// Largest answer body accepted.
    public static let maxBodyBytes = 64 << 20

    /// The health of the hosts this client asks.
    public let health: HostHealth
    private let proxies: ProxySettings
    private let environment: [String: String]
    private let lock = NSLock()
    private var hostLimits: [String: (limit: Int, semaphore: AsyncSemaphore)] = [:]
    private var requestCount = 0
    /// The values of the variables requests have referenced, as they may appear in text, with
    /// the reference that stands for them; longest first.
    private var secrets: [(text: String, reference: String)] = []
    private let total: AsyncSemaphore
    private let logger: Logger

    /// - Parameters:
    ///   - environment: where `${NAME}` references and the proxy variables are read.
    ///   - maxInFlight: most requests in flight at once, all hosts together.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, maxInFlight: Int = 32,
                health: HostHealth = HostHealth(), logger: Logger = Logger(label: "mapcompose.http")) {
        self.environment = environment
        self.health = health
        proxies = ProxySettings(environment: environment)
        total = AsyncSemaphore(maxInFlight)
        self.logger = logger
    }

    /// Requests sent so far (each retry and redirect counts).
    public var requestsSent: Int { lock.withLock { requestCount } }

    /// The value of environment variable references in `text`.
    public func resolve(_ text: EnvironmentReference) -> String { text.resolved(in: environment) }

    /// The variables among `names` that are not set.
    public func unset(_ names: [String]) -> [String] { names.filter { environment[$0] == nil } }

    /// `text` (a server's words, a failure) with every value of a variable a request referenced
    /// replaced by its `${NAME}`, as written, as read from its file and percent-encoded.
    public func redacted(_ text: String) -> String {
        let secrets = lock.withLock { self.secrets }
        return secrets.reduce(text) { $0.replacingOccurrences(of: $1.text, with: $1.reference) }
    }

    /// Remembers the values of the variables `references` name, for `redacted`.
    private func rememberSecrets(of references: [EnvironmentReference]) {
        let names = Set(references.flatMap(\.variableNames))
        guard !names.isEmpty else { return }
        lock.withLock {
            for name in names {
                guard let value = EnvironmentReference.value(of: name, in: environment), value.count >= 3 else { continue }
                let forms = [value, environment[name] ?? value,
                             value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? value,
                             value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value]
                for form in Set(forms) where !secrets.contains(where: { $0.text == form }) {
                    secrets.append((form, "${\(name)}"))
                }
            }
            secrets.sort { $0.text.count > $1.text.count }
        }
    }

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
        let request: PreparedRequest
        switch prepare(url, settings: settings, extra: extra) {
        case .failure(let failure): return .failure(failure)
        case .success(let prepared): request = prepared
        }
        let hostLimit = lock.withLock { request.url.host.flatMap { hostLimits[$0]?.semaphore } }
        var attempts = RequestAttempts(settings: settings, host: request.hostKey, health: health)
        while true {
            let current = attempts
            let (result, timeout) = await total.withPermit {
                guard let hostLimit else { return await self.attempt(request, current) }
                return await hostLimit.withPermit { await self.attempt(request, current) }
            }
            switch attempts.next(after: result, timeout: timeout) {
            case .done(let result): return result
            case .retry(let wait):
                logger.info("retrying", metadata: ["url": "\(url.text)", "attempt": "\(attempts.attempt + 1)", "wait_s": "\(wait)"])
                try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
            }
        }
    }

    /// `get` for callers outside Swift concurrency (loading a style): blocks the calling thread
    /// only, while the client's own thread does the work.
    public func getBlocking(_ url: EnvironmentReference, settings: HTTPSettings,
                            headers extra: [(String, String)] = []) -> Result<HTTPAnswer, HTTPFailure> {
        let request: PreparedRequest
        switch prepare(url, settings: settings, extra: extra) {
        case .failure(let failure): return .failure(failure)
        case .success(let prepared): request = prepared
        }
        var attempts = RequestAttempts(settings: settings, host: request.hostKey, health: health)
        while true {
            var result: Result<HTTPAnswer, HTTPFailure>?
            var timeout = settings.timeout
            switch attempts.admit() {
            case .failure(let refusal): result = .failure(refusal)
            case .success(let seconds): timeout = seconds
            }
            var hop = Hop(request)
            while result == nil {
                guard let transfer = transfer(for: hop, timeout: timeout) else { result = .failure(Self.noHandle); break }
                result = hop.advance(answer(transfer, CurlTransfers.shared.performBlocking(transfer), timeout: timeout))
            }
            switch attempts.next(after: result!, timeout: timeout) {
            case .done(let result): return result
            case .retry(let wait): Thread.sleep(forTimeInterval: wait)
            }
        }
    }

    /// A request ready to send: the resolved URL and its headers.
    struct PreparedRequest {
        let url: URL
        let headers: [RedirectPolicy.Header]

        /// `host:port`, the key of the host's health.
        var hostKey: String {
            "\(url.host?.lowercased() ?? ""):\(url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))"
        }
    }

    /// Where one attempt stands as it follows redirects.
    private struct Hop {
        var url: URL
        var headers: [RedirectPolicy.Header]
        var visited: [URL] = []

        init(_ request: PreparedRequest) {
            url = request.url
            headers = request.headers
        }

        /// The attempt's result, or nil after moving on to the redirect's target.
        mutating func advance(_ result: Result<HTTPAnswer, HTTPFailure>) -> Result<HTTPAnswer, HTTPFailure>? {
            guard case .success(let answer) = result else { return result }
            visited.append(url)
            do {
                guard let next = try RedirectPolicy.follow(answer, from: url, headers: headers, visited: visited) else {
                    return result
                }
                (url, headers) = next
                return nil
            } catch {
                return .failure(error)
            }
        }
    }

    /// Why no transfer could be made.
    private static var noHandle: HTTPFailure {
        .connection(CurlTransfers.shared.loadFailure ?? "libcurl could not make a request")
    }

    /// One attempt, when `attempts` admits it: its result and the timeout it had.
    private func attempt(_ request: PreparedRequest,
                         _ attempts: RequestAttempts) async -> (Result<HTTPAnswer, HTTPFailure>, Double) {
        switch attempts.admit() {
        case .failure(let refusal): return (.failure(refusal), 0)
        case .success(let timeout): return (await fetch(request, timeout: timeout), timeout)
        }
    }

    /// One attempt: the request and the redirects it may follow.
    private func fetch(_ request: PreparedRequest, timeout: Double) async -> Result<HTTPAnswer, HTTPFailure> {
        var hop = Hop(request)
        while true {
            guard let transfer = transfer(for: hop, timeout: timeout) else { return .failure(Self.noHandle) }
            let outcome = await CurlTransfers.shared.perform(transfer)
            if let result = hop.advance(answer(transfer, outcome, timeout: timeout)) { return result }
        }
    }

    /// The transfer for the current hop, through the proxy its URL takes; counts the request.
    /// Nil when libcurl cannot be had (`CurlTransfers.loadFailure`) or makes no handle.
    private func transfer(for hop: Hop, timeout: Double) -> CurlTransfer? {
        guard CurlTransfers.shared.loadFailure == nil else { return nil }
        lock.withLock { requestCount += 1 }
        return CurlTransfer(url: hop.url.absoluteString, headers: hop.headers.map { ($0.name, $0.value) },
                            proxy: proxies.proxy(for: hop.url), timeout: timeout, limit: Self.maxBodyBytes)
    }

    /// The resolved URL when it is http(s) with a host, and the request headers, each value
    /// free of line breaks.
    private func prepare(_ url: EnvironmentReference, settings: HTTPSettings,
                         extra: [(String, String)]) -> Result<PreparedRequest, HTTPFailure> {
        rememberSecrets(of: [url, settings.userAgent] + settings.headers.map(\.value))
        guard let target = URL(string: url.resolved(in: environment)), let scheme = target.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = target.host, !host.isEmpty else {
            return .failure(.badURL("'\(url.text)' is not an http or https URL"))
        }
        var headers: [RedirectPolicy.Header] = []
        func add(_ name: String, _ value: String, secret: Bool) {
            headers.removeAll { $0.name.lowercased() == name.lowercased() }
            headers.append(.init(name: name, value: value, isSecret: secret))
        }
        add("User-Agent", settings.userAgent.resolved(in: environment), secret: !settings.userAgent.variableNames.isEmpty)
        for header in settings.headers {
            add(header.name, header.value.resolved(in: environment), secret: !header.value.variableNames.isEmpty)
        }
        for (name, value) in extra { add(name, value, secret: false) }
        for header in headers {
            let forbidden = header.name.isEmpty || (header.name + header.value).unicodeScalars.contains {
                $0 == "\r" || $0 == "\n" || $0 == "\0"
            } || header.name.contains(":") || header.name.contains(" ")
            if forbidden { return .failure(.badHeader(name: header.name)) }
        }
        return .success(PreparedRequest(url: target, headers: headers))
    }

    /// What a finished transfer amounts to.
    private func answer(_ transfer: CurlTransfer, _ outcome: CurlTransfer.Outcome,
                        timeout: Double) -> Result<HTTPAnswer, HTTPFailure> {
        switch outcome {
        case .completed:
            return .success(HTTPAnswer(status: transfer.status, headers: transfer.headers, body: transfer.body))
        case .tooLarge:
            return .failure(.tooLarge(limit: Self.maxBodyBytes))
        case .cancelled:
            return .failure(.connection("cancelled"))
        case .failed(let code, let message, let systemError):
            switch code {
            case Int(CURLE_OPERATION_TIMEDOUT.rawValue):
                return .failure(.timedOut(seconds: timeout))
            case Int(CURLE_COULDNT_RESOLVE_HOST.rawValue), Int(CURLE_COULDNT_RESOLVE_PROXY.rawValue):
                return .failure(.unknownHost(URL(string: transfer.url)?.host ?? transfer.url))
            default:
                // The system's own words ("Connection refused") when there is an errno.
                if systemError != 0, let reason = strerror(systemError) { return .failure(.connection(String(cString: reason))) }
                return .failure(.connection(redacted(message)))
            }
        }
    }
}
