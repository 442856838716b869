#!/usr/bin/env bash
# make bench-serve: req/s and p50/p99 latency of `mapcompose serve` on loopback, measured by wrk
# (installed from Debian when missing): 256² tiles of the MBTiles fixture at zooms 2–5, then 512²
# static maps with two markers and a path. BENCH_SECONDS (default 15), BENCH_CONNECTIONS (8).
set -euo pipefail
BIN=${1:-.build/release/mapcompose}
SECONDS_EACH=${BENCH_SECONDS:-15}
CONNECTIONS=${BENCH_CONNECTIONS:-8}
if ! command -v wrk >/dev/null; then
  if [ "$(id -u)" = 0 ]; then apt-get install -y -qq wrk >/dev/null; else sudo apt-get install -y -qq wrk >/dev/null; fi
fi
work=$(mktemp -d)
cleanup() { [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$work"; }
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
report() {
  awk -v name="$1" '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$NF}
    END {printf "%-34s %9s req/s   p50 %8s   p99 %8s   non-2xx %s\n", name, rps, p50, p99, bad + 0}'
}
echo "mapcompose serve on loopback: $CONNECTIONS connections, $SECONDS_EACH s each, $(nproc) cores"
wrk -t 2 -c "$CONNECTIONS" -d "${SECONDS_EACH}s" --latency -s "$work/tiles.lua" "$url" | report "256² tiles (z2–5, MBTiles)"
wrk -t 2 -c "$CONNECTIONS" -d "${SECONDS_EACH}s" --latency -s "$work/static.lua" "$url" | report "512² static, 2 markers + path"
