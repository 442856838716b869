#!/usr/bin/env bash
# Batch and diff figures:
# - `mapcompose batch` of 500 maps of 512x512 from two MBTiles layers (a region of Europe,
#   zooms 5…7): maps/s, tiles decoded per map (reuse through the shared tile store) and peak
#   RSS; then 5000 such maps for the peak RSS (flat: the manifest is streamed, the tile memory
#   is bounded).
# - `mapcompose batch` of 500 vector maps of 512x512: Styles/maplibre.json over the committed
#   OpenMapTiles-schema fixture (PMTiles), centres spread over Europe, mapcompose zooms 3…7:
#   maps/s and peak RSS.
# - PNG decoding: per 256-px tile through Cairo's reader (the old path) and mapcompose's
#   decoder, and of each PNG of the diff pair.
# - `mapcompose diff` on a 2048x2048 pair: the comparison alone in Mpixel/s, the whole process
#   (decoding both PNGs included, best and median of 10 runs) next to the 63 ms goal, and the
#   PyPI pixelmatch package on the same pair (its diff step, once).
# Usage: scripts/bench/batch.sh [mapcompose] [MapComposeBench]   (default: .build/release/…)
set -euo pipefail
bin="$(realpath "${1:-.build/release/mapcompose}")"
bench="$(realpath "${2:-.build/release/MapComposeBench}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$bench" batch-fixture "$work/batch" >/dev/null
for n in 500 5000; do
  rm -rf "$work/out"
  /usr/bin/time -f "%e %M" -o "$work/time.txt" "$bin" batch "$work/batch/manifest-$n.jsonl" --out "$work/out" \
    --results "$work/results.jsonl" 2>"$work/err.txt" || { echo "batch of $n failed"; tail -5 "$work/err.txt"; exit 1; }
  read -r seconds kib <"$work/time.txt"
  decoded=$(python3 -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; print(sum(x['tilesDecoded'] for x in r) / len(r))" "$work/results.jsonl")
  printf 'batch of %5d maps 512x512 from MBTiles (%d cores): %6.1f s, %6.1f maps/s, %5.2f tiles decoded per map, peak RSS %d MiB\n' \
    "$n" "$(nproc)" "$seconds" "$(echo "$n / $seconds" | bc -l)" "$decoded" $((kib / 1024))
done

# 500 vector maps: a manifest of views of the fixture (a fixed pseudo-random spread).
style="$(realpath "$(dirname "$0")/../../Styles/maplibre.json")"
python3 - "$style" "$work/vector.jsonl" <<'PY'
import json, random, sys
rng = random.Random(500)
with open(sys.argv[2], "w") as f:
    for i in range(500):
        job = {"id": f"v{i}", "output": f"vector/{i}.png", "style": sys.argv[1], "size": "512x512",
               "center": [round(rng.uniform(38, 60), 4), round(rng.uniform(-8, 25), 4)], "zoom": rng.choice([3, 4, 5, 6, 7])}
        f.write(json.dumps(job) + "\n")
PY
rm -rf "$work/out"
/usr/bin/time -f "%e %M" -o "$work/time.txt" "$bin" batch "$work/vector.jsonl" --out "$work/out" --allow-outside-paths \
  --results "$work/results.jsonl" 2>"$work/err.txt" || { echo "vector batch failed"; tail -5 "$work/err.txt"; exit 1; }
read -r seconds kib <"$work/time.txt"
printf 'batch of   500 vector maps 512x512, Styles/maplibre.json over the PMTiles fixture, zooms 3-7 (%d cores): %6.1f s, %6.1f maps/s, peak RSS %d MiB\n' \
  "$(nproc)" "$seconds" "$(echo "500 / $seconds" | bc -l)" $((kib / 1024))

"$bench" diff-fixture "$work/diff" >/dev/null
"$bench" png-decode "$work/diff/a.png" "$work/diff/b.png"
"$bench" diff-speed "$work/diff/a.png" "$work/diff/b.png"
times=()
for _ in $(seq 10); do
  start=$(date +%s%N)
  "$bin" diff "$work/diff/a.png" "$work/diff/b.png" >"$work/diff.txt" || true
  times+=($((($(date +%s%N) - start) / 1000)))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
printf 'mapcompose diff, whole process (2048x2048 PNGs decoded + compared): best %.1f ms, median %.1f ms (goal: under 63 ms, the JS pixelmatch diff step alone): %s' \
  "$(echo "${sorted[0]} / 1000" | bc -l)" "$(echo "${sorted[5]} / 1000" | bc -l)" "$(cat "$work/diff.txt")"
echo
if python3 -c 'import pixelmatch, PIL' 2>/dev/null; then
  python3 - "$work/diff/a.png" "$work/diff/b.png" <<'PY'
import sys, time
from importlib.metadata import version
from PIL import Image
from pixelmatch.contrib.PIL import pixelmatch
a, b = Image.open(sys.argv[1]), Image.open(sys.argv[2])
a.load(); b.load()
start = time.perf_counter()
n = pixelmatch(a, b, threshold=0.1)
seconds = time.perf_counter() - start
print(f"PyPI pixelmatch {version('pixelmatch')} (its diff step, PNGs already decoded): {seconds * 1000:.0f} ms = "
      f"{a.size[0] * a.size[1] / 1e6 / seconds:.2f} Mpixel/s, {n} pixels differ")
PY
else
  echo "PyPI pixelmatch: not installed (pip install pixelmatch pillow) — skipped"
fi
