-- Appended to the wrk scripts of scripts/bench-serve.sh and scripts/bench/serve-peer.sh: one
-- machine-readable line at the end of a run (latencies in ms):
-- RESULT req/s p50 p99 p99.9 requests non-2xx/3xx socket-errors(connect read write timeout)
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %.1f %.2f %.2f %.2f %d %d %d %d %d %d\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency:percentile(99.9) / 1000,
    summary.requests, e.status, e.connect, e.read, e.write, e.timeout))
end
