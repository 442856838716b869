#!/usr/bin/env bash
# Writes, into the folder given, one linker script per C library the release binary links
# (libcairo.a, libpng16.a, …), each naming that library's static archive and the archives it
# needs in turn. `make build` links a static executable with the folder first on the library
# search path, so every `-lcairo`, `-lxml2`, `-lsqlite3` (including those the Swift modules ask
# for themselves) links the archive with everything it depends on.
# Usage: scripts/static-link-libs.sh DIR
set -euo pipefail
dir="${1:?usage: static-link-libs.sh DIR}"
mkdir -p "$dir"
# Scripts named lib*.so by earlier versions of this script.
rm -f "$dir"/lib*.so

# The archive's full path, from the compiler's own search path; a missing one names its package.
archive() {
  local path
  path="$(${CC:-cc} -print-file-name="lib$1.a")"
  if [ ! -f "$path" ]; then
    echo "static-link-libs.sh: lib$1.a not found (install $2, or run 'make deps')" >&2
    exit 1
  fi
  printf '%s ' "$path"
}

# NAME: the archives, each as library:package, in link order.
write() {
  local name="$1" inputs="" entry
  shift
  for entry in "$@"; do inputs+="$(archive "${entry%%:*}" "${entry#*:}")"; done
  printf 'INPUT(%s)\n' "${inputs% }" > "$dir/lib$name.a.tmp"
  mv "$dir/lib$name.a.tmp" "$dir/lib$name.a"
}

# Cairo as Debian builds it: image, PDF, SVG, FreeType/fontconfig text, and the X11/XCB
# surfaces (never used here, but referenced by the archive's font options).
write cairo cairo:libcairo2-dev pixman-1:libpixman-1-dev fontconfig:libfontconfig-dev \
  freetype:libfreetype-dev png16:libpng-dev expat:libexpat1-dev brotlidec:libbrotli-dev \
  brotlicommon:libbrotli-dev z:zlib1g-dev xcb-shm:libxcb-shm0-dev xcb-render:libxcb-render0-dev \
  Xrender:libxrender-dev Xext:libxext-dev X11:libx11-dev xcb:libxcb1-dev Xau:libxau-dev \
  Xdmcp:libxdmcp-dev
write png16 png16:libpng-dev z:zlib1g-dev
write jpeg jpeg:libjpeg-dev
write webp webp:libwebp-dev
write z z:zlib1g-dev
write deflate deflate:libdeflate-dev
write sqlite3 sqlite3:libsqlite3-dev
# Foundation's XML parser (WMS and WMTS capabilities) on libxml2, which needs ICU.
write xml2 xml2:libxml2-dev icuuc:libicu-dev icudata:libicu-dev lzma:liblzma-dev z:zlib1g-dev
write stdc++ stdc++:libstdc++-12-dev
