import Foundation
import MapComposeCore
import Prometheus

/// The server's Prometheus metrics: requests by route and status, render time, renders in
/// flight, the shared tile store's hits and misses, and requests and failures per upstream host.
final class ServeMetrics: @unchecked Sendable {
    let registry = PrometheusCollectorRegistry()
    private let renderSeconds: DurationHistogram
    private let inFlight: Gauge
    private let lock = NSLock()
    /// What was last added to each counter read from elsewhere (the tile store, host health),
    /// so each scrape adds only what is new.
    private var reported: [String: Int] = [:]

    static let renderBuckets: [Duration] = [.milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                                            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
                                            .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30)]

    init() {
        renderSeconds = registry.makeDurationHistogram(descriptor: Self.name("mapcompose_render_seconds", "Time to render and encode one image"),
                                                       buckets: Self.renderBuckets)
        inFlight = registry.makeGauge(descriptor: Self.name("mapcompose_renders_in_flight", "Renders running now"))
    }

    /// Counts a finished request.
    func request(route: String, status: Int) {
        registry.makeCounter(descriptor: Self.name("mapcompose_http_requests_total", "HTTP requests answered, by route and status"),
                             labels: [("route", route), ("status", "\(status)")]).increment()
    }

    func rendered(in duration: Duration) { renderSeconds.record(duration) }

    func renders(inFlight count: Int) { inFlight.set(Double(count)) }

    /// The metrics text, after bringing the counters read from the tile store and host health up to date.
    func scrape(store: TileStore, health: HostHealth?) -> String {
        let statistics = store.statistics
        add("mapcompose_tile_store_hits_total", [], statistics.memoryHits + statistics.sharedInFlight,
            help: "Tiles found decoded in memory or already being fetched")
        add("mapcompose_tile_store_misses_total", [], statistics.fetched, help: "Tiles fetched from their source")
        add("mapcompose_tile_store_remembered_misses_total", [], statistics.rememberedMisses,
            help: "Tiles known to be absent, not asked again")
        registry.makeGauge(descriptor: Self.name("mapcompose_tile_store_bytes", "Bytes of decoded tiles held"))
            .set(Double(statistics.bytesHeld))
        for host in health?.requestCounts() ?? [] {
            add("mapcompose_upstream_requests_total", [("host", host.host)], host.requests, help: "Requests to upstream tile servers")
            add("mapcompose_upstream_failures_total", [("host", host.host)], host.failures,
                help: "Failed requests to upstream tile servers")
        }
        return registry.emitToString()
    }

    private static func name(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    private func add(_ name: String, _ labels: [(String, String)], _ total: Int, help: String) {
        let key = name + labels.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
        let delta = lock.withLock { () -> Int in
            let delta = total - (reported[key] ?? 0)
            reported[key] = total
            return delta
        }
        let counter = registry.makeCounter(descriptor: Self.name(name, help), labels: labels)
        if delta > 0 { counter.increment(by: Int64(delta)) }
    }
}
