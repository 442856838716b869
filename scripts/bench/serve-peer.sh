#!/usr/bin/env bash
# make bench-serve-peer: `mapcompose serve` against MapProxy (python3-mapproxy from Debian, under
# gunicorn with 2 sync workers, installed into .build/peer-venv from PyPI when missing), both on
# 127.0.0.1 serving the same two raster layers merged per tile: the fixture tiles
# (Tests/Fixtures/Reference/tiles) and, from a second folder, the same tiles made half transparent
# (RGBA, alpha 128) and drawn over them, so that each tile is an alpha composite of two images.
# (MapProxy 1.15 has no opacity for tile sources: an opaque second layer would simply replace the first.)
# MapProxy's cache has disable_storage, so it reads and composites both sources on every request,
# as mapcompose does (the tile memory of mapcompose stays warm; its rendered tiles are not kept).
# wrk asks both for the same fixed list of tile addresses (every fixture tile at zooms 3–6, in a
# shuffled order), BENCH_SECONDS each (default 60) with BENCH_CONNECTIONS (default 64) after
# BENCH_WARMUP seconds (default 5). MapProxy also serves the merged layer over WMS (checked, not timed).
set -euo pipefail
BIN=${1:-.build/release/mapcompose}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=$root/.build/peer-venv
. "$here/serve-lib.sh"
need_wrk
if ! /usr/bin/python3 -c 'import mapproxy' 2>/dev/null; then
  echo "serve-peer: MapProxy is missing (make test-deps installs python3-mapproxy)" >&2; exit 1
fi
if [ ! -x "$venv/bin/gunicorn" ]; then
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  "$venv/bin/pip" install -q gunicorn
fi
work=$(mktemp -d)
cleanup() {
  for p in ${pid:-} ${peer:-}; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
cp -r "$root/Tests/Fixtures/Reference/tiles" "$work/a"
/usr/bin/python3 - "$work/a" "$work/b" <<'PY'
import os, sys
from PIL import Image
source, target = sys.argv[1:]
for folder, _, names in os.walk(source):
    for name in names:
        path = os.path.join(folder, name)
        out = os.path.join(target, os.path.relpath(path, source))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        image = Image.open(path).convert("RGBA")
        image.putalpha(128)
        image.save(out)
PY

# mapcompose: a style with the two layers.
cat > "$work/peer.yaml" <<STYLE
name: peer
layers:
  - id: a
    source: {type: xyz, path: "$work/a/{z}/{x}/{y}.png"}
  - id: b
    source: {type: xyz, path: "$work/b/{z}/{x}/{y}.png"}
STYLE
cat > "$work/serve.yaml" <<CONFIG
styles: {peer: peer.yaml}
limits: {max_in_flight: 1000}
CONFIG
MAPCOMPOSE_BASEMAP=none "$BIN" serve --config "$work/serve.yaml" --host 127.0.0.1 --port 0 --no-cache > "$work/out" 2> /dev/null &
pid=$!
for _ in $(seq 100); do grep -q listening "$work/out" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$work/out")
for _ in $(seq 100); do curl -sf "$url/ready" >/dev/null 2>&1 && break; sleep 0.1; done

# MapProxy: the same two folders as tile sources, merged by an unstored cache.
cat > "$work/mapproxy.yaml" <<CONFIG
services:
  tms: {origin: nw, use_grid_names: true}
  wms: {srs: ['EPSG:3857'], md: {title: peer}}
layers:
  - {name: peer, title: peer, sources: [peer_cache]}
caches:
  peer_cache:
    grids: [webmercator]
    sources: [a, b]
    disable_storage: true
    format: image/png
sources:
  a: {type: tile, url: "file://$work/a/%(z)s/%(x)s/%(y)s.png", grid: webmercator}
  b: {type: tile, url: "file://$work/b/%(z)s/%(x)s/%(y)s.png", grid: webmercator, transparent: true}
grids:
  webmercator: {base: GLOBAL_WEBMERCATOR, origin: nw}
globals:
  cache: {base_dir: $work/mapproxy-cache, lock_dir: $work/mapproxy-locks}
CONFIG
cat > "$work/peer_app.py" <<PY
from mapproxy.wsgiapp import make_wsgi_app
application = make_wsgi_app("$work/mapproxy.yaml")
PY
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$venv/bin/gunicorn" --workers 2 --bind "127.0.0.1:$port" --chdir "$work" --log-level warning peer_app:application \
  > "$work/peer.log" 2>&1 &
peer=$!
peer_url=http://127.0.0.1:$port
for _ in $(seq 200); do curl -sf "$peer_url/tiles/1.0.0/peer/webmercator/0/0/0.png" >/dev/null 2>&1 && break; sleep 0.1; done

# The addresses: every fixture tile at zooms 3–6, shuffled once with a fixed seed.
list=$(cd "$work/a" && find 3 4 5 6 -name '*.png' | sed 's/\.png$//' | sort | awk 'BEGIN {srand(7)} {print rand() "\t" $0}' | sort | cut -f2)
count=$(echo "$list" | wc -l)
lua_list=$(echo "$list" | sed 's/.*/  "&",/')
for side in mapcompose mapproxy; do
  if [ $side = mapcompose ]; then prefix=/styles/peer/tiles/; else prefix=/tiles/1.0.0/peer/webmercator/; fi
  cat > "$work/$side.lua" <<LUA
local tiles = {
$lua_list
}
local prefix = "$prefix"
local counter = 0
setup = function(thread) thread:set("offset", counter * 97); counter = counter + 1 end
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", prefix .. tiles[(i + offset) % #tiles + 1] .. ".png")
end
LUA
  cat "$here/wrk-report.lua" >> "$work/$side.lua"
done

# Both answer every address with a 256² PNG before anything is timed.
for side in mapcompose mapproxy; do
  if [ $side = mapcompose ]; then base=$url/styles/peer/tiles; else base=$peer_url/tiles/1.0.0/peer/webmercator; fi
  for tile in $(echo "$list" | head -5); do
    curl -sf -o "$work/check.png" "$base/$tile.png" || { echo "serve-peer: $side did not answer $tile" >&2; cat "$work/peer.log" >&2; exit 1; }
    file "$work/check.png" | grep -q '256 x 256' || { echo "serve-peer: $side answered $tile with $(file -b "$work/check.png")" >&2; exit 1; }
  done
done
curl -sf -o "$work/check.png" "$peer_url/service?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&LAYERS=peer&STYLES=&CRS=EPSG:3857&BBOX=-2000000,4000000,3000000,8000000&WIDTH=512&HEIGHT=410&FORMAT=image/png" \
  && file "$work/check.png" | grep -q PNG || echo "serve-peer: MapProxy's WMS GetMap failed" >&2

# run SIDE URL: warm-up, then the measured run; sets rps, p50, p99, errors.
run() {
  wrk -t 2 -c "$CONNECTIONS" -d "${WARMUP}s" --timeout 10s -s "$work/$1.lua" "$2" > /dev/null
  wrk -t 2 -c "$CONNECTIONS" -d "${SECONDS_EACH}s" --timeout 10s -s "$work/$1.lua" "$2" > "$work/$1.out"
  read -r _ rps p50 p99 p999 _ status connect read write timeout < <(grep '^RESULT' "$work/$1.out")
  printf '| %s | %.0f | %.1f ms | %.1f ms | %.1f ms | %d |\n' "$3" "$rps" "$p50" "$p99" "$p999" $((status + connect + read + write + timeout))
  eval "${1}_rps=$rps ${1}_p99=$p99"
}
echo "256² tiles, two layers composited per tile, $count addresses at z3–6: $CONNECTIONS connections, ${SECONDS_EACH} s each after ${WARMUP} s of warm-up, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| server | req/s | p50 | p99 | p99.9 | errors |"
echo "| --- | --- | --- | --- | --- | --- |"
run mapcompose "$url" "mapcompose serve"
run mapproxy "$peer_url" "MapProxy $(/usr/bin/python3 -c 'import mapproxy.version as v; print(v.version)' 2>/dev/null), gunicorn 2 workers"
echo
awk -v a="$mapcompose_rps" -v b="$mapproxy_rps" -v pa="$mapcompose_p99" -v pb="$mapproxy_p99" 'BEGIN {
  r = a / b
  printf "throughput ratio %.1f× (goal ≥ 5×); p99 %.1f ms against %.1f ms: goal %s\n", r, pa, pb, (r >= 5 && pa <= pb) ? "met" : "not met" }'
