import Foundation

/// The attempts of one request, as the client makes them: before each, whether the host may be
/// asked (`HostHealth`) and the render's deadline has not passed; after each, what the host's
/// health learns and whether to ask again, when (`RetryPolicy`, `Retry-After` included) and
/// within how long. Waits and timeouts never reach past the render's deadline.
struct RequestAttempts {
    enum Step {
        case retry(afterSeconds: Double)
        case done(Result<HTTPAnswer, HTTPFailure>)
    }

    let settings: HTTPSettings
    /// `host:port` of the first URL.
    let host: String
    let health: HostHealth
    private(set) var attempt = 0

    init(settings: HTTPSettings, host: String, health: HostHealth) {
        self.settings = settings
        self.host = host
        self.health = health
    }

    /// Whether an attempt may be made now, just before it is sent (once a request holds its
    /// place among the host's): its timeout in seconds, or why not.
    func admit() -> Result<Double, HTTPFailure> {
        if RenderDeadline.hasPassed { return .failure(.deadlinePassed) }
        if let refusal = health.admit(host) { return .failure(.hostUnavailable(host: refusal.host, reason: refusal.reason)) }
        return .success(min(settings.timeout, RenderDeadline.secondsLeft ?? .infinity))
    }

    /// The attempt made with `timeout` ended in `result` (a refusal by `admit` included):
    /// records it in the host's health, and says whether to ask again.
    mutating func next(after result: Result<HTTPAnswer, HTTPFailure>, timeout: Double) -> Step {
        switch result {
        case .failure(.deadlinePassed), .failure(.hostUnavailable): return .done(result)
        default: attempt += 1
        }
        if timeout < settings.timeout, case .failure(.timedOut(let seconds)) = result {
            health.record(host, failure: "no answer within \(seconds.exactText) s, the render's deadline")
            return .done(.failure(.deadlinePassed))
        }
        switch result {
        case .success(let answer) where RetryPolicy.isRetryable(status: answer.status):
            health.record(host, failure: "HTTP \(answer.status)",
                          retryAfter: RetryPolicy.retryAfterSeconds(answer.headers["retry-after"]))
        case .success, .failure(.tooLarge), .failure(.badURL), .failure(.badHeader):
            health.record(host, failure: nil)
        case .failure(let failure):
            if case .unknownHost = failure {
                health.record(host, failure: failure.description, final: true)
            } else {
                health.record(host, failure: failure.description)
            }
        }
        guard let wait = settings.retry.wait(after: result, attempt: attempt), !Task.isCancelled,
              wait < RenderDeadline.secondsLeft ?? .infinity, !health.isRefusing(host) else {
            return .done(result)
        }
        return .retry(afterSeconds: wait)
    }
}
