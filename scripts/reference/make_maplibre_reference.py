#!/usr/bin/env python3
"""Renders Styles/maplibre.json over Tests/Fixtures/MapLibre/ne-omt.mbtiles with MapLibre Native
(PyPI `pymgl`, headless through Mesa's EGL) into Tests/Fixtures/MapLibreReference/, the
independent reference for mapcompose's MapLibre drawing (MapLibreReferenceTests).

Views are given in mapcompose zoom; MapLibre Native is asked for GL zoom = zoom - 1 (see
docs/maplibre.md). pymgl reads `mbtiles://` (its libcurl has no `pmtiles://`), so the source's
URL is switched to the MBTiles copy of the same tiles.

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

# name: (lat, lon, mapcompose zoom, width, height, pixel ratio)
VIEWS = {
    "europe-z4": (50, 10, 4, 256, 256, 1),
    "world-z1": (20, 0, 1, 512, 256, 1),
    "iberia-z6-overzoom": (40, -4, 6, 256, 256, 1),
    "europe-z4-scale2": (50, 10, 4, 192, 128, 2),
    "pacific-z3.5": (0, -90, 3.5, 256, 256, 1),
}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    style = json.loads((ROOT / "Styles/maplibre.json").read_text())
    style["sources"]["openmaptiles"]["url"] = "mbtiles://" + str(ROOT / "Tests/Fixtures/MapLibre/ne-omt.mbtiles")
    text = json.dumps(style)
    for name, (lat, lon, zoom, width, height, ratio) in VIEWS.items():
        # One process per map: pymgl crashes when a process makes a second map.
        subprocess.run([sys.executable, __file__, "--one", text, str(width), str(height), str(ratio), str(lon), str(lat),
                        str(zoom - 1), str(OUT / f"{name}.png")], check=True)
    (OUT / "views.json").write_text(json.dumps(
        {name: {"lat": v[0], "lon": v[1], "zoom": v[2], "width": v[3], "height": v[4], "scale": v[5]}
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
