#!/usr/bin/env bash
# Installs the Debian packages mapcompose builds and runs with: Cairo, Pango (with HarfBuzz and
# fontconfig), libpng, libdeflate, libjpeg, libwebp, libcurl (OpenSSL), SQLite and libxml2
# headers, pkg-config, the Noto fonts all text is set in (fonts-noto-core for Latin, Cyrillic,
# Greek and most other scripts, fonts-noto-cjk for Chinese, Japanese and Korean; see
# docs/text.md), and curl, with which scripts/zlib-ng.sh fetches the source of the PNG writer's
# deflate (zlib-ng, which Debian 12 does not package) from PyPI.
# What only the tests need is in install-test-deps.sh.
set -euo pipefail
packages=(pkg-config libcairo2-dev libpango1.0-dev libpng-dev libdeflate-dev libjpeg-dev libwebp-dev
          libcurl4-openssl-dev libsqlite3-dev libxml2-dev zlib1g-dev fonts-noto-core fonts-noto-cjk curl
          ca-certificates)
source "$(dirname "$0")/install-debian-packages.sh"
install_debian_packages "${packages[@]}"
