#!/usr/bin/env bash
# Scale-out check: three `mapcompose serve` processes sharing one cache folder behind Debian's
# nginx (scripts/serve-nginx.conf.template: an upstream group with
# `proxy_next_upstream error timeout http_502 http_503`), all on 127.0.0.1. A load loop of curl
# clients asks for tiles through nginx; one process is killed (SIGKILL) part way; the check fails
# unless every request was answered 200 and the processes left kept answering.
# Usage: scripts/check-serve-nginx.sh [path/to/mapcompose]  (default: .build/debug/mapcompose).
# REQUESTS (default 600), CLIENTS (default 6).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(realpath "${1:-.build/debug/mapcompose}")"
requests=${REQUESTS:-600}
clients=${CLIENTS:-6}
source scripts/install-debian-packages.sh
command -v nginx >/dev/null || install_debian_packages nginx
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

work=$(mktemp -d)
pids=()
cleanup() {
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/cache" "$work/tmp"
cat >"$work/ne.yaml" <<STYLE
name: scale-out
background: "#aad3df"
layers:
  - id: base
    source: {type: mbtiles, path: $PWD/Tests/Fixtures/Reference/naturalearth.mbtiles}
STYLE
printf 'styles: {ne: ne.yaml}\ncache_dir: cache\nwatch_interval: 0\n' >"$work/serve.yaml"

upstreams=""
for i in 1 2 3; do
  "$bin" serve --config "$work/serve.yaml" --host 127.0.0.1 --port 0 >"$work/serve-$i.out" 2>"$work/serve-$i.err" &
  pids+=($!)
done
for i in 1 2 3; do
  for _ in $(seq 200); do grep -q '^listening on' "$work/serve-$i.out" 2>/dev/null && break; sleep 0.05; done
  url=$(sed -n 's/^listening on http:\/\///p' "$work/serve-$i.out")
  [ -n "$url" ] || { echo "check-serve-nginx: process $i did not start" >&2; cat "$work/serve-$i.err" >&2; exit 1; }
  for _ in $(seq 200); do curl -sf "http://$url/ready" >/dev/null && break; sleep 0.05; done
  upstreams+="        server $url max_fails=1 fail_timeout=10s;"$'\n'
done
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 - "$work" "$port" "$upstreams" <<'PY'
import sys
work, port, upstreams = sys.argv[1:]
text = open("scripts/serve-nginx.conf.template").read()
open(f"{work}/nginx.conf", "w").write(text.replace("@WORK@", work).replace("@PORT@", port).replace("@UPSTREAMS@", upstreams.rstrip("\n")))
PY
"$nginx_bin" -t -q -c "$work/nginx.conf" -p "$work"
"$nginx_bin" -c "$work/nginx.conf" -p "$work"
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.05; done

# Tiles of zooms 2–5 over Europe, some asked twice.
python3 - "$requests" "$port" >"$work/urls" <<'PY'
import random, sys
random.seed(7)
count, port = int(sys.argv[1]), sys.argv[2]
for _ in range(count):
    z = random.randint(2, 5); n = 2 ** z
    x = int(n * (0.45 + 0.1 * random.random())); y = int(n * (0.28 + 0.1 * random.random()))
    print(f"http://127.0.0.1:{port}/styles/ne/tiles/{z}/{x}/{y}.png")
PY
start=$(date +%s.%N)
xargs -P "$clients" -n 1 curl -s -o /dev/null -w '%{http_code}\n' --max-time 30 <"$work/urls" >"$work/codes" &
load=$!
# Kill the second process once a third of the requests are answered.
for _ in $(seq 600); do [ "$(wc -l <"$work/codes")" -ge $((requests / 3)) ] && break; sleep 0.02; done
kill -9 "${pids[1]}"
wait "${pids[1]}" 2>/dev/null || true
killed_at=$(wc -l <"$work/codes")
wait "$load"
elapsed=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
total=$(wc -l <"$work/codes")
ok=$(grep -c '^200$' "$work/codes" || true)
served=$(awk -F'|' '{n = split($3, a, ", "); for (i = 1; i <= n; i++) c[a[i]]++} END {for (k in c) printf "%s %d, ", k, c[k]}' "$work/upstream.log")
retried=$(grep -c ', ' "$work/upstream.log" || true)
echo "check-serve-nginx: $total requests through nginx to 3 processes (one killed after $killed_at answers), $ok answered 200 in ${elapsed} s; $retried passed on to another process; asked per process: ${served%, }"
if [ "$total" -ne "$requests" ] || [ "$ok" -ne "$requests" ]; then
  echo "check-serve-nginx: FAILED: $((requests - ok)) requests were not answered 200:" >&2
  sort "$work/codes" | uniq -c >&2
  exit 1
fi
echo "check-serve-nginx: ok"
