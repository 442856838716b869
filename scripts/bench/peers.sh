#!/usr/bin/env bash
# Peer benchmark (`make bench-peers`): mapcompose (whole process) against py-staticmaps (Cairo
# renderer) and MapProxy (WMS GetMap through its WSGI app), both warm and timed inside their own
# Python process, on the same committed tile folder served over 127.0.0.1. Prints the machine,
# the versions, the median ms of each at 512², 1024² and 2048², the ratios (also with mapcompose
# held to one core, as the peers are single-threaded) and the pixel difference of each peer's
# output against mapcompose's.
# Installs python3-venv, python3-cairo, python3-pil and python3-mapproxy from Debian if missing,
# and py-staticmaps from PyPI into a virtual environment in a temporary folder removed at the end.
# Usage: scripts/bench/peers.sh [path/to/mapcompose]   (default: .build/release/mapcompose)
#        BENCH_REPEATS=N (default 15) timed runs per tool and size.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(realpath "${1:-.build/release/mapcompose}")"
[ -x "$bin" ] || { echo "peers.sh: $bin not found (make build first)" >&2; exit 2; }

source scripts/install-debian-packages.sh
install_debian_packages python3-venv python3-cairo python3-pil python3-yaml python3-mapproxy

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Debian's Python, so that the Debian pycairo, Pillow and MapProxy are importable in the venv.
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check py-staticmaps

# pyproj (under MapProxy) looks for its data in the venv; Debian's PROJ keeps it here.
[ -d /usr/share/proj ] && export PROJ_DATA=/usr/share/proj
"$work/venv/bin/python" scripts/bench/peers.py --mapcompose "$bin" \
  --tiles Tests/Fixtures/Reference/tiles --work "$work" --repeats "${BENCH_REPEATS:-15}"
