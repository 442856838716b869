#!/usr/bin/env bash
# Regenerate Tests/Fixtures/WMTS: MapProxy's WMTS capabilities documents (KVP and RESTful) for
# the standard Web Mercator grid and the custom grid of the ArcGIS fixture. Installs Debian's
# python3-mapproxy when missing, then runs make_wmts_capabilities.py.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../install-debian-packages.sh
source "$here/../install-debian-packages.sh"
install_debian_packages python3-mapproxy python3-pil python3-numpy
cd "$here/../.."
exec /usr/bin/python3 scripts/reference/make_wmts_capabilities.py "$@"
