#!/usr/bin/env bash
# Checks WebP, PDF, SVG and world-file outputs with independent readers (dwebp, poppler,
# librsvg, GDAL; installed when missing) and writes Tests/Fixtures/OutputChecks/results.json.
# Usage: scripts/reference/check-outputs.sh [path/to/mapcompose]   (default .build/debug/mapcompose)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../install-debian-packages.sh
source "$here/../install-debian-packages.sh"
install_debian_packages webp poppler-utils librsvg2-bin gdal-bin python3 python3-pil
cd "$here/../.."
exec /usr/bin/python3 scripts/reference/check_outputs.py "$@"
