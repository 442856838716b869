#!/usr/bin/env bash
# make bench-serve: req/s, p50/p99/p99.9 latency, errors and the server's RSS of `mapcompose serve`
# on loopback, measured by wrk (installed from Debian when missing): 256² tiles of the MBTiles
# fixture at zooms 2–5 from a warm store, then 512² static maps with two markers and a path. Each
# case is warmed up for BENCH_WARMUP seconds (default 5, not counted), then measured for
# BENCH_SECONDS (default 60) with BENCH_CONNECTIONS (default 64). Errors are non-2xx/3xx answers
# plus socket errors (connect, read, write, timeout over 10 s); RSS is sampled every second and
# summed up over the last 30 s of each run (flat: every sample within ±10 % of their mean).
set -euo pipefail
BIN=${1:-.build/release/mapcompose}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench/serve-lib.sh"
need_wrk
work=$(mktemp -d)
cleanup() { rss_stop; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
cat > "$work/ne.yaml" <<STYLE
name: bench
background: "#aad3df"
attribution: "Natural Earth"
layers:
  - id: base
    source: {type: mbtiles, path: $PWD/Tests/Fixtures/Reference/naturalearth.mbtiles}
STYLE
cat > "$work/serve.yaml" <<CONFIG
styles: {ne: ne.yaml}
limits: {max_in_flight: 1000}
CONFIG
"$BIN" serve --config "$work/serve.yaml" --port 0 --no-cache > "$work/out" 2> /dev/null &
pid=$!
for _ in $(seq 100); do grep -q listening "$work/out" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$work/out")
for _ in $(seq 100); do curl -sf "$url/ready" >/dev/null 2>&1 && break; sleep 0.1; done
cat > "$work/tiles.lua" <<'LUA'
math.randomseed(7)
request = function()
  local z = math.random(2, 5)
  local n = 2 ^ z
  -- Europe and around, where the fixture has tiles at every level
  local x = math.floor(n * (0.45 + 0.1 * math.random()))
  local y = math.floor(n * (0.28 + 0.1 * math.random()))
  return wrk.format("GET", "/styles/ne/tiles/" .. z .. "/" .. x .. "/" .. y .. ".png")
end
LUA
cat > "$work/static.lua" <<'LUA'
math.randomseed(7)
request = function()
  local lat = 45 + 10 * math.random()
  local lon = -5 + 20 * math.random()
  return wrk.format("GET", string.format("/styles/ne/static.png?center=%.4f,%.4f&zoom=%.2f&size=512x512" ..
    "&marker=%.4f,%.4f,red,A&marker=%.4f,%.4f&path=%.4f,%.4f;%.4f,%.4f;color=%%23c00;width=3",
    lat, lon, 4 + math.random(), lat, lon, lat + 1, lon + 1, lat - 2, lon - 3, lat + 2, lon + 3))
end
LUA
cat "$here/bench/wrk-report.lua" >> "$work/tiles.lua"
cat "$here/bench/wrk-report.lua" >> "$work/static.lua"
tail_s=$(( SECONDS_EACH < 30 ? SECONDS_EACH : 30 ))
# run NAME SCRIPT: warm-up, then the measured run with RSS sampled; prints one table row.
run() {
  wrk -t 2 -c "$CONNECTIONS" -d "${WARMUP}s" --timeout 10s -s "$2" "$url" > /dev/null
  rss_start "$pid" "$work/rss"
  wrk -t 2 -c "$CONNECTIONS" -d "${SECONDS_EACH}s" --timeout 10s -s "$2" "$url" > "$work/wrk.out"
  rss_stop
  local rss; rss=$(rss_summary "$work/rss" "$tail_s")
  awk -v name="$1" -v rss="$rss" '/^RESULT/ {
      printf "| %s | %.0f | %.1f ms | %.1f ms | %.1f ms | %d | %d | %s |\n", name, $2, $3, $4, $5, $7, $8 + $9 + $10 + $11, rss }' "$work/wrk.out"
}
echo "mapcompose serve on loopback: $CONNECTIONS connections, ${SECONDS_EACH} s each after ${WARMUP} s of warm-up, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| case | req/s | p50 | p99 | p99.9 | non-2xx/3xx | socket errors | RSS, last ${tail_s} s | flat ±10 % |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
run "256² tiles (z2–5, MBTiles, warm)" "$work/tiles.lua"
run "512² static, 2 markers + path" "$work/static.lua"
