#!/usr/bin/env python3
"""Draws real MapLibre styles over the committed OpenMapTiles-schema fixture with mapcompose and
with MapLibre Native (PyPI `pymgl`), side by side, into one contact sheet (docs/maplibre-styles.png).

The styles are not in this repository: give the style.json of each (for example the fetched
openmaptiles/positron-gl-style and openmaptiles/osm-bright-gl-style, BSD 3-Clause code, CC-BY 4.0
design). Each is rewritten before drawing: its `openmaptiles` source points at
Tests/Fixtures/MapLibre/ne-omt.pmtiles (mapcompose) or the MBTiles copy of the same tiles (pymgl
has no `pmtiles://`); `sprite` is dropped (it names a server that cannot be reached here, and
neither repository commits a built sprite sheet, only its SVG icons); `name:latin` is read from
`name`, which is all the fixture's places carry. pymgl's `glyphs` is a file:// URL of SDF glyphs
built by make_glyphs.py from the Noto fonts mapcompose draws with, so both columns show labels.

Views are mapcompose zooms; pymgl is given GL zoom = zoom - 1 (docs/maplibre.md). One pymgl map
per process (it crashes on a second). Prints each tool's stderr lines (warnings) per render and
the share of differing pixels (`mapcompose diff --threshold 0.1`).

Glyphs are built for the characters of the fixture's place names and of the styles themselves
(their inline GeoJSON). `--view NAME=LAT,LON,ZOOM` (repeatable) replaces the default views.

Usage (installs pinned PyPI packages into a cache venv when needed, see reference_env.py):
  python3 scripts/reference/make_style_sheet.py --mapcompose .build/release/mapcompose \\
      positron=/path/positron/style.json osm-bright=/path/osm-bright/style.json \\
      [--out docs/maplibre-styles.png] [--keep DIR] [--view NAME=LAT,LON,ZOOM ...]
  python3 scripts/reference/make_style_sheet.py --mapcompose .build/release/mapcompose \\
      vertical=Styles/maplibre-vertical.json --out docs/maplibre-vertical.png \\
      --view korea-z7=36.4,128.2,7 --view kansai-z7=35.0,136.2,7
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference_env  # noqa: E402
from compare_label_counts import with_source  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "Tests/Fixtures/MapLibre/ne-omt"

# name: (lat, lon, mapcompose zoom)
VIEWS = {
    "world-z2": (20, 0, 2),
    "europe-z4": (50, 10, 4),
    "europe-z5": (48, 8, 5),
}
WIDTH, HEIGHT = 400, 300


def render_pymgl(style_text, lat, lon, zoom, out):
    proc = subprocess.run([sys.executable, __file__, "--one", style_text, str(WIDTH), str(HEIGHT), str(lon), str(lat),
                           str(zoom - 1), str(out)], capture_output=True, text=True,
                          env=dict(os.environ, EGL_PLATFORM=os.environ.get("EGL_PLATFORM", "surfaceless")))
    return proc.returncode, proc.stderr


def render_mapcompose(binary, style_path, lat, lon, zoom, out):
    proc = subprocess.run([binary, "--style", str(style_path), "--center", f"{lat},{lon}", "--zoom", str(zoom),
                           "--size", f"{WIDTH}x{HEIGHT}", "--no-attribution", str(out)], capture_output=True, text=True)
    return proc.returncode, proc.stderr


def sheet(rows, out):
    from PIL import Image, ImageDraw
    label_w, head_h, gap = 110, 22, 4
    img = Image.new("RGB", (label_w + 2 * WIDTH + 3 * gap, head_h + len(rows) * (HEIGHT + gap) + gap), "white")
    draw = ImageDraw.Draw(img)
    draw.text((label_w + gap, 5), "mapcompose", fill="black")
    draw.text((label_w + 2 * gap + WIDTH, 5), "MapLibre Native (pymgl)", fill="black")
    for i, (label, left, right) in enumerate(rows):
        y = head_h + i * (HEIGHT + gap)
        draw.text((4, y + HEIGHT // 2 - 12), label, fill="black")
        for j, path in enumerate((left, right)):
            x = label_w + gap + j * (WIDTH + gap)
            if path and Path(path).exists():
                img.paste(Image.open(path).convert("RGB"), (x, y))
            else:
                draw.rectangle((x, y, x + WIDTH - 1, y + HEIGHT - 1), outline="red")
                draw.text((x + 10, y + 10), "failed", fill="red")
    img = img.quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    img.save(out, optimize=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("styles", nargs="+", help="name=path/to/style.json")
    parser.add_argument("--mapcompose", default=str(ROOT / ".build/debug/mapcompose"))
    parser.add_argument("--out", default=str(ROOT / "docs/maplibre-styles.png"))
    parser.add_argument("--keep", help="folder for the rewritten styles and single renders")
    parser.add_argument("--view", action="append", default=[], help="NAME=LAT,LON,ZOOM (mapcompose zoom)")
    args = parser.parse_args()
    views = VIEWS
    if args.view:
        views = {}
        for item in args.view:
            name, _, place = item.partition("=")
            lat, lon, zoom = (float(v) for v in place.split(","))
            views[name] = (lat, lon, zoom)
    reference_env.ensure()
    import make_glyphs
    work = Path(args.keep or tempfile.mkdtemp()).resolve()
    work.mkdir(parents=True, exist_ok=True)
    styles = [(name, json.loads(Path(path).read_text())) for name, path in (i.split("=", 1) for i in args.styles)]
    stacks = set()
    for name, style in styles:
        (work / f"{name}-original.json").write_text(json.dumps(style))
        stacks |= make_glyphs.style_stacks(work / f"{name}-original.json")
    names = ROOT / "Styles/data/ne_110m_cities.geojson"
    texts = [str(names)] + [str(work / f"{name}-original.json") for name, _ in styles]
    starts = {0} | {cp // 256 * 256 for cp in make_glyphs.code_points_of_text(texts) if cp <= 0xFFFF}
    make_glyphs.build(work / "glyphs", stacks, starts, log=lambda line: print(f"glyphs: {line}"))
    glyphs = f"file://{work / 'glyphs'}/{{fontstack}}/{{range}}.pbf"
    rows = []
    for name, style in styles:
        mc_style = work / f"{name}.json"
        mc_style.write_text(json.dumps(with_source(style, f"pmtiles://{FIXTURE}.pmtiles")))
        gl_text = json.dumps(with_source(style, f"mbtiles://{FIXTURE}.mbtiles", glyphs))
        for view, (lat, lon, zoom) in views.items():
            left, right = work / f"{name}-{view}-mapcompose.png", work / f"{name}-{view}-pymgl.png"
            rc, err = render_mapcompose(args.mapcompose, mc_style, lat, lon, zoom, left)
            print(f"{name} {view} mapcompose rc={rc}" + "".join(f"\n  {l}" for l in sorted(set(err.splitlines()))))
            rc2, err2 = render_pymgl(gl_text, lat, lon, zoom, right)
            print(f"{name} {view} pymgl rc={rc2}" + "".join(f"\n  {l}" for l in sorted(set(err2.splitlines()))[:8]))
            if rc == 0 and rc2 == 0:
                diff = subprocess.run([args.mapcompose, "diff", str(left), str(right), "--threshold", "0.1"],
                                      capture_output=True, text=True)
                print(f"  mapcompose diff: {diff.stdout.strip()}")
            rows.append((f"{name}\n{view}", left if rc == 0 else None, right if rc2 == 0 else None))
    sheet(rows, args.out)
    print(f"wrote {args.out} ({Path(args.out).stat().st_size} bytes)")


def one(text, width, height, lon, lat, zoom, path):
    from pymgl import Map
    m = Map(text, int(width), int(height), 1.0, float(lon), float(lat), float(zoom))
    Path(path).write_bytes(m.renderPNG())


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        one(*sys.argv[2:])
    else:
        main()
