import Foundation

/// A server's complete answer to one GET.
public struct HTTPAnswer: Sendable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The media type without parameters, in lower case (`image/png`).
    public var mediaType: String? {
        headers["content-type"].map {
            String($0.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        }
    }
}

/// Why a request got no answer.
public enum HTTPFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer within the timeout.
    case timedOut(seconds: Double)
    /// The connection failed, was reset, or the answer broke off.
    case connection(String)
    /// The URL cannot be requested.
    case badURL(String)
    /// The answer was larger than allowed.
    case tooLarge(limit: Int)
    /// Retries were used up on retryable statuses (the last one given).
    case gaveUp(status: Int, attempts: Int)
    /// The host's name does not resolve: it is not asked again in this process.
    case unknownHost(String)
    /// The host failed too often in a row and is not asked for a while (see `HostHealth`).
    case hostUnavailable(host: String, reason: String)
    /// The render's deadline passed before an answer (see `RenderDeadline`).
    case deadlinePassed
    /// A header's value holds a line break or NUL; its value is not shown (it may be a secret).
    case badHeader(name: String)

    public var description: String {
        switch self {
        case .timedOut(let seconds): return "no answer within \(seconds.exactText) s"
        case .connection(let detail): return "connection failed: \(detail)"
        case .badURL(let detail): return "bad URL: \(detail)"
        case .tooLarge(let limit): return "answer larger than \(limit >> 20) MiB"
        case .gaveUp(let status, let attempts): return "HTTP \(status) after \(attempts) attempts"
        case .unknownHost(let host): return "host \(host) not found (DNS)"
        case .hostUnavailable(let host, let reason):
            return "\(host) not asked: it failed repeatedly (\(reason)); retried after a cool-down"
        case .deadlinePassed: return "the render's deadline passed"
        case .badHeader(let name): return "header \(name) has a line break or NUL in its value"
        }
    }
}
