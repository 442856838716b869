#!/usr/bin/env python3
"""Draws Tests/Fixtures/OverlayReference/overlay.geojson with Debian's MapServer (the mapserv
CGI binary run as a command: a WMS 1.3.0 GetMap, no server, no network) for the viewport in
Tests/Fixtures/OverlayReference/manifest.json, and writes mapserver.png (and the MapServer
version and bbox into the manifest). mapcompose's OverlayReferenceTests draws the same GeoJSON
for the same viewport and measures both images the same way: the centroid of every marker
blob and the pixel row (column) each straight path crosses.

Markers are drawn with simplestyle `marker-symbol: circle` (a dot centred on the point) so both
renderers put the centre of the shape on the point; MapServer's circles are 18 px across.

Run: scripts/reference/make-overlay-reference.sh
"""
import json
import os
import subprocess
import sys
import tempfile

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_reference import ere_literal, viewport_geometry  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "OverlayReference")


def split_by_type(source, workdir):
    """One GeoJSON file per geometry kind, for MapServer's typed layers."""
    with open(source) as f:
        features = json.load(f)["features"]
    paths = {}
    for kind, types in (("POINTS", ("Point",)), ("LINES", ("LineString",)), ("POLYGONS", ("Polygon",))):
        path = os.path.join(workdir, kind.lower() + ".geojson")
        with open(path, "w") as f:
            json.dump({"type": "FeatureCollection",
                       "features": [x for x in features if x["geometry"]["type"] in types]}, f)
        paths[kind] = path
    return paths


def getmap(workdir, bbox, width, height):
    mapfile = os.path.join(workdir, "overlays.map")
    with open(os.path.join(HERE, "overlays.map")) as f:
        text = f.read()
    for key, path in split_by_type(os.path.join(OUT, "overlay.geojson"), workdir).items():
        text = text.replace("@%s@" % key, path)
    with open(mapfile, "w") as f:
        f.write(text)
    config = os.path.join(workdir, "mapserver.conf")
    with open(config, "w") as f:
        f.write('CONFIG\n  ENV\n    MS_MAP_PATTERN "^%s$"\n    MS_ERRORFILE "stderr"\n  END\nEND\n'
                % ere_literal(mapfile))
    query = "&".join(["MAP=" + mapfile, "SERVICE=WMS", "VERSION=1.3.0", "REQUEST=GetMap",
                      "LAYERS=polygons,lines,points", "STYLES=", "CRS=EPSG:3857",
                      "BBOX=" + ",".join(repr(v) for v in bbox), "WIDTH=%d" % width,
                      "HEIGHT=%d" % height, "FORMAT=image/png"])
    env = {"PATH": "/usr/bin:/bin", "MAPSERVER_CONFIG_FILE": config, "QUERY_STRING": query,
           "REQUEST_METHOD": "GET"}
    exe = "/usr/lib/cgi-bin/mapserv" if os.path.exists("/usr/lib/cgi-bin/mapserv") else "mapserv"
    out = subprocess.run([exe], env=env, cwd=workdir, capture_output=True, check=True).stdout
    png = out[out.index(b"\x89PNG"):]
    plain = {k: v for k, v in env.items() if k not in ("QUERY_STRING", "REQUEST_METHOD")}
    version = subprocess.run([exe, "-v"], env=plain, capture_output=True).stdout.decode().split(" OUTPUT=")[0]
    return png, version


def main():
    with open(os.path.join(OUT, "manifest.json")) as f:
        manifest = json.load(f)
    vp = manifest["viewport"]
    vp.setdefault("name", "overlays")
    geometry = viewport_geometry(vp)
    with tempfile.TemporaryDirectory() as workdir:
        png, version = getmap(workdir, geometry["bbox"], geometry["width"], geometry["height"])
    target = os.path.join(OUT, "mapserver.png")
    with open(target, "wb") as f:
        f.write(png)
    image = Image.open(target)
    assert image.size == (geometry["width"], geometry["height"]), image.size
    manifest["generator"] = version
    manifest["bbox3857"] = geometry["bbox"]
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    print("wrote %s (%dx%d) with %s" % (target, image.size[0], image.size[1], version))


if __name__ == "__main__":
    main()
