#!/usr/bin/env bash
# Checks that a release binary is a static executable: no program interpreter (the loader) and
# no shared library to load. Everything, glibc included, is linked from archives (see the
# Makefile's RELEASE flags and static-link-libs.sh).
# Usage: scripts/check-static-binary.sh path/to/mapcompose
set -euo pipefail
binary="${1:?usage: check-static-binary.sh BINARY}"
if readelf -l "$binary" | grep -q 'INTERP'; then
  echo "check-static-binary.sh: $binary asks for a program interpreter: it is not a static executable" >&2
  exit 1
fi
needed="$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
if [ -n "$needed" ]; then
  echo "check-static-binary.sh: $binary loads shared libraries it should link statically:" >&2
  echo "$needed" >&2
  exit 1
fi
echo "check-static-binary.sh: $binary is a static executable (no interpreter, no shared library)"
