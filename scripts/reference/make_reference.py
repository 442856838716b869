#!/usr/bin/env python3
"""Generate independent reference data for mapcompose's pixel-comparison tests.

Everything is rendered by Debian's MapServer (the `mapserv` CGI binary, run
directly from the command line with QUERY_STRING / REQUEST_METHOD set, i.e. a
real WMS 1.3.0 GetMap request; no HTTP server, no network) from
Styles/data/ne_110m_countries.geojson with scripts/reference/naturalearth.map.

Outputs (all under Tests/Fixtures/Reference/, wiped and regenerated each run):
  tiles/{z}/{x}/{y}.png   256x256 XYZ tiles (levels 0-3 complete; deeper
                          levels only around the viewports of viewports.json)
  naturalearth.mbtiles    the same tiles as MBTiles 1.3 (TMS rows)
  images/<name>.png       one reference image per viewport
  manifest.json           the numbers this script computed for every viewport
                          (device size, resolution, bbox, tile level, tiles)

Viewport semantics (Web Mercator EPSG:3857, 256 px tiles at zoom 0):
  device size   W x H = width*scale x height*scale
  res           = 2*E / (256 * 2**zoom * scale)   metres per device pixel
  center        (cx, cy) = spherical Mercator of center [lat, lon]
  bbox          [cx - W/2*res, cy - H/2*res, cx + W/2*res, cy + H/2*res]
                (outer pixel edges)
  tile level    the coarsest level whose metres per pixel are at most 1.15 x res
                (a level up to 1.15x coarser than the output still counts as
                fine enough, as in MapProxy), i.e. ceil(zoom + log2(scale)
                - log2(1.15)) for these 256-px levels
with E = 20037508.342789244 and R = 6378137.

Every tile and image is a WMS 1.3.0 GetMap (CRS=EPSG:3857, BBOX in x/y =
easting/northing order, BBOX = outer pixel edges) at the same metres per pixel
as the output; by default the request is widened by 16 pixels on every side
and the centre cropped out (--margin, see MapServer.render), which removes
MapServer's image-edge culling artefacts without moving the pixel grid.
A viewport that crosses the antimeridian is rendered as two GetMaps (up to
+E and from -E) stitched side by side.

Run from anywhere: `python3 scripts/reference/make_reference.py`
(scripts/reference/make-reference.sh installs the Debian packages first).
Needs: mapserv (cgi-mapserver or mapserver-bin), Pillow, optipng (optional).
"""

import argparse
import io
import json
import math
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

try:
    from PIL import Image
except ImportError:  # pragma: no cover
    sys.exit("make_reference.py: Pillow is required (apt-get install python3-pil)")

R = 6378137.0
E = 20037508.342789244          # half the world extent in metres (= pi * R)
MAX_LAT = 85.0511287798         # Web Mercator latitude limit (for metadata)
CLIP_LAT = 88.0                 # data are clipped to +-CLIP_LAT before MapServer
                                # projects them: PROJ fails at +-90, and the clip
                                # edge then lies far outside the +-E square, so
                                # it is never drawn as a border.
TILE = 256
MARGIN = 16                     # default extra pixels rendered on every side and
                                # cropped off again (see MapServer.render)
FULL_LEVELS = range(0, 4)
MOSAIC_TOLERANCE = 16           # max channel difference allowed between one render
                                # and the mosaic of tiles of the same area (AGG
                                # antialiasing noise near complex coastlines)       # levels rendered for the whole world
LAYERS = "land,borders"

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
MAPFILE_TEMPLATE = os.path.join(HERE, "naturalearth.map")
COUNTRIES = os.path.join(ROOT, "Styles", "data", "ne_110m_countries.geojson")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "Reference")
VIEWPORTS = os.path.join(OUT, "viewports.json")


def fail(msg):
    sys.stderr.write("make_reference.py: ERROR: %s\n" % msg)
    sys.exit(1)


# --------------------------------------------------------------------------
# Web Mercator math (independent of mapcompose; plain Python floats)
# --------------------------------------------------------------------------

def mercator(lat, lon):
    x = R * math.radians(lon)
    y = R * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
    return x, y


STRETCH = 1.15  # a level up to this much coarser than the output is fine enough


def level_for_resolution(res, max_level=30):
    """The coarsest 256-px Web Mercator level at least as fine as res / STRETCH."""
    for z in range(max_level + 1):
        if 2 * E / (TILE * 2 ** z) <= res * STRETCH:
            return z
    return max_level


def viewport_geometry(vp):
    lat, lon = vp["center"]
    zoom, scale = float(vp["zoom"]), float(vp["scale"])
    w = vp["width"] * scale
    h = vp["height"] * scale
    if w != int(w) or h != int(h):
        fail("viewport %s: device size %gx%g is not integral" % (vp["name"], w, h))
    w, h = int(w), int(h)
    res = 2 * E / (TILE * 2 ** zoom * scale)
    cx, cy = mercator(lat, lon)
    bbox = [cx - w / 2 * res, cy - h / 2 * res, cx + w / 2 * res, cy + h / 2 * res]
    level = level_for_resolution(res)
    return {"width": w, "height": h, "res": res, "center_m": [cx, cy],
            "bbox": bbox, "level": level}


def tile_bounds(z, x, y):
    size = 2 * E / 2 ** z
    minx = -E + x * size
    maxy = E - y * size
    return [minx, maxy - size, minx + size, maxy]


def tiles_for_bbox(bbox, z, margin=0):
    """XYZ tiles of level z covering bbox (outer edges), widened by margin
    tiles; x wraps modulo 2^z, y is clamped to [0, 2^z-1]. Returns the sorted
    list of (x, y) plus the unwrapped ranges for the manifest."""
    n = 2 ** z
    size = 2 * E / n
    eps = 1e-9  # in tile units: an edge exactly on a tile line doesn't pull in the next tile
    x0 = math.floor((bbox[0] + E) / size + eps) - margin
    x1 = math.ceil((bbox[2] + E) / size - eps) - 1 + margin
    y0 = math.floor((E - bbox[3]) / size + eps) - margin
    y1 = math.ceil((E - bbox[1]) / size - eps) - 1 + margin
    y0c, y1c = max(0, y0), min(n - 1, y1)
    tiles = set()
    for x in range(x0, x1 + 1):
        for y in range(y0c, y1c + 1):
            tiles.add((x % n, y))
    return sorted(tiles), {"x": [x0, x1], "y": [y0c, y1c]}


# --------------------------------------------------------------------------
# Data preparation: clip polygons to +-CLIP_LAT (Sutherland-Hodgman against
# two horizontal half-planes; exact for our purposes, rings stay closed)
# --------------------------------------------------------------------------

def _clip_ring(ring, keep, cross):
    out = []
    pts = ring[:-1] if ring[0] == ring[-1] else ring[:]
    if not pts:
        return []
    prev = pts[-1]
    for cur in pts:
        if keep(cur):
            if not keep(prev):
                out.append(cross(prev, cur))
            out.append(cur)
        elif keep(prev):
            out.append(cross(prev, cur))
        prev = cur
    if len(out) < 3:
        return []
    out.append(out[0])
    return out


def _crossing(limit):
    def cross(a, b):
        t = (limit - a[1]) / (b[1] - a[1])
        return [round(a[0] + t * (b[0] - a[0]), 9), limit]
    return cross


def clip_ring(ring):
    ring = _clip_ring(ring, lambda p: p[1] <= CLIP_LAT, _crossing(CLIP_LAT))
    if ring:
        ring = _clip_ring(ring, lambda p: p[1] >= -CLIP_LAT, _crossing(-CLIP_LAT))
    return ring


def clip_polygon(rings):
    outer = clip_ring(rings[0])
    if not outer:
        return None
    holes = [r for r in (clip_ring(h) for h in rings[1:]) if r]
    return [outer] + holes


def clip_geojson(src, dst):
    with open(src) as f:
        data = json.load(f)
    clipped = 0
    for feat in data["features"]:
        g = feat["geometry"]
        if g is None:
            continue
        polys = [g["coordinates"]] if g["type"] == "Polygon" else g["coordinates"]
        if g["type"] not in ("Polygon", "MultiPolygon"):
            fail("unexpected geometry type %s" % g["type"])
        if any(abs(p[1]) > CLIP_LAT for poly in polys for ring in poly for p in ring):
            clipped += 1
        new = [p for p in (clip_polygon(poly) for poly in polys) if p]
        feat["geometry"] = {"type": "MultiPolygon", "coordinates": new}
    with open(dst, "w") as f:
        json.dump(data, f, sort_keys=True)
    return clipped


# --------------------------------------------------------------------------
# MapServer
# --------------------------------------------------------------------------

def ere_literal(text):
    """text as a POSIX extended regex matching itself, without backslashes
    (the mapfile lexer and regcomp would both have to agree on those)."""
    out = []
    for c in text:
        if c.isalnum() or c in "/_-~,":
            out.append(c)
        elif c in '"\\^]':
            fail("unsupported character %r in work directory path %s" % (c, text))
        else:
            out.append("[" + c + "]")
    return "".join(out)


class MapServer:
    def __init__(self, workdir):
        exe = shutil.which("mapserv") or "/usr/lib/cgi-bin/mapserv"
        if not os.access(exe, os.X_OK):
            fail("mapserv not found (apt-get install cgi-mapserver mapserver-bin)")
        self.exe = exe
        self.workdir = workdir
        self.mapfile = os.path.join(workdir, "naturalearth.map")
        data = os.path.join(workdir, "countries.geojson")
        self.clipped = clip_geojson(COUNTRIES, data)
        with open(MAPFILE_TEMPLATE) as f:
            text = f.read()
        if "@COUNTRIES@" not in text:
            fail("%s has no @COUNTRIES@ placeholder" % MAPFILE_TEMPLATE)
        with open(self.mapfile, "w") as f:
            f.write(text.replace("@COUNTRIES@", data))
        # MapServer 8 refuses to run without a config file; allow exactly our
        # mapfile in MAP=, send errors to stderr.
        self.config = os.path.join(workdir, "mapserver.conf")
        with open(self.config, "w") as f:
            f.write('CONFIG\n  ENV\n    MS_MAP_PATTERN "^%s$"\n'
                    '    MS_ERRORFILE "stderr"\n  END\nEND\n'
                    % ere_literal(self.mapfile))
        self.version = self._run(["-v"], None).decode().strip()
        self.requests = 0

    def _env(self, query):
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
               "LC_ALL": "C.UTF-8", "MAPSERVER_CONFIG_FILE": self.config}
        for k in ("PROJ_DATA", "PROJ_LIB", "GDAL_DATA"):
            if k in os.environ:
                env[k] = os.environ[k]
        if query is not None:
            env["QUERY_STRING"] = query
            env["REQUEST_METHOD"] = "GET"
        return env

    def _run(self, args, query):
        p = subprocess.run([self.exe] + args, env=self._env(query), cwd=self.workdir,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            fail("mapserv exited %d\nquery: %s\nstderr: %s\nstdout: %s"
                 % (p.returncode, query, p.stderr.decode(errors="replace"),
                    p.stdout[:2000].decode(errors="replace")))
        if p.stderr.strip():
            fail("mapserv wrote to stderr\nquery: %s\n%s"
                 % (query, p.stderr.decode(errors="replace")))
        return p.stdout

    def getmap(self, bbox, width, height):
        """WMS 1.3.0 GetMap in EPSG:3857 (x/y = easting/northing axis order);
        bbox is [minx, miny, maxx, maxy] as outer pixel edges. Returns the PNG
        bytes (HTTP headers stripped) after checking it is a width x height
        RGB PNG."""
        query = "&".join([
            "MAP=" + self.mapfile,
            "SERVICE=WMS", "VERSION=1.3.0", "REQUEST=GetMap",
            "LAYERS=" + LAYERS, "STYLES=", "CRS=EPSG:3857",
            "BBOX=" + ",".join(repr(float(v)) for v in bbox),
            "WIDTH=%d" % width, "HEIGHT=%d" % height,
            "FORMAT=image/png",
        ])
        out = self._run([], query)
        self.requests += 1
        sep = out.find(b"\r\n\r\n")
        seplen = 4
        if sep < 0:
            sep, seplen = out.find(b"\n\n"), 2
        if sep < 0:
            fail("mapserv output has no header/body separator\nquery: %s\n%r"
                 % (query, out[:2000]))
        headers, body = out[:sep].decode("latin-1"), out[sep + seplen:]
        ctype = ""
        for line in headers.splitlines():
            if line.lower().startswith("content-type:"):
                ctype = line.split(":", 1)[1].strip()
        if (ctype != "image/png" or not body.startswith(b"\x89PNG\r\n\x1a\n")
                or b"ServiceException" in body[:4096]):
            fail("MapServer did not return a PNG (Content-Type %r)\nquery: %s\n%s"
                 % (ctype, query, body[:4000].decode(errors="replace")))
        im = Image.open(io.BytesIO(body))
        if im.size != (width, height) or im.mode != "RGB":
            fail("MapServer returned a %s %dx%d image, wanted RGB %dx%d\nquery: %s"
                 % (im.mode, im.size[0], im.size[1], width, height, query))
        return body

    def render(self, bbox, width, height, margin):
        """The width x height RGB image of exactly bbox (outer pixel edges).

        With margin > 0 the GetMap asks for margin more pixels on every side
        (same resolution, so the same pixel grid) and the centre is cropped
        out. This is classic metatiling: MapServer selects features by the
        envelope of the request's pixel-centre extent and clips geometry at the
        image edge, so with margin 0 a border stroke whose feature lies just
        outside the request (within a pixel) is missing from the edge pixels,
        and a tile mosaic then differs from a single larger GetMap by up to
        89/255 at a few edge pixels. margin 0 is the plain exact-bbox GetMap.
        Returns (image, [request descriptions])."""
        if margin == 0:
            img = Image.open(io.BytesIO(self.getmap(bbox, width, height)))
            img.load()
            return img, [{"bbox": list(bbox), "width": width, "height": height}]
        rx = (bbox[2] - bbox[0]) / width
        ry = (bbox[3] - bbox[1]) / height
        big_bbox = [bbox[0] - margin * rx, bbox[1] - margin * ry,
                    bbox[2] + margin * rx, bbox[3] + margin * ry]
        big = Image.open(io.BytesIO(self.getmap(big_bbox, width + 2 * margin,
                                                height + 2 * margin)))
        img = big.crop((margin, margin, margin + width, margin + height))
        img.load()
        return img, [{"bbox": big_bbox, "width": width + 2 * margin,
                      "height": height + 2 * margin,
                      "crop": [margin, margin, margin + width, margin + height]}]


def save_png(img, path):
    """Plain 8-bit RGB PNG, no ancillary chunks (deterministic bytes)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    img.convert("RGB").save(path, format="PNG", optimize=True)


# --------------------------------------------------------------------------
# Output helpers
# --------------------------------------------------------------------------

def have_optipng():
    return shutil.which("optipng") is not None


def optimise(paths):
    """Lossless recompression, keeping 8-bit RGB (no palette/bit-depth
    reduction, so every reader sees the same colour type)."""
    if not paths or not have_optipng():
        return
    for i in range(0, len(paths), 64):
        subprocess.run(["optipng", "-quiet", "-o2", "-nx", "-strip", "all"] + paths[i:i + 64],
                       check=True)


def write_mbtiles(path, tiles, maxzoom):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE UNIQUE INDEX metadata_name ON metadata (name);
        CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER,
                            tile_row INTEGER, tile_data BLOB);
        CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
    """)
    meta = [
        ("name", "Natural Earth 1:110m countries (MapServer reference)"),
        ("format", "png"),
        ("bounds", "-180,%.10f,180,%.10f" % (-MAX_LAT, MAX_LAT)),
        ("minzoom", "0"),
        ("maxzoom", str(maxzoom)),
        ("attribution", "Natural Earth"),
        ("type", "baselayer"),
        ("description", "Reference tiles for mapcompose tests, rendered by MapServer "
                        "(scripts/reference/make_reference.py). Levels 0-3 complete; "
                        "deeper levels only around the test viewports."),
    ]
    db.executemany("INSERT INTO metadata (name, value) VALUES (?, ?)", meta)
    for (z, x, y), png in sorted(tiles.items()):
        db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)",
                   (z, x, 2 ** z - 1 - y, sqlite3.Binary(png)))
    db.commit()
    db.execute("VACUUM")
    db.close()


def max_diff(a, b):
    a, b = a.convert("RGB"), b.convert("RGB")
    if a.size != b.size:
        return None
    from PIL import ImageChops
    ext = ImageChops.difference(a, b).getextrema()
    return max(hi for _, hi in ext)


def mosaic(tile_dir, z, xs, ys):
    img = Image.new("RGB", (TILE * len(xs), TILE * len(ys)))
    for i, x in enumerate(xs):
        for j, y in enumerate(ys):
            img.paste(Image.open(os.path.join(tile_dir, str(z), str(x), "%d.png" % y)),
                      (i * TILE, j * TILE))
    return img


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-optipng", action="store_true", help="skip optipng")
    ap.add_argument("--margin", type=int, default=MARGIN,
                    help="pixels rendered around every tile/image and cropped off "
                         "(default %(default)s; 0 = plain GetMap of the exact bbox)")
    ap.add_argument("--keep-workdir", action="store_true",
                    help="keep the temporary directory (mapfile, clipped data)")
    args = ap.parse_args()

    with open(VIEWPORTS) as f:
        viewports = json.load(f)["viewports"]
    names = [vp["name"] for vp in viewports]
    if len(set(names)) != len(names):
        fail("duplicate viewport names in viewports.json")

    workdir = tempfile.mkdtemp(prefix="mapcompose-reference-")
    try:
        ms = MapServer(workdir)
        print("MapServer:", ms.version.splitlines()[0])
        print("clipped %d feature(s) to latitude +-%g" % (ms.clipped, CLIP_LAT))

        # ---- which tiles ------------------------------------------------
        wanted = set()
        for z in FULL_LEVELS:
            wanted.update((z, x, y) for x in range(2 ** z) for y in range(2 ** z))
        manifest = []
        for vp in viewports:
            g = viewport_geometry(vp)
            need, rng = tiles_for_bbox(g["bbox"], g["level"])
            wide, _ = tiles_for_bbox(g["bbox"], g["level"], margin=1)
            wanted.update((g["level"], x, y) for x, y in wide)
            manifest.append({
                "name": vp["name"], "center": vp["center"], "zoom": vp["zoom"],
                "width": vp["width"], "height": vp["height"], "scale": vp["scale"],
                "device_width": g["width"], "device_height": g["height"],
                "meters_per_device_pixel": g["res"], "center_meters": g["center_m"],
                "bbox": g["bbox"], "tile_level": g["level"],
                "tiles_x_range_unwrapped": rng["x"], "tiles_y_range": rng["y"],
                "tiles": [[g["level"], x, y] for x, y in need],
            })
        maxzoom = max(z for z, _, _ in wanted)

        # ---- wipe outputs -------------------------------------------------
        tile_dir = os.path.join(OUT, "tiles")
        img_dir = os.path.join(OUT, "images")
        mbtiles = os.path.join(OUT, "naturalearth.mbtiles")
        for d in (tile_dir, img_dir):
            shutil.rmtree(d, ignore_errors=True)
        for p in (mbtiles, mbtiles + "-journal"):
            if os.path.exists(p):
                os.remove(p)

        # ---- tiles --------------------------------------------------------
        written = []
        for z, x, y in sorted(wanted):
            img, _ = ms.render(tile_bounds(z, x, y), TILE, TILE, args.margin)
            p = os.path.join(tile_dir, str(z), str(x), "%d.png" % y)
            save_png(img, p)
            written.append(p)
        per_level = {}
        for z, _, _ in wanted:
            per_level[z] = per_level.get(z, 0) + 1
        print("tiles:", ", ".join("z%d: %d" % (z, n) for z, n in sorted(per_level.items())),
              "(total %d)" % len(wanted))

        # ---- viewport images ----------------------------------------------
        os.makedirs(img_dir, exist_ok=True)
        images = []
        for vp, m in zip(viewports, manifest):
            minx, miny, maxx, maxy = m["bbox"]
            w, h, res = m["device_width"], m["device_height"], m["meters_per_device_pixel"]
            p = os.path.join(img_dir, vp["name"] + ".png")
            if minx < -E or maxx > E:
                # Crosses the antimeridian: render both sides and stitch.
                if maxx - minx > 2 * E:
                    fail("viewport %s is wider than the world" % vp["name"])
                if maxx > E:
                    split = (E - minx) / res
                    left_bbox = [minx, miny, E, maxy]
                    right_bbox = [-E, miny, maxx - 2 * E, maxy]
                else:
                    split = (-E - minx) / res
                    left_bbox = [minx + 2 * E, miny, E, maxy]
                    right_bbox = [-E, miny, maxx, maxy]
                if abs(split - round(split)) > 1e-6 or not 0 < round(split) < w:
                    fail("viewport %s: antimeridian falls at device x=%r, not on a pixel "
                         "edge; cannot stitch exactly" % (vp["name"], split))
                split = int(round(split))
                left, lreq = ms.render(left_bbox, split, h, args.margin)
                right, rreq = ms.render(right_bbox, w - split, h, args.margin)
                img = Image.new("RGB", (w, h))
                img.paste(left, (0, 0))
                img.paste(right, (split, 0))
                m["stitched_at_device_x"] = split
                m["parts"] = [{"bbox": left_bbox, "width": split, "height": h},
                              {"bbox": right_bbox, "width": w - split, "height": h}]
                m["getmap_requests"] = lreq + rreq
            else:
                img, req = ms.render(m["bbox"], w, h, args.margin)
                m["getmap_requests"] = req
            save_png(img, p)
            m["image"] = "images/%s.png" % vp["name"]
            images.append(p)
        print("images: %d" % len(images))

        if not args.no_optipng:
            if have_optipng():
                optimise(written + images)
            else:
                print("optipng not found: PNGs left as MapServer wrote them")

        # ---- mbtiles ------------------------------------------------------
        tiles = {}
        for z, x, y in wanted:
            with open(os.path.join(tile_dir, str(z), str(x), "%d.png" % y), "rb") as f:
                tiles[(z, x, y)] = f.read()
        write_mbtiles(mbtiles, tiles, maxzoom)

        # ---- manifest -------------------------------------------------------
        with open(os.path.join(OUT, "manifest.json"), "w") as f:
            json.dump({
                "comment": "Written by scripts/reference/make_reference.py: the numbers it "
                           "computed for each viewport of viewports.json (bbox = outer pixel "
                           "edges in EPSG:3857 metres; tiles = XYZ tiles of tile_level that "
                           "cover the bbox, without the 1-tile margin that tiles/ also holds).",
                "mapserver": ms.version.splitlines()[0],
                "render_margin_px": args.margin,
                "data_clipped_to_latitude": CLIP_LAT,
                "tile_counts": {str(z): n for z, n in sorted(per_level.items())},
                "viewports": manifest,
            }, f, indent=1)
            f.write("\n")

        # ---- self-checks ----------------------------------------------------
        db = sqlite3.connect(mbtiles)
        for m in manifest:
            for z, x, y in m["tiles"]:
                if not os.path.exists(os.path.join(tile_dir, str(z), str(x), "%d.png" % y)):
                    fail("missing tile %d/%d/%d for %s" % (z, x, y, m["name"]))
                row = db.execute("SELECT tile_data FROM tiles WHERE zoom_level=? AND "
                                 "tile_column=? AND tile_row=?",
                                 (z, x, 2 ** z - 1 - y)).fetchone()
                if row is None or bytes(row[0]) != tiles[(z, x, y)]:
                    fail("mbtiles lacks/differs for tile %d/%d/%d" % (z, x, y))
        count = db.execute("SELECT COUNT(*) FROM tiles").fetchone()[0]
        db.close()
        if count != len(wanted):
            fail("mbtiles holds %d tiles, expected %d" % (count, len(wanted)))
        print("check: every viewport's tiles are in tiles/ and in the mbtiles (%d rows)" % count)

        # A viewport whose bbox is exactly tile-aligned must equal its mosaic.
        for m in manifest:
            z = m["tile_level"]
            size = 2 * E / 2 ** z
            b = m["bbox"]
            fx = [(b[0] + E) / size, (b[2] + E) / size]
            fy = [(E - b[3]) / size, (E - b[1]) / size]
            aligned = all(abs(v - round(v)) < 1e-9 for v in fx + fy)
            if not aligned or abs(m["meters_per_device_pixel"] * TILE - size) > 1e-6 * size \
                    or "parts" in m:
                continue
            xs = list(range(int(round(fx[0])), int(round(fx[1]))))
            ys = list(range(int(round(fy[0])), int(round(fy[1]))))
            d = max_diff(Image.open(os.path.join(OUT, m["image"])), mosaic(tile_dir, z, xs, ys))
            print("check: %s is tile-aligned at z%d; max channel difference image vs "
                  "tile mosaic = %s" % (m["name"], z, d))
            if d is None or d > MOSAIC_TOLERANCE:
                fail("%s differs from its tile mosaic by %s" % (m["name"], d))

        # Synthetic check: one 1024x1024 render of the whole world at z2 vs the
        # mosaic of the 16 z2 tiles (edge semantics: no half-pixel shift).
        img, _ = ms.render([-E, -E, E, E], 4 * TILE, 4 * TILE, args.margin)
        img = img.convert("RGB")
        d = max_diff(img, mosaic(tile_dir, 2, list(range(4)), list(range(4))))
        print("check: z2 world as one %dx%d render vs mosaic of the 16 z2 tiles: "
              "max channel difference = %s" % (4 * TILE, 4 * TILE, d))
        if d is None or d > MOSAIC_TOLERANCE:
            fail("z2 world render differs from the z2 tile mosaic by %s" % d)
        print("done: %d MapServer GetMap requests" % ms.requests)
    finally:
        if args.keep_workdir:
            print("workdir kept:", workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
