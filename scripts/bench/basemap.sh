#!/usr/bin/env bash
# The world basemap: build time, peak RSS and size of `mapcompose basemap build` from the
# prepared open data (scripts/basemap/prepare_sources.py; PyPI once, then its cache), then the
# card's command at 1024x1024 (default style over that basemap, zoom 12, whole process, median
# of BENCH_RUNS) over eight cities, against a raster render of the same size (one MBTiles layer,
# Styles/mbtiles.yaml at zoom 6) in the same run.
# Usage: scripts/bench/basemap.sh [path/to/mapcompose]   (default: .build/release/mapcompose)
set -euo pipefail
bin="$(realpath "${1:-.build/release/mapcompose}")"
cd "$(dirname "$0")/../.."
runs="${BENCH_RUNS:-${BENCH_REPEATS:-15}}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sources=.build/basemap-sources

python3 scripts/basemap/prepare_sources.py --out "$sources" >/dev/null
/usr/bin/time -f "%e %M" -o "$work/time.txt" "$bin" basemap build --sources "$sources" --output "$work/basemap.pmtiles" \
  >/dev/null 2>"$work/build.txt" || { cat "$work/build.txt"; exit 1; }
read -r seconds kib <"$work/time.txt"
bytes=$(stat -c %s "$work/basemap.pmtiles")
echo "world basemap ($(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo))"
printf '%-44s %8.1f s %8d MiB peak, %.1f MB\n' "basemap build (zoom 0-9)" "$seconds" $((kib / 1024)) \
  "$(echo "$bytes / 1000000" | bc -l)"

# Median wall milliseconds of N runs of a command.
median_ms() {
  for ((i = 0; i < runs; i++)); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    echo $(((end - start) / 1000000))
  done | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}

export MAPCOMPOSE_BASEMAP="$work/basemap.pmtiles"
raster=$(median_ms "$bin" --style Styles/mbtiles.yaml --center 48,10 --zoom 6 --size 1024x1024 "$work/raster.png")
printf '%-44s %8d ms\n' "raster, 1 MBTiles layer, 1024x1024" "$raster"
worst=0
for city in "London 51.5,-0.12" "Tokyo 35.68,139.69" "New-York 40.71,-74.01" "Cairo 30.04,31.24" \
  "Rio -22.91,-43.17" "Sydney -33.87,151.21" "Mumbai 19.08,72.88" "Reykjavik 64.15,-21.94"; do
  set -- $city
  ms=$(median_ms "$bin" --center "$2" --zoom 12 --size 1024x1024 "$work/$1.png")
  ((ms > worst)) && worst=$ms
  printf '%-44s %8d ms  %5.2fx raster\n' "basemap, $1 zoom 12, 1024x1024" "$ms" "$(echo "$ms / $raster" | bc -l)"
done
printf '%-44s %8.2fx (goal: 2x or less)\n' "slowest basemap map / raster" "$(echo "$worst / $raster" | bc -l)"
