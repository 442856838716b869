#!/usr/bin/env bash
# Installs the Debian packages mapcompose builds and runs with: Cairo, libpng, libdeflate (PNG
# decoding), libjpeg, libwebp, SQLite headers, pkg-config and the DejaVu fonts used for labels
# and attribution; MapServer (cgi-mapserver) and MapProxy (python3-mapproxy), the real WMS and
# WMTS servers the tests start on 127.0.0.1; zlib headers for libpng, and Pillow (python3-pil),
# with which the tests decode the PNG writer's files; curl, with which scripts/zlib-ng.sh
# fetches the source of the PNG writer's deflate (zlib-ng, which Debian 12 does not package)
# from PyPI; libxml2, ICU, liblzma, brotli and expat headers, whose static archives the release
# build links (scripts/static-link-libs.sh), and glibc's (libc6-dev: the release build is a
# static executable).
set -euo pipefail
packages=(pkg-config libcairo2-dev libpng-dev libdeflate-dev libjpeg-dev libwebp-dev libsqlite3-dev fonts-dejavu-core cgi-mapserver python3-mapproxy zlib1g-dev python3-pil curl ca-certificates
          libxml2-dev libicu-dev liblzma-dev libbrotli-dev libexpat1-dev libc6-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
