#!/usr/bin/env bash
# Regenerates Tests/Fixtures/OverlayReference/mapserver.png with Debian's MapServer (installed
# when missing; see make_overlay_reference.py). No network is used except by apt-get.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../install-debian-packages.sh
source "$here/../install-debian-packages.sh"
install_debian_packages cgi-mapserver mapserver-bin python3 python3-pil
cd "$here/../.."
exec /usr/bin/python3 scripts/reference/make_overlay_reference.py "$@"
