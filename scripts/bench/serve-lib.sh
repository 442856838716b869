# Sourced by the serve benches: the settings they share (seconds per measured run, connections,
# seconds of warm-up); need_wrk installs wrk from Debian when missing; rss_start PID FILE samples
# VmRSS (KiB) of PID every second into FILE until rss_stop; rss_summary FILE SECONDS prints "min–max MiB" over the last SECONDS samples
# and whether every one lies within ±10 % of their mean.
SECONDS_EACH=${BENCH_SECONDS:-60}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
WARMUP=${BENCH_WARMUP:-5}
need_wrk() {
  command -v wrk >/dev/null && return
  if [ "$(id -u)" = 0 ]; then apt-get install -y -qq wrk >/dev/null; else sudo apt-get install -y -qq wrk >/dev/null; fi
}
rss_start() {
  ( while kill -0 "$1" 2>/dev/null; do awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null; sleep 1; done ) > "$2" &
  rss_pid=$!
}
rss_stop() {
  [ -n "${rss_pid:-}" ] || return 0
  kill "$rss_pid" 2>/dev/null || true
  wait "$rss_pid" 2>/dev/null || true
  rss_pid=
}
rss_summary() {
  tail -n "$2" "$1" | awk '{ v[NR] = $1; s += $1 } END {
    if (NR == 0) { print "n/a | n/a"; exit }
    m = s / NR; lo = v[1]; hi = v[1]
    for (i = 1; i <= NR; i++) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
    flat = (lo >= 0.9 * m && hi <= 1.1 * m) ? "yes" : "no"
    printf "%.0f–%.0f MiB | %s (%+.1f %%/%+.1f %%)", lo / 1024, hi / 1024, flat, 100 * (lo - m) / m, 100 * (hi - m) / m }'
}
