#!/usr/bin/env bash
# Writes scripts/link-order.txt: the functions typical runs execute (the quick start, renders
# from a tile folder on whole pixels and between pixels, `--version`), as callgrind saw them.
# The release link (the Makefile's RELEASE flags) hands the list to lld, which places those
# functions together at the start of the text: a render then maps fewer of the executable's
# pages (page faults at start, page tables to tear down at exit). Names no longer in the
# program are skipped by the linker; run this again after larger changes. Needs valgrind.
# Usage: scripts/link-order.sh [path/to/mapcompose]   (default: .build/release/mapcompose)
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$(realpath "${1:-.build/release/mapcompose}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# valgrind cannot read the release binary's debug information: a copy without it.
strip --strip-debug -o "$work/mapcompose" "$binary"
printf 'layers:\n  - {id: tiles, source: {type: xyz, path: "%s/{z}/{x}/{y}.png"}}\n' \
  "$PWD/Tests/Fixtures/Reference/tiles" > "$work/folder.yaml"
run() {
  local name="$1"
  shift
  if ! (cd "$work" && valgrind --tool=callgrind --demangle=no --callgrind-out-file="cg.$name.out" \
          ./mapcompose "$@" > "log.$name" 2>&1); then
    cat "$work/log.$name" >&2
    exit 1
  fi
}
run version --version
run quickstart --center 51.5,-0.12 --zoom 5 london.png
run whole-pixels --style folder.yaml --center 54.16243396678133,-2.812499997802746 --zoom 6 --size 1024x1024 \
  --no-attribution whole.png
run between-pixels --style folder.yaml --center 54.1,-2.7 --zoom 6 --size 1024x1024 --no-attribution between.png
# Each callgrind file names a function at its first "fn=(N) NAME" or "cfn=(N) NAME"; recursion
# levels are suffixed 'N, and functions without a symbol are addresses.
python3 - "$work" > scripts/link-order.txt <<'PY'
import glob, re, sys
seen = {}
for path in sorted(glob.glob(sys.argv[1] + "/cg.*.out")):
    for line in open(path, errors="replace"):
        match = re.match(r"^c?fn=\(\d+\) (.+)$", line.rstrip("\n"))
        if match:
            name = re.sub(r"'\d+$", "", match.group(1).strip())
            if not name.startswith("0x") and not name.startswith("("):
                seen.setdefault(name, None)
print("\n".join(seen))
PY
echo "scripts/link-order.txt: $(wc -l < scripts/link-order.txt) functions"
