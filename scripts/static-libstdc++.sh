#!/usr/bin/env bash
# Puts the C++ standard library's archive (libstdc++.a, from libstdc++-12-dev, which the Swift
# toolchain needs in any case) alone into the folder given. The release build searches that
# folder first (`-Xlinker -L`, see RELEASE_LINK in the Makefile), so the `-lstdc++` that
# --static-swift-stdlib passes for the Swift runtime finds the archive there: the few parts of
# libstdc++ the runtime uses are linked into the executable, and libstdc++.so.6 is not loaded
# (nor its symbol bindings resolved) at every start. Nothing parses untrusted input in it; glibc
# and the system C libraries stay shared.
# Usage: scripts/static-libstdc++.sh DIR
set -euo pipefail
dir="${1:?usage: static-libstdc++.sh DIR}"
swift_bin="$(command -v "${SWIFT:-swift}" || true)"
archive=""
for compiler in "${swift_bin:+$(dirname "$(readlink -f "$swift_bin")")/clang}" clang cc gcc; do
  [ -n "$compiler" ] && command -v "$compiler" >/dev/null 2>&1 || continue
  candidate="$("$compiler" -print-file-name=libstdc++.a 2>/dev/null || true)"
  if [ -f "$candidate" ]; then archive="$(readlink -f "$candidate")"; break; fi
done
if [ -z "$archive" ]; then
  echo "static-libstdc++.sh: libstdc++.a not found (no compiler reports it): install libstdc++-12-dev" >&2
  exit 1
fi
mkdir -p "$dir"
ln -sfn "$archive" "$dir/libstdc++.a"
