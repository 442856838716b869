#!/usr/bin/env bash
# Whole-process time and peak RSS of mapcompose on styles that used to hang or blow up:
# many layers (5, 500, 5000 solid layers of distinct colours at 800x600) and the largest
# output (16384x16384 at zoom 8, one solid layer and the built-in default style); a GeoJSON
# overlay of one geodesic line of 1,000,000 points (about 40 MB), fitted and zoomed in; then the
# peak RSS of `mapcompose diff` refusing a 70-byte PNG whose text chunk claims 128 MiB (flagged
# when over 120 MiB: the claim must be refused before anything that size is allocated).
# Usage: scripts/bench/stress.sh [path/to/mapcompose]   (default: .build/release/mapcompose)
set -euo pipefail
bin="$(realpath "${1:-.build/release/mapcompose}")"
cd "$(dirname "$0")/../.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A style of N solid layers, each its own colour at opacity 0.5 (so every layer is a group).
layers_style() {
  local n="$1" file="$work/layers-$1.yaml"
  {
    echo "layers:"
    for ((i = 0; i < n; i++)); do
      printf '  - {id: l%d, opacity: 0.5, source: {type: solid, color: "#%06x"}}\n' "$i" $(((i * 2654435761) & 0xffffff))
    done
  } >"$file"
  echo "$file"
}

# Runs mapcompose under /usr/bin/time; prints the label, seconds and peak RSS.
measure() {
  local label="$1"
  shift
  local stats="$work/time.txt"
  /usr/bin/time -f "%e %M" -o "$stats" "$bin" "$@" --no-attribution >/dev/null 2>"$work/err.txt" || {
    echo "$label: failed"; cat "$work/err.txt"; return 1; }
  read -r seconds kib <"$stats"
  printf '%-44s %8.2f s %8d MiB\n' "$label" "$seconds" $((kib / 1024))
}

echo "mapcompose stress figures ($(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo))"
for n in 5 500 5000; do
  measure "$n solid layers, 800x600" --style "$(layers_style "$n")" --center 48,10 --zoom 5 "$work/out.png"
done
echo 'layers: [{id: s, source: {type: solid, color: "#3366cc"}}]' >"$work/solid.yaml"
measure "16384x16384 at zoom 8, one solid layer" --style "$work/solid.yaml" --center 48,10 --zoom 8 \
  --size 16384x16384 "$work/big.png"
measure "16384x16384 at zoom 8, default style" --center 48,10 --zoom 8 --size 16384x16384 "$work/big.png"

# One geodesic LineString of 1,000,000 points: a wandering track of ~30-m steps from
# 120°W eastward over most of the world, written with 14 decimals (about 40 MB). The
# middle point is the center of the zoomed-in view.
awk -v n=1000000 -v center="$work/center.txt" 'BEGIN {
  lon = -120; lat = 40; h = 0
  printf "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\","
  printf "\"properties\":{\"stroke\":\"#c00000\",\"geodesic\":true},"
  printf "\"geometry\":{\"type\":\"LineString\",\"coordinates\":["
  for (i = 0; i < n; i++) {
    h = 2 * sin(i * 0.013) + sin(i * 0.0007)
    lon += 0.0003 * cos(h) + 0.00025; lat += 0.0002 * sin(h)
    if (lon > 180) lon -= 360
    printf "%s[%.14f,%.14f]", (i ? "," : ""), lon, lat
    if (i == n / 2) printf "%.6f,%.6f", lat, lon >center
  }
  print "]}}]}"
}' >"$work/track.geojson"
measure "1M-point geodesic overlay, fitted, 800x600" --style "$work/solid.yaml" --overlay "$work/track.geojson" \
  "$work/track.png"
measure "1M-point geodesic overlay, zoom 12, 800x600" --style "$work/solid.yaml" --overlay "$work/track.geojson" \
  --center "$(cat "$work/center.txt")" --zoom 12 "$work/track.png"

# `diff` must refuse the file (exit 2) without allocating what its text chunk claims.
claim=Tests/Fixtures/FuzzRegressions/tile-decoder/text-chunk-claiming-128-mib.png
status=0
/usr/bin/time -f "%e %M" -o "$work/time.txt" "$bin" diff "$claim" "$claim" >/dev/null 2>"$work/err.txt" || status=$?
read -r seconds kib < <(tail -1 "$work/time.txt")
limit=120
verdict="refused (exit 2)"
if [ "$status" -ne 2 ]; then
  verdict="NOT REFUSED AS EXPECTED: exit $status, $(head -c 200 "$work/err.txt")"
elif ((kib > limit * 1024)); then
  verdict="refused, but OVER THE ${limit} MiB LIMIT"
fi
printf '%-44s %8.2f s %8d MiB  (limit %d MiB) %s\n' "diff of a PNG claiming a 128 MiB text chunk" \
  "$seconds" $((kib / 1024)) "$limit" "$verdict"
