#!/usr/bin/env bash
# Builds the libFuzzer targets (ASan + libFuzzer) and runs each for SECONDS.
# Usage: Fuzz/run.sh SECONDS [target ...]
#   targets: style tile-decoder geojson mbtiles arcgis-bundle arcgis-conf manifest xml vector-tile pmtiles maplibre-style
#   expression png-structure png-differential (the png-* targets are C, PNG/png_fuzz.c, built with clang: see there)
# FUZZ_RUNS=N also stops a target after N executions. Prints per target its executions, time
# and result; exits 1 when any target found a crash, leak, timeout or out-of-memory input
# (saved under Fuzz/.artifacts/<target>/; add it to Tests/Fixtures/FuzzRegressions/<target>/).
set -u
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=${*:-style tile-decoder geojson mbtiles arcgis-bundle arcgis-conf manifest xml vector-tile pmtiles maplibre-style expression png-structure png-differential}
runs=${FUZZ_RUNS:--1}
swift=${SWIFT:-swift}

$swift build -c release --build-path .build \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -g -Xcc -fsanitize=fuzzer-no-link,address || exit 2
# The PNG decoder's targets, straight from its C sources.
clang=$(dirname "$(command -v "$swift")")/clang
codecs=../Sources/CImageCodecs
for variant in structure differential; do
    define=""; [ "$variant" = differential ] && define="-DDIFFERENTIAL"
    "$clang" -g -O1 -fsanitize=fuzzer,address $define -I$codecs -I$codecs/include PNG/png_fuzz.c \
        $codecs/png_fast.c ../Sources/CPixelMemory/huge_pages.c -I../Sources/CPixelMemory/include -lpng16 -ldeflate -lz -o ".build/release/FuzzPNG-$variant" 2>/dev/null || exit 2
done
python3 make-corpus.py || exit 2
mkdir -p .logs
# Whatever a target would cache goes to a folder of its own, removed at the end.
XDG_CACHE_HOME=$(mktemp -d)
export XDG_CACHE_HOME
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT

failed=0
for target in $targets; do
    case $target in
        style)        binary=FuzzStyle;       max_len=65536 ;;
        tile-decoder) binary=FuzzTileDecoder; max_len=262144 ;;
        geojson)      binary=FuzzGeoJSON;     max_len=65536 ;;
        mbtiles)      binary=FuzzMBTiles;     max_len=65536 ;;
        arcgis-bundle) binary=FuzzArcGISBundle; max_len=262144 ;;
        arcgis-conf)  binary=FuzzArcGISConf;  max_len=65536 ;;
        manifest)     binary=FuzzManifest;    max_len=65536 ;;
        xml)          binary=FuzzXML;         max_len=65536 ;;
        vector-tile)  binary=FuzzVectorTile;  max_len=65536 ;;
        pmtiles)      binary=FuzzPMTiles;     max_len=65536 ;;
        maplibre-style) binary=FuzzMapLibreStyle; max_len=65536 ;;
        expression)   binary=FuzzExpression;  max_len=16384 ;;
        png-structure)    binary=FuzzPNG-structure;    max_len=300000 ;;
        png-differential) binary=FuzzPNG-differential; max_len=300000 ;;
        *) echo "unknown fuzz target '$target' (expected style, tile-decoder, geojson, mbtiles, arcgis-bundle, arcgis-conf, manifest, xml, vector-tile, pmtiles, maplibre-style, expression, png-structure or png-differential)"; exit 2 ;;
    esac
    mkdir -p ".artifacts/$target"
    log=".logs/$target.log"
    start=$(date +%s)
    # Leaks are checked once, at exit (LSan, with the font caches in lsan.supp set aside): a
    # check after every input that allocated more than it freed costs 5x the executions here,
    # because Cairo and Dispatch free some memory after the input returns.
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} LSAN_OPTIONS="suppressions=$PWD/lsan.supp" ".build/release/$binary" \
        -max_total_time="$seconds" -runs="$runs" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
        -dict="Dictionaries/$target.dict" -artifact_prefix=".artifacts/$target/" -print_final_stats=1 \
        ".corpus/$target" > "$log" 2>&1
    status=$?
    elapsed=$(( $(date +%s) - start ))
    executions=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$')
    [ -n "$executions" ] || executions=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    if [ "$status" -eq 0 ]; then
        result="ok"
    else
        failed=1
        artifact=$(grep -o "Test unit written to [^ ]*" "$log" | tail -1 | sed 's/Test unit written to //')
        kind=$(grep -m1 -o "ERROR: [A-Za-z]*Sanitizer: [a-z-]*\|ERROR: libFuzzer: [a-z-]*\|Fatal error: .*" "$log")
        result="FAILED (exit $status${kind:+: $kind}${artifact:+, input $artifact}; log Fuzz/$log)"
    fi
    echo "fuzz $target: ${executions:-0} executions in ${elapsed}s, $result"
done
exit $failed
