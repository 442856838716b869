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

    public var description: String {
        switch self {
        case .timedOut(let seconds): return "no answer within \(seconds.exactText) s"
        case .connection(let detail): return "connection failed: \(detail)"
        case .badURL(let detail): return "bad URL: \(detail)"
        case .tooLarge(let limit): return "answer larger than \(limit >> 20) MiB"
        case .gaveUp(let status, let attempts): return "HTTP \(status) after \(attempts) attempts"
        }
    }
}
