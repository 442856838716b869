#!/usr/bin/env python3
"""Counts the labels that mapcompose and MapLibre Native (PyPI pymgl) place for the same styles
over the committed OpenMapTiles-schema fixture (Tests/Fixtures/MapLibre/ne-omt.pmtiles; pymgl
reads the MBTiles copy), at the same views (mapcompose zoom z, MapLibre GL zoom z − 1, 1024²),
and prints a table: labels placed by each and the difference in % of MapLibre Native's count.

How labels are counted, identically in both renderers: each style is rewritten so that only its
symbol layers with text are drawn (every other layer hidden, so the background is transparent),
icons are left out (`icon-image` removed), halos are transparent (their width is kept, as it
takes part in mapcompose's collision boxes), `text-opacity` is 1 and `text-color` encodes the
feature's id:

  rgb(16 + 32·(⌊id/64⌋ mod 8), 16 + 32·(⌊id/8⌋ mod 8), 16 + 32·(id mod 8))

The fixture's capitals have ids 1-243, so each colour is one place. A label is a colour with at
least MIN_PIXELS pixels of alpha ≥ 128 in the image (channels snapped to the nearest step of 32,
which antialiasing and premultiplied alpha do not cross). Labels placed are those whole on the
map: a label with a pixel within EDGE pixels of the map's edge is cut by it (MapLibre Native
draws labels across the edge, mapcompose leaves them out) and is counted apart. Labels of features without an id would
all be one colour (code 0); the fixture's places all have ids.

Styles: Styles/maplibre-labels.json, plus any `name=path/to/style.json` given (for example
Positron and OSM Bright, as for make_style_sheet.py). Their `name:latin` is read from `name` and
`name:nonlatin` is left absent, since the fixture's places carry `name` only (as OpenMapTiles
tiles leave `name:nonlatin` out for Latin names). MapLibre Native gets SDF glyphs built by
make_glyphs.py from the same Noto fonts (a file:// glyphs URL).

Usage (installs pinned PyPI packages into a cache venv when needed, see reference_env.py):
  python3 scripts/reference/compare_label_counts.py --mapcompose .build/release/mapcompose \\
      [positron=path/style.json osm-bright=path/style.json] [--keep DIR] [--details]
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference_env  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "Tests/Fixtures/MapLibre/ne-omt"
NAMES = ROOT / "Styles/data/ne_110m_cities.geojson"
SIZE = 1024
MIN_PIXELS = 4
# Pixels from the map's edge within which a label counts as cut by it.
EDGE = 2
# Pixels between the middles of a label's two renders within which it is at the same place.
SAME_PLACE = 6
STEP = 32

# name: (lat, lon, mapcompose zoom)
VIEWS = {
    "europe-z3": (50, 10, 3),
    "africa-z3": (-10, 20, 3),
    "americas-z3": (10, -80, 3),
    "europe-z4": (50, 10, 4),
    "asia-z4": (25, 100, 4),
    "west-africa-z5": (10, 0, 5),
    "central-europe-z5": (48, 12, 5),
    "caribbean-z6": (15, -70, 6),
    "balkans-z6": (43, 20, 6),
    "benelux-z7": (50.5, 5, 7),
}

ID = ["coalesce", ["id"], 0]


def channel(divisor):
    return ["+", STEP // 2, ["*", STEP, ["%", ["floor", ["/", ID, divisor]], 8]]]


CODE = ["rgb", channel(64), channel(8), channel(1)]


def latin_from_name(value):
    """The value with `name:latin` read from `name` (in expressions and `{token}` strings)."""
    if isinstance(value, str):
        return "name" if value == "name:latin" else value.replace("{name:latin}", "{name}")
    if isinstance(value, list):
        return [latin_from_name(v) for v in value]
    if isinstance(value, dict):
        return {k: latin_from_name(v) for k, v in value.items()}
    return value


def without_nonlatin(value):
    """A text-field without `name:nonlatin` and the separator before it."""
    if isinstance(value, str):
        return re.sub(r"\s*\{name:nonlatin\}", "", value)
    if isinstance(value, list):
        out = []
        for v in value:
            if v == ["get", "name:nonlatin"]:
                if out and isinstance(out[-1], str) and not out[-1].strip() and len(out) > 1:
                    out.pop()
                continue
            out.append(without_nonlatin(v))
        return out
    return value


def with_source(style, url, glyphs=None, nonlatin=True):
    """The style with its `openmaptiles` source at `url`, `name:latin` read from `name` (and,
    without `nonlatin`, no `name:nonlatin` line in its text), without sprite, and with `glyphs`
    where given (else none)."""
    style = latin_from_name(json.loads(json.dumps(style)))
    if not nonlatin:
        for layer in style["layers"]:
            if "text-field" in layer.get("layout", {}):
                layer["layout"]["text-field"] = without_nonlatin(layer["layout"]["text-field"])
    style["sources"]["openmaptiles"] = {"type": "vector", "url": url}
    style.pop("sprite", None)
    style.pop("glyphs", None)
    if glyphs:
        style["glyphs"] = glyphs
    return style


def counting(style, halo_width=None, line_height=None):
    """Only the text of symbol layers, coloured by feature id, no icons, transparent halos;
    `halo_width` and `line_height` (text-line-height), where given, replace the style's."""
    style = json.loads(json.dumps(style))
    for layer in style["layers"]:
        layout = layer.setdefault("layout", {})
        if layer.get("type") != "symbol" or "text-field" not in layout:
            layout["visibility"] = "none"
            continue
        for key in [k for k in layout if k.startswith("icon-")]:
            del layout[key]
        paint = layer.setdefault("paint", {})
        paint.update({"text-color": CODE, "text-opacity": 1, "text-halo-color": "rgba(0,0,0,0)"})
        paint.pop("text-halo-blur", None)
        if halo_width is not None:
            paint["text-halo-width"] = halo_width
        if line_height is not None:
            layout["text-line-height"] = line_height
    return style


def label_ids(png):
    """Feature ids whose colour covers at least MIN_PIXELS pixels of alpha >= 128, as two sets:
    the labels whole on the map, and those cut by its edge (a pixel in the outer EDGE pixels);
    and the middle (x, y) of each label's pixels, by id."""
    import numpy as np
    from PIL import Image
    image = np.asarray(Image.open(png).convert("RGBA")).astype(np.int32)
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    at_edge = ((xs < EDGE) | (ys < EDGE) | (xs >= w - EDGE) | (ys >= h - EDGE)).reshape(-1)
    a = image.reshape(-1, 4)
    opaque = a[:, 3] >= 128
    levels = np.clip(np.rint((a[opaque, :3] - STEP // 2) / STEP), 0, 7).astype(np.int32)
    codes = levels[:, 0] * 64 + levels[:, 1] * 8 + levels[:, 2]
    values, counts = np.unique(codes, return_counts=True)
    labels = {int(v) for v, c in zip(values, counts) if c >= MIN_PIXELS}
    cut = {int(v) for v in np.unique(codes[at_edge[opaque]])} & labels
    px, py = xs.reshape(-1)[opaque], ys.reshape(-1)[opaque]
    middles = {}
    for code in labels:
        mine = codes == code
        middles[code] = ((px[mine].min() + px[mine].max()) / 2, (py[mine].min() + py[mine].max()) / 2)
    return labels - cut, cut, middles


def render_mapcompose(binary, style_path, lat, lon, zoom, out):
    proc = subprocess.run([binary, "--style", str(style_path), "--center", f"{lat},{lon}", "--zoom", str(zoom),
                           "--size", f"{SIZE}x{SIZE}", "--no-attribution", str(out)], capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"mapcompose failed ({proc.returncode}): {proc.stderr}")


def render_pymgl(style_path, lat, lon, zoom, out):
    # One process per map: pymgl crashes when a process makes a second map.
    proc = subprocess.run([sys.executable, __file__, "--one", str(style_path), str(lon), str(lat), str(zoom - 1),
                           str(out)], capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"pymgl failed ({proc.returncode}): {proc.stderr[-2000:]}")


def one(style_path, lon, lat, zoom, out):
    from pymgl import Map
    m = Map(Path(style_path).read_text(), SIZE, SIZE, 1.0, float(lon), float(lat), float(zoom))
    Path(out).write_bytes(m.renderPNG())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("styles", nargs="*", help="more styles, name=path/to/style.json")
    parser.add_argument("--mapcompose", default=str(ROOT / ".build/release/mapcompose"))
    parser.add_argument("--keep", help="folder for the glyphs, rewritten styles and renders (default: a temporary one)")
    parser.add_argument("--views", help="comma-separated view names (default: all)")
    parser.add_argument("--details", action="store_true", help="name the places labelled by one renderer only")
    parser.add_argument("--without-nonlatin", action="store_true",
                        help="diagnosis: text-field without name:nonlatin and the line break before it")
    parser.add_argument("--halo-width", type=float, help="diagnosis: this text-halo-width in both renderers")
    parser.add_argument("--maplibre-line-height", type=float,
                        help="diagnosis: this text-line-height (ems) for MapLibre Native only")
    args = parser.parse_args()
    reference_env.ensure()
    import make_glyphs

    work = Path(args.keep or tempfile.mkdtemp(prefix="label-counts-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    styles = {"maplibre-labels": ROOT / "Styles/maplibre-labels.json"}
    for item in args.styles:
        name, path = item.split("=", 1)
        styles[name] = Path(path)
    views = {k: VIEWS[k] for k in (args.views.split(",") if args.views else VIEWS)}
    names = {i + 1: f["properties"]["name"] for i, f in enumerate(json.loads(NAMES.read_text())["features"])}

    glyphs = work / "glyphs"
    stacks = set()
    loaded = {name: json.loads(path.read_text()) for name, path in styles.items()}
    for name, style in loaded.items():
        (work / f"{name}-original.json").write_text(json.dumps(style))
        stacks |= make_glyphs.style_stacks(work / f"{name}-original.json")
    starts = {0} | {cp // 256 * 256 for cp in make_glyphs.code_points_of_text([str(NAMES)]) if cp <= 0xFFFF}
    make_glyphs.build(glyphs, stacks, starts, log=lambda line: print(f"glyphs: {line}", file=sys.stderr))
    glyph_url = f"file://{glyphs}/{{fontstack}}/{{range}}.pbf"

    rows = []
    offsets = {name: [] for name in loaded}
    for name, style in loaded.items():
        mc_style, gl_style = work / f"{name}-mapcompose.json", work / f"{name}-pymgl.json"
        nonlatin = not args.without_nonlatin
        mc = with_source(style, f"pmtiles://{FIXTURE}.pmtiles", nonlatin=nonlatin)
        gl = with_source(style, f"mbtiles://{FIXTURE}.mbtiles", glyph_url, nonlatin=nonlatin)
        mc_style.write_text(json.dumps(counting(mc, args.halo_width)))
        gl_style.write_text(json.dumps(counting(gl, args.halo_width, args.maplibre_line_height)))
        for view, (lat, lon, zoom) in views.items():
            left, right = work / f"{name}-{view}-mapcompose.png", work / f"{name}-{view}-pymgl.png"
            render_mapcompose(args.mapcompose, mc_style, lat, lon, zoom, left)
            render_pymgl(gl_style, lat, lon, zoom, right)
            (mc, mc_cut, mc_at), (gl, gl_cut, gl_at) = label_ids(left), label_ids(right)
            for i in mc & gl:
                offsets[name].append(((mc_at[i][0] - gl_at[i][0]) ** 2 + (mc_at[i][1] - gl_at[i][1]) ** 2) ** 0.5)
            diff = (len(mc) - len(gl)) / len(gl) * 100 if gl else float("nan")
            rows.append((name, view, zoom, len(mc), len(gl), diff, len(mc_cut), len(gl_cut)))
            print(f"{name} {view}: mapcompose {len(mc)}, MapLibre Native {len(gl)} ({diff:+.1f} %); "
                  f"cut by the edge: {len(mc_cut)}, {len(gl_cut)}", file=sys.stderr)
            if args.details:
                for title, ids in (("only mapcompose", mc - gl), ("only MapLibre Native", gl - mc)):
                    if ids:
                        print(f"  {title}: " + ", ".join(names.get(i, f"#{i}") for i in sorted(ids)), file=sys.stderr)

    print("| style | view | mapcompose zoom | mapcompose | MapLibre Native | difference | cut by the edge (mc, MLN) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, view, zoom, mc, gl, diff, mc_cut, gl_cut in rows:
        print(f"| {name} | {view} | {zoom} | {mc} | {gl} | {diff:+.1f} % | {mc_cut}, {gl_cut} |")
    total_mc, total_gl = sum(r[3] for r in rows), sum(r[4] for r in rows)
    print(f"| all | | | {total_mc} | {total_gl} | {(total_mc - total_gl) / max(total_gl, 1) * 100:+.1f} % | "
          f"{sum(r[6] for r in rows)}, {sum(r[7] for r in rows)} |")
    print()
    print(f"| style | labels placed by both | at the same place (middles within {SAME_PLACE} px) | median distance |")
    print("| --- | --- | --- | --- |")
    for name, distances in offsets.items():
        distances.sort()
        same = sum(d <= SAME_PLACE for d in distances)
        median = distances[len(distances) // 2] if distances else float("nan")
        print(f"| {name} | {len(distances)} | {same} ({same / max(len(distances), 1) * 100:.0f} %) | {median:.1f} px |")
    print(f"renders and styles in {work}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        one(*sys.argv[2:])
    else:
        main()
