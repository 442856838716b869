#!/usr/bin/env bash
# Checks how a release binary is linked: a position-independent executable (ELF type DYN with a
# program interpreter), the Swift runtime and the libstdc++ it uses inside it (no libswiftCore.so
# or libstdc++.so to load), and glibc and the system C libraries loaded from the system (libc,
# Cairo, libpng, SQLite; libcurl, HarfBuzz, Pango, libxml2, libjpeg and libwebp are loaded on first use, see
# Sources/CCurl and Sources/CLibraryLoader); its relative
# relocations packed (DT_RELR), its own symbols not exported (see RELEASE_LINK in the Makefile)
# and no run path (RELEASE).
# Usage: scripts/check-release-binary.sh path/to/mapcompose
set -euo pipefail
binary="${1:?usage: check-release-binary.sh BINARY}"
fail() { echo "check-release-binary.sh: $binary: $*" >&2; exit 1; }
readelf -h "$binary" | grep -q 'Type:.*DYN' || fail "not a position-independent executable (ELF type is not DYN)"
readelf -l "$binary" | grep -q 'INTERP' || fail "no program interpreter: not dynamically linked"
needed="$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
for lib in libc.so libcairo.so libpng16.so libsqlite3.so; do
  grep -q "^$lib" <<<"$needed" || fail "does not load $lib from the system"
done
if grep -q '^libswift\|^libFoundation' <<<"$needed"; then fail "loads the Swift runtime instead of carrying it"; fi
for lib in libjpeg.so libwebp.so libxml2.so libpango libharfbuzz.so libcurl.so; do
  if grep -q "^$lib" <<<"$needed"; then fail "loads $lib at start-up (it is loaded on first use: see Sources/CLibraryLoader)"; fi
done
if grep -q '^libstdc++' <<<"$needed"; then fail "loads libstdc++.so (see STATIC_CXX in the Makefile)"; fi
readelf -d "$binary" | grep -q '(RELR)' || fail "relative relocations not packed (no DT_RELR: see RELEASE_LINK in the Makefile)"
if readelf -d "$binary" | grep -q '(RUNPATH)\|(RPATH)'; then
  fail "has a run path ($(readelf -d "$binary" | sed -n 's/.*path: \[\(.*\)\]/\1/p')): libraries would be looked for there first (see RELEASE in the Makefile)"
fi
exported="$(readelf --dyn-syms -W "$binary" | awk '$7 != "UND" && $5 == "GLOBAL"' | wc -l)"
[ "$exported" -lt 100 ] || fail "exports $exported symbols of its own (linked with --export-dynamic?)"
echo "check-release-binary.sh: $binary is a PIE; Swift runtime and libstdc++ inside; system libraries: $(tr '\n' ' ' <<<"$needed")"
