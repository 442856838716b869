#!/usr/bin/env bash
# Peer benchmark (`make bench-peers`): mapcompose (whole process) against py-staticmaps (Cairo
# renderer) and MapProxy (WMS GetMap through its WSGI app), both warm and timed inside their own
# Python process, on the same tiles served over 127.0.0.1, in two cases (peers.py): a single
# layer of the committed tile folder at 512², 1024² and 2048², and a realistic map (two layers,
# the second at opacity 0.5, a fractional zoom, markers and a path, the attribution) at 1024² and
# 2048²; and a vector case (peers.py): the committed MapLibre style over the OpenMapTiles-schema
# fixture at 1024² and 2048², mapcompose zooms 5-7, against MapLibre Native (PyPI pymgl, warm in
# its own process, headless through Mesa's EGL). Prints the machine, the versions, and per case the median ms of each tool, the ratios
# (also against mapcompose held to one core, as the peers are single-threaded) and the share of
# pixels of each peer's output that differ from mapcompose's.
# Installs python3-venv, python3-cairo, python3-pil and python3-mapproxy from Debian if missing,
# libegl1, libegl-mesa0 and libgl1-mesa-dri, and py-staticmaps and pymgl from PyPI into a virtual environment in a temporary folder removed at the end.
# BENCH_PEERS=none (as `make bench` runs it) times mapcompose alone on the same cases, with
# Debian's Python and Pillow, installing nothing from PyPI.
# Usage: scripts/bench/peers.sh [path/to/mapcompose]   (default: .build/release/mapcompose)
#        BENCH_REPEATS=N (default 15) timed runs per tool and view; BENCH_CASES=raster or vector
#        (default both); BENCH_PEERS=a,b picks peers (py-staticmaps, MapProxy, MapLibre-Native).
set -euo pipefail
bin="$(realpath "${1:-.build/release/mapcompose}")"
cd "$(dirname "$0")/../.."
[ -x "$bin" ] || { echo "peers.sh: $bin not found (make build first)" >&2; exit 2; }
peers="${BENCH_PEERS:-py-staticmaps,MapProxy,MapLibre-Native}"

source scripts/install-debian-packages.sh
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ "$peers" = none ]; then
  install_debian_packages python3-pil
  python=/usr/bin/python3
else
  install_debian_packages python3-venv python3-cairo python3-pil python3-yaml python3-mapproxy \
    libegl1 libegl-mesa0 libgl1-mesa-dri
  # Debian's Python, so that the Debian pycairo, Pillow and MapProxy are importable in the venv.
  /usr/bin/python3 -m venv --system-site-packages "$work/venv"
  "$work/venv/bin/pip" install --quiet --disable-pip-version-check py-staticmaps pymgl
  python="$work/venv/bin/python"
fi

# pyproj (under MapProxy) looks for its data in the venv; Debian's PROJ keeps it here.
[ -d /usr/share/proj ] && export PROJ_DATA=/usr/share/proj
# MapLibre Native (pymgl) without a display.
export EGL_PLATFORM=surfaceless
"$python" scripts/bench/peers.py --mapcompose "$bin" --peers "$peers" \
  --tiles Tests/Fixtures/Reference/tiles --work "$work" --repeats "${BENCH_REPEATS:-15}" \
  --cases "${BENCH_CASES:-raster,vector}"
