#!/usr/bin/env bash
# Installs what the tests add to install-deps.sh's packages: MapServer (cgi-mapserver) and
# MapProxy (python3-mapproxy), the real WMS and WMTS servers and reference renderers the tests
# start on 127.0.0.1, and Pillow (python3-pil), with which they decode the PNG writer's files;
# and the real clients the `mapcompose serve` tests drive on 127.0.0.1: GDAL (gdal-bin, its WMS
# and TMS drivers), headless chromium, and nginx (the scale-out check behind an upstream group).
set -euo pipefail
source "$(dirname "$0")/install-debian-packages.sh"
install_debian_packages cgi-mapserver python3-mapproxy python3-pil gdal-bin chromium fonts-dejavu-core nginx
