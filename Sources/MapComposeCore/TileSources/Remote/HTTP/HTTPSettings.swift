import Foundation

/// How a layer talks to its server: the `headers`, `user-agent`, `timeout`, `retries` and
/// `concurrency` keys of a remote source.
public struct HTTPSettings: Sendable, Equatable {
    /// The default `User-Agent`, naming the program and where to learn about it.
    public static let defaultUserAgent = "mapcompose/\(MapComposeVersion.current) (+\(MapComposeVersion.projectURL))"

    /// Extra request headers; values may reference `${NAME}` environment variables.
    public var headers: [(name: String, value: EnvironmentReference)]
    public var userAgent: EnvironmentReference
    /// Seconds one request may take, connection included.
    public var timeout: Double
    public var retry: RetryPolicy
    /// Requests to the same host at once (the lowest value named for a host wins).
    public var concurrency: Int

    public init(headers: [(name: String, value: EnvironmentReference)] = [],
                userAgent: EnvironmentReference = EnvironmentReference(HTTPSettings.defaultUserAgent),
                timeout: Double = 15, retry: RetryPolicy = RetryPolicy(), concurrency: Int = 4) {
        self.headers = headers
        self.userAgent = userAgent
        self.timeout = timeout
        self.retry = retry
        self.concurrency = max(1, concurrency)
    }

    public static func == (a: HTTPSettings, b: HTTPSettings) -> Bool {
        a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
            && a.userAgent == b.userAgent && a.timeout == b.timeout && a.retry == b.retry && a.concurrency == b.concurrency
    }

    /// Variables referenced by the headers and user agent.
    public var variableNames: [String] {
        (headers.map(\.value) + [userAgent]).flatMap(\.variableNames)
    }
}
