#!/usr/bin/env bash
# Opens the HTML report of `mapcompose check` in a real browser (Debian's chromium, headless)
# and checks that the page shows the failing case: a suite of two cases where one expectation
# shows another place is checked, the report is loaded by chromium (its DOM after scripts ran,
# and a screenshot), and the script fails unless the first case on the page is the failing
# one, marked FAILED, and the screenshot shows its red marker and its diff image's red pixels
# above the passing case.
# Usage: scripts/check-report-browser.sh [path/to/mapcompose]  (default: .build/debug/mapcompose)
# Screenshot and DOM: Output/check-browser/.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(realpath "${1:-.build/debug/mapcompose}")"
source scripts/install-debian-packages.sh
install_debian_packages chromium fonts-dejavu-core
python3 -c 'import PIL' 2>/dev/null || python3 -m pip install --quiet pillow

out="$PWD/Output/check-browser"
rm -rf "$out"
mkdir -p "$out/suite/london" "$out/suite/tokyo"
printf 'style: default\ncenter: "51.5,-0.12"\nzoom: 4\nsize: 240x160\n' >"$out/suite/london/case.yaml"
printf 'style: default\ncenter: [35.7, 139.7]\nzoom: 4\nsize: 240x160\n' >"$out/suite/tokyo/case.yaml"
cd "$out"
"$bin" check suite --update --out report >/dev/null
cp suite/london/expected.png suite/tokyo/expected.png   # tokyo now expects London: it must fail
status=0
"$bin" check suite --out report >check.txt || status=$?
cat check.txt
if [ "$status" -ne 1 ]; then echo "check-report-browser: expected mapcompose check to exit 1, got $status" >&2; exit 1; fi

page="file://$out/report/index.html"
browser=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1000)
"${browser[@]}" --dump-dom "$page" >dom.html 2>chromium.log
"${browser[@]}" --screenshot="$out/screenshot.png" "$page" >>chromium.log 2>&1

python3 - "$out" <<'PY'
import re, sys
from pathlib import Path
from PIL import Image

out = Path(sys.argv[1])
dom = (out / "dom.html").read_text()
sections = re.findall(r'<section class="case (\w+)" id="case-([^"]+)">\s*<h2><span class="status">(\w+)</span>', dom)
problems = []
if not sections or sections[0][:2] != ("failed", "tokyo") or sections[0][2] != "failed":
    problems.append(f"the first case on the page is not the failing one: {sections}")
if "1 of 2 cases failed" not in dom:
    problems.append("the page does not say 1 of 2 cases failed")
shot = Image.open(out / "screenshot.png").convert("RGB")
w, h = shot.size
px = shot.load()
def count(colour, top, bottom, tolerance=12):
    return sum(1 for y in range(top, bottom) for x in range(w)
               if all(abs(a - b) <= tolerance for a, b in zip(px[x, y], colour)))
# The passing case's green marker starts where the failing case's section ends.
green_rows = [y for y in range(h) if any(px[x, y] == (42, 157, 72) for x in range(0, 60))]
split = green_rows[0] if green_rows else h
marker = count((214, 40, 40), 0, split)
diff_red = count((255, 0, 0), 0, split, tolerance=0)
print(f"check-report-browser: sections {[s[1] + ':' + s[0] for s in sections]}, red marker {marker} px and "
      f"{diff_red} pure red diff px above the passing case (row {split}) in a {w}x{h} screenshot")
if marker < 200:
    problems.append("no red failure marker above the passing case")
if diff_red < 1000:
    problems.append("the failing case's diff image is not shown (too few red pixels)")
if problems:
    print("check-report-browser: FAILED: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"check-report-browser: ok ({out / 'screenshot.png'})")
PY
