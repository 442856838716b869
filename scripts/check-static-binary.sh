#!/usr/bin/env bash
# Checks that a release binary needs no shared library but the C runtime's (libc, libm,
# libgcc_s, the loader): the C libraries are linked from their archives (static-link-libs.sh).
# Usage: scripts/check-static-binary.sh path/to/mapcompose
set -euo pipefail
binary="${1:?usage: check-static-binary.sh BINARY}"
needed="$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
unexpected="$(grep -vE '^(libc\.so\.6|libm\.so\.6|libgcc_s\.so\.1|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1)$' <<< "$needed" || true)"
if [ -n "$unexpected" ]; then
  echo "check-static-binary.sh: $binary loads shared libraries it should link statically:" >&2
  echo "$unexpected" >&2
  exit 1
fi
echo "check-static-binary.sh: $binary needs only: $(echo $needed)"
