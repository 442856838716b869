#!/usr/bin/env bash
# Builds zlib-ng, the deflate the PNG writer compresses with, as a static library installed into
# the folder given (include/, lib/libz-ng.a and lib/pkgconfig/zlib-ng.pc, through which
# Package.swift's CZlibNG finds it: `make` puts that folder on PKG_CONFIG_PATH), unless the folder
# already holds this version.
#
# zlib-ng takes about half of zlib's time for the same streams on the PNG writer's strips (its
# window slide, run-length matcher and checksums are vectorised), with the same API under a
# `zng_` prefix, so it links beside the zlib that libpng and Cairo use. Debian 12 does not
# package it; its release source comes from the python-zlib-ng source distribution on PyPI
# (python-zlib-ng 1.1.0 carries zlib-ng 2.3.3), checked against a pinned SHA-256.
# Usage: scripts/zlib-ng.sh DIR
set -euo pipefail
dir="${1:?usage: zlib-ng.sh DIR}"
version="2.3.3"
sdist_url="https://files.pythonhosted.org/packages/25/c8/2914b13c7972dccf8774947ffe781b761b483aa190e55a4aa89886982daa/zlib_ng-1.1.0.tar.gz"
sdist_sha256="08a3a8468d4f130e3dc80d28ec42fcc7a878a57dfed616233e791066327d78a3"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
stamp="$dir/zlib-ng-$version.built"
pc="$dir/lib/pkgconfig/zlib-ng.pc"

# Built, and for this folder (the .pc file names it: a moved checkout builds again).
if [ -f "$stamp" ] && [ -f "$dir/lib/libz-ng.a" ] && [ -f "$dir/include/zlib-ng.h" ] && [ -f "$pc" ] &&
   grep -qxF "prefix=$dir" "$pc"; then
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "zlib-ng.sh: building zlib-ng $version into $dir"
if ! curl -fsSL --retry 3 -o "$work/sdist.tar.gz" "$sdist_url"; then
  echo "zlib-ng.sh: could not download $sdist_url (PyPI must be reachable to build mapcompose)" >&2
  exit 1
fi
if ! echo "$sdist_sha256  $work/sdist.tar.gz" | sha256sum --check --status; then
  echo "zlib-ng.sh: $sdist_url does not have the SHA-256 $sdist_sha256; not building from it" >&2
  exit 1
fi
tar -xzf "$work/sdist.tar.gz" -C "$work"
source_dir="$work/zlib_ng-1.1.0/src/zlib_ng/zlib-ng"
grep -q "ZLIBNG_VERSION \"$version\"" "$source_dir/zlib-ng.h.in" || {
  echo "zlib-ng.sh: the source distribution does not hold zlib-ng $version" >&2
  exit 1
}
# Position-independent: debug builds link it into position-independent test executables.
(cd "$source_dir" && CFLAGS="-O2 -fPIC" ./configure --static --prefix="$dir" > "$work/configure.log" 2>&1) || {
  cat "$work/configure.log" >&2
  exit 1
}
make -C "$source_dir" -j"$(nproc)" libz-ng.a > "$work/make.log" 2>&1 || { tail -40 "$work/make.log" >&2; exit 1; }
rm -rf "$dir"
make -C "$source_dir" install > "$work/install.log" 2>&1 || { tail -40 "$work/install.log" >&2; exit 1; }
# The gz* file functions are not used; their define would be the only compiler flag beyond -I.
sed -i 's/^Cflags: .*/Cflags: -I${includedir}/' "$pc"
cp "$source_dir/LICENSE.md" "$dir/LICENSE.md"
touch "$stamp"
