import Foundation

/// The health of each server a process asks, shared by all its layers, renders and batch jobs
/// (a circuit breaker per host): after `failureThreshold` failures in a row (timeouts,
/// connection failures, 5xx and 429 answers) the host is not asked for `coolDown` seconds, and
/// its tiles are transient misses that fallback fills from what is already at hand. After the
/// cool-down one request probes it: an answer closes the breaker, a failure opens it again.
/// A host whose name does not resolve is given up at once.
public final class HostHealth: @unchecked Sendable {
    /// Why a host is not being asked.
    public struct Refusal: Sendable, Equatable {
        public let host: String
        /// The last failure, in words.
        public let reason: String
    }

    private struct State {
        var failures = 0
        var lastFailure = ""
        var openUntil: ContinuousClock.Instant?
        var probing = false
    }

    public let failureThreshold: Int
    public let coolDown: Duration
    private let lock = NSLock()
    private var hosts: [String: State] = [:]
    /// Requests and failures recorded per host since the start, for metrics.
    private var counts: [String: (requests: Int, failures: Int)] = [:]

    public init(failureThreshold: Int = 5, coolDown: Duration = .seconds(30)) {
        self.failureThreshold = max(1, failureThreshold)
        self.coolDown = coolDown
    }

    /// Nil when `host` may be asked now (taking the probe when its cool-down is over), or why not.
    public func admit(_ host: String, now: ContinuousClock.Instant = .now) -> Refusal? {
        lock.withLock {
            guard var state = hosts[host], let openUntil = state.openUntil else { return nil }
            if now >= openUntil, !state.probing {
                state.probing = true
                hosts[host] = state
                return nil
            }
            return Refusal(host: host, reason: state.lastFailure)
        }
    }

    /// True while `host` is not being asked (without taking the probe).
    public func isRefusing(_ host: String, now: ContinuousClock.Instant = .now) -> Bool {
        lock.withLock {
            guard let state = hosts[host], let openUntil = state.openUntil else { return false }
            return now < openUntil || state.probing
        }
    }

    /// Records how a request to `host` ended: `failure` nil for an answer that is not a fault of
    /// the server's; `final` for a failure that opens the breaker at once (an unknown host);
    /// `retryAfter`, the seconds the server asked to be left alone, lengthens the cool-down
    /// when the breaker opens (up to a day).
    public func record(_ host: String, failure: String?, final: Bool = false, retryAfter: Double? = nil,
                       now: ContinuousClock.Instant = .now) {
        lock.withLock {
            var count = counts[host] ?? (0, 0)
            count.requests += 1
            if failure != nil { count.failures += 1 }
            counts[host] = count
            var state = hosts[host] ?? State()
            state.probing = false
            if let failure {
                state.failures += 1
                state.lastFailure = failure
                if final || state.failures >= failureThreshold {
                    let asked = Duration.milliseconds(Int64(min(max(retryAfter ?? 0, 0), 86_400) * 1000))
                    state.openUntil = now + max(coolDown, asked)
                }
            } else {
                state = State()
            }
            hosts[host] = state
        }
    }

    /// Every host recorded so far with its requests and failures since the start, sorted by host.
    public func requestCounts() -> [(host: String, requests: Int, failures: Int)] {
        lock.withLock { counts.map { ($0.key, $0.value.requests, $0.value.failures) }.sorted { $0.host < $1.host } }
    }

    /// Hosts not being asked now, with the last failure of each, sorted by host.
    public func unavailableHosts(now: ContinuousClock.Instant = .now) -> [Refusal] {
        lock.withLock {
            hosts.compactMap { host, state in
                guard let until = state.openUntil, now < until || state.probing else { return nil }
                return Refusal(host: host, reason: state.lastFailure)
            }.sorted { $0.host < $1.host }
        }
    }
}
