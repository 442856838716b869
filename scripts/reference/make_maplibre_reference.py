#!/usr/bin/env python3
"""Renders Styles/maplibre.json and Tests/Fixtures/MapLibreReference/line-effects.json over
Tests/Fixtures/MapLibre/ne-omt.mbtiles, Tests/Fixtures/MapLibreReference/sdf-icons.json
(GeoJSON points, icons from a signed-distance-field sprite) raster-adjust.json (the raster
MBTiles of Tests/Fixtures/Reference with raster colour adjustments), circle-blur.json and
background-pattern.json and line-gradient.json (GeoJSON lines with lineMetrics), with MapLibre Native (PyPI `pymgl`, headless through Mesa's
EGL) into Tests/Fixtures/MapLibreReference/, the independent reference for mapcompose's MapLibre
drawing (MapLibreReferenceTests).

Views are given in mapcompose zoom; MapLibre Native is asked for GL zoom = zoom - 1 (see
docs/maplibre.md). pymgl reads `mbtiles://` (its libcurl has no `pmtiles://`), so the source's
URL is switched to the MBTiles copy of the same tiles, and a sprite path relative to the style
becomes a `file://` URL.

Usage (Debian 12):
  apt-get install -y libegl1 libegl-mesa0 libgl1-mesa-dri && pip install pymgl
  EGL_PLATFORM=surfaceless python3 scripts/reference/make_maplibre_reference.py
"""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "Tests/Fixtures/MapLibreReference"

MAPLIBRE = "Styles/maplibre.json"
LINE_EFFECTS = "Tests/Fixtures/MapLibreReference/line-effects.json"
SDF_ICONS = "Tests/Fixtures/MapLibreReference/sdf-icons.json"
RASTER_ADJUST = "Tests/Fixtures/MapLibreReference/raster-adjust.json"
CIRCLE_BLUR = "Tests/Fixtures/MapLibreReference/circle-blur.json"
BACKGROUND_PATTERN = "Tests/Fixtures/MapLibreReference/background-pattern.json"
LINE_GRADIENT = "Tests/Fixtures/MapLibreReference/line-gradient.json"

# name: (style, lat, lon, mapcompose zoom, width, height, pixel ratio). Line patterns at whole
# GL zooms (MapLibre grows them with the tile in between) and within one tile (MapLibre starts
# their repeats again at tile edges).
VIEWS = {
    "europe-z4": (MAPLIBRE, 50, 10, 4, 256, 256, 1),
    "world-z1": (MAPLIBRE, 20, 0, 1, 512, 256, 1),
    "iberia-z6-overzoom": (MAPLIBRE, 40, -4, 6, 256, 256, 1),
    "europe-z4-scale2": (MAPLIBRE, 50, 10, 4, 192, 128, 2),
    "pacific-z3.5": (MAPLIBRE, 0, -90, 3.5, 256, 256, 1),
    "line-blur-z4": (LINE_EFFECTS, 50, 10, 4, 256, 256, 1),
    "line-pattern-z3": (LINE_EFFECTS, 30, 45, 3, 256, 256, 1),
    "sdf-icons-z3": (SDF_ICONS, -4, 0, 3, 256, 160, 1),
    "sdf-icons-z3-scale2": (SDF_ICONS, -4, 0, 3, 256, 160, 2),
    "raster-adjust-z3": (RASTER_ADJUST, 30, 0, 3, 256, 256, 1),
    "circle-blur-z3": (CIRCLE_BLUR, 38, 45, 3, 256, 192, 1),
    "background-pattern-z3": (BACKGROUND_PATTERN, 0, 0, 3, 256, 256, 1),
    "background-pattern-z3.5": (BACKGROUND_PATTERN, 10, 20, 3.5, 256, 256, 1),
    "line-gradient-z3": (LINE_GRADIENT, 20, 37.5, 3, 384, 320, 1),
    "line-gradient-z3.6": (LINE_GRADIENT, 22, 40, 3.6, 384, 384, 1),
}


def style_text(path):
    style = json.loads((ROOT / path).read_text())
    if "openmaptiles" in style["sources"]:
        style["sources"]["openmaptiles"]["url"] = "mbtiles://" + str(ROOT / "Tests/Fixtures/MapLibre/ne-omt.mbtiles")
    for source in style["sources"].values():
        url = source.get("url", "")
        if url.startswith("mbtiles://") and not url.startswith("mbtiles:///"):
            source["url"] = "mbtiles://" + str(((ROOT / path).parent / url.removeprefix("mbtiles://")).resolve())
    if "sprite" in style:
        style["sprite"] = "file://" + str(((ROOT / path).parent / style["sprite"]).resolve())
    return json.dumps(style)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (path, lat, lon, zoom, width, height, ratio) in VIEWS.items():
        # One process per map: pymgl crashes when a process makes a second map.
        subprocess.run([sys.executable, __file__, "--one", style_text(path), str(width), str(height), str(ratio), str(lon),
                        str(lat), str(zoom - 1), str(OUT / f"{name}.png")], check=True)
    (OUT / "views.json").write_text(json.dumps(
        {name: {"style": v[0], "lat": v[1], "lon": v[2], "zoom": v[3], "width": v[4], "height": v[5], "scale": v[6]}
         for name, v in VIEWS.items()}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(VIEWS)} references to {OUT.relative_to(ROOT)}")


def one(text, width, height, ratio, lon, lat, zoom, path):
    from pymgl import Map
    m = Map(text, int(width), int(height), float(ratio), float(lon), float(lat), float(zoom))
    Path(path).write_bytes(m.renderPNG())


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        one(*sys.argv[2:])
    else:
        main()
