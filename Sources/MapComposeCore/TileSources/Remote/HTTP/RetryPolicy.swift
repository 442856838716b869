import Foundation

/// When and how long to wait before asking a server again: connect errors, timeouts, resets,
/// 5xx and 429 are retried up to `retries` times with exponential backoff and full jitter,
/// honouring a `Retry-After` header (one asking for more than `maxDelay` is not waited for: the
/// answer stands); other answers are never retried.
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt.
    public var retries: Int
    /// Backoff before the first retry; doubled for each further one.
    public var baseDelay: Double
    /// Longest single wait, also the cap for `Retry-After`.
    public var maxDelay: Double

    public init(retries: Int = 2, baseDelay: Double = 0.25, maxDelay: Double = 30) {
        self.retries = max(0, retries)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// True for statuses worth asking again: 5xx, 429 and 408.
    public static func isRetryable(status: Int) -> Bool {
        status >= 500 || status == 429 || status == 408
    }

    /// Seconds to wait before retry number `attempt` (1 for the first retry): `Retry-After` when
    /// the server gave one (capped at `maxDelay`), else a random time up to the exponential backoff.
    public func delay(beforeRetry attempt: Int, retryAfter: Double?,
                      random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }) -> Double {
        if let retryAfter { return min(max(0, retryAfter), maxDelay) }
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(max(0, attempt - 1))))
        return random(0...ceiling)
    }

    /// After attempt number `attempt` (1 for the first) ended in `result`: the seconds to wait
    /// before asking again, or nil when the result stands (a final answer, a failure not worth
    /// retrying, or no retries left).
    public func wait(after result: Result<HTTPAnswer, HTTPFailure>, attempt: Int) -> Double? {
        let retryAfter: Double?
        switch result {
        case .success(let answer):
            guard Self.isRetryable(status: answer.status) else { return nil }
            retryAfter = Self.retryAfterSeconds(answer.headers["retry-after"])
            if let retryAfter, retryAfter > maxDelay { return nil }
        case .failure(.timedOut), .failure(.connection):
            retryAfter = nil
        case .failure:
            return nil
        }
        guard attempt <= retries else { return nil }
        return delay(beforeRetry: attempt, retryAfter: retryAfter)
    }

    /// Seconds a `Retry-After` value asks for: delta-seconds or an HTTP date (relative to `now`).
    public static func retryAfterSeconds(_ value: String?, now: Date = Date()) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value), seconds.isFinite { return max(0, seconds) }
        guard let date = HTTPDate.parse(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
