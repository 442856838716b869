#!/usr/bin/env python3
"""Generate Tests/Fixtures/ArcGIS: ArcGIS Server tile caches seeded by MapProxy.

MapProxy (Debian python3-mapproxy) seeds the MapServer rendering of the
committed Natural Earth data (scripts/reference/naturalearth.map, layers
land,borders, run through Debian's mapserv CGI binary by MapProxy itself: no
server, no network) into:

  standard/exploded/Layers/_alllayers   file cache, directory_layout: arcgis
                                        (L{z:02d}/R{row:08x}/C{col:08x}.png)
  standard/compact-v1/Layers/_alllayers compact cache version 1 (.bundle + .bundlx)
  standard/compact-v2/Layers/_alllayers compact cache version 2 (.bundle)
  standard/xyz/{z}/{x}/{y}.png          file cache, directory_layout: tms with
                                        origin ul (= XYZ rows, 0 at the north)

all four on the standard 256-px Web Mercator grid, levels 2-5 over western
Europe, from one seed run with the same meta tiles. The script checks that the
four hold the same tiles with the same pixels.

  custom/Layers/_alllayers              compact cache version 2 on a grid of
                                        512-px tiles, non-halving resolutions
                                        (CUSTOM_RES) and a custom origin
  custom/getmap/<name>.png              MapProxy's own WMS GetMap of each viewport
                                        of manifest.json's "custom" list, served
                                        from that cache only (no source), called
                                        in-process through MapProxy's WSGI app

MapProxy does not write ArcGIS's cache description, so the script writes each
layer folder's conf.xml (TileCacheInfo, TileImageInfo, CacheStorageInfo) and
conf.cdi (EnvelopeN of the seeded area) in ArcGIS Server's format.

manifest.json lists the viewports the tests render (center [lat, lon], zoom,
size) with their bbox, resolution and the level MapProxy's closest_level picks.

Outputs are wiped and rewritten on each run.
Run: scripts/reference/make-arcgis.sh (installs the Debian packages first).
"""

import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_reference as ref  # noqa: E402  (Web Mercator math, data clipping, mapfile set-up)
from make_mapproxy_512 import run_seed  # noqa: E402  (runs MapProxy's seeder, fails on its errors)

try:
    import numpy as np
    from PIL import Image
except ImportError:  # pragma: no cover
    sys.exit("make_arcgis.py: needs python3-pil and python3-numpy")

E = ref.E
R = ref.R
OUT = os.path.join(ref.ROOT, "Tests", "Fixtures", "ArcGIS")
MAPSERV = "/usr/lib/cgi-bin/mapserv"
STRETCH = 1.15
DPI = 96
INCHES_PER_METRE = 39.37

# The standard grid: 256-px Web Mercator levels 0-8 in conf.xml; levels 2-5 seeded.
STANDARD_LEVELS = 9
STANDARD_SEEDED = [2, 3, 4, 5]
STANDARD_AREA = [-556597.5, 5160979.4, 1669792.4, 6800125.5]   # about 5W-15E, 42N-52N

# The custom grid: 512-px tiles, resolutions that do not halve, origin not at the world's corner.
CUSTOM_TILE = 512
CUSTOM_ORIGIN = (-4000000.0, 11000000.0)
CUSTOM_RES = [10000.0, 6000.0, 3700.0, 2300.0, 1400.0]
CUSTOM_AREA = [-500000.0, 5000000.0, 2500000.0, 7200000.0]

META_SIZE = [2, 2]
META_BUFFER = 32

# Viewports (name, centre x, centre y in metres, width, height). Standard ones are drawn from
# each of the four standard caches; custom ones are compared with MapProxy's GetMap.
STANDARD_VIEWPORTS = [
    ("alps-z4.6", 600000.0, 6000000.0, 256, 192),
    ("france-z5", 300000.0, 6000000.0, 320, 256),
]
# (name, resolution, width, height, centre x, centre y); centres of LOD viewports are moved
# onto the level's pixel grid so the output is an exact crop.
CUSTOM_VIEWPORTS = [
    ("lod3-2300", 2300.0, 400, 300, 1000000.0, 6000000.0),
    ("lod4-1400", 1400.0, 512, 384, 900000.0, 6100000.0),
    ("between-3000", 3000.0, 400, 300, 1000000.0, 6000000.0),
    ("between-1800", 1800.0, 400, 300, 1100000.0, 5900000.0),
    ("stretch-2100", 2100.0, 400, 300, 950000.0, 6050000.0),
]


def fail(msg):
    sys.stderr.write("make_arcgis.py: ERROR: %s\n" % msg)
    sys.exit(1)


def standard_res(z):
    return 2 * E / (256 * 2 ** z)


def lonlat(x, y):
    return math.degrees(x / R), math.degrees(2 * math.atan(math.exp(y / R)) - math.pi / 2)


# --------------------------------------------------------------------------
# ArcGIS cache description
# --------------------------------------------------------------------------

NS = ("xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' "
      "xmlns:xs='http://www.w3.org/2001/XMLSchema' "
      "xmlns:typens='http://www.esri.com/schemas/ArcGIS/10.3'")

SPATIAL_REFERENCE = (
    "<SpatialReference xsi:type='typens:ProjectedCoordinateSystem'>"
    "<WKT>PROJCS[&quot;WGS_1984_Web_Mercator_Auxiliary_Sphere&quot;,GEOGCS[&quot;GCS_WGS_1984&quot;,"
    "DATUM[&quot;D_WGS_1984&quot;,SPHEROID[&quot;WGS_1984&quot;,6378137.0,298.257223563]],"
    "PRIMEM[&quot;Greenwich&quot;,0.0],UNIT[&quot;Degree&quot;,0.0174532925199433]],"
    "PROJECTION[&quot;Mercator_Auxiliary_Sphere&quot;],PARAMETER[&quot;False_Easting&quot;,0.0],"
    "PARAMETER[&quot;False_Northing&quot;,0.0],PARAMETER[&quot;Central_Meridian&quot;,0.0],"
    "PARAMETER[&quot;Standard_Parallel_1&quot;,0.0],PARAMETER[&quot;Auxiliary_Sphere_Type&quot;,0.0],"
    "UNIT[&quot;Meter&quot;,1.0],AUTHORITY[&quot;EPSG&quot;,3857]]</WKT>"
    "<XOrigin>-20037700</XOrigin><YOrigin>-30241100</YOrigin><XYScale>10000</XYScale>"
    "<ZOrigin>-100000</ZOrigin><ZScale>10000</ZScale><MOrigin>-100000</MOrigin><MScale>10000</MScale>"
    "<XYTolerance>0.001</XYTolerance><ZTolerance>0.001</ZTolerance><MTolerance>0.001</MTolerance>"
    "<HighPrecision>true</HighPrecision><WKID>102100</WKID><LatestWKID>3857</LatestWKID>"
    "</SpatialReference>")


def conf_xml(origin, tile, resolutions, storage):
    lods = "".join(
        "<LODInfo xsi:type='typens:LODInfo'><LevelID>%d</LevelID><Scale>%r</Scale>"
        "<Resolution>%r</Resolution></LODInfo>" % (i, r * DPI * INCHES_PER_METRE, r)
        for i, r in enumerate(resolutions))
    return (
        "<?xml version='1.0' encoding='utf-8'?>\r\n"
        "<CacheInfo xsi:type='typens:CacheInfo' %s>"
        "<TileCacheInfo xsi:type='typens:TileCacheInfo'>%s"
        "<TileOrigin xsi:type='typens:PointN'><X>%r</X><Y>%r</Y></TileOrigin>"
        "<TileCols>%d</TileCols><TileRows>%d</TileRows><DPI>%d</DPI><PreciseDPI>%d</PreciseDPI>"
        "<LODInfos xsi:type='typens:ArrayOfLODInfo'>%s</LODInfos></TileCacheInfo>"
        "<TileImageInfo xsi:type='typens:TileImageInfo'><CacheTileFormat>PNG</CacheTileFormat>"
        "<CompressionQuality>0</CompressionQuality><Antialiasing>false</Antialiasing></TileImageInfo>"
        "<CacheStorageInfo xsi:type='typens:CacheStorageInfo'><StorageFormat>%s</StorageFormat>"
        "<PacketSize>128</PacketSize></CacheStorageInfo></CacheInfo>\r\n"
        % (NS, SPATIAL_REFERENCE, origin[0], origin[1], tile, tile, DPI, DPI, lods, storage))


def conf_cdi(area):
    return (
        "<?xml version='1.0' encoding='utf-8'?>\r\n"
        "<EnvelopeN xsi:type='typens:EnvelopeN' %s><XMin>%r</XMin><YMin>%r</YMin>"
        "<XMax>%r</XMax><YMax>%r</YMax>%s</EnvelopeN>\r\n" % (NS, area[0], area[1], area[2], area[3],
                                                            SPATIAL_REFERENCE))


# --------------------------------------------------------------------------
# MapProxy
# --------------------------------------------------------------------------

STANDARD_CACHES = {
    # name: (folder under OUT, storage format for conf.xml, MapProxy cache options)
    "exploded": ("standard/exploded/Layers", "esriMapCacheStorageModeExploded",
                 {"type": "file", "directory_layout": "arcgis"}),
    "compact-v1": ("standard/compact-v1/Layers", "esriMapCacheStorageModeCompact",
                   {"type": "compact", "version": 1}),
    "compact-v2": ("standard/compact-v2/Layers", "esriMapCacheStorageModeCompactV2",
                   {"type": "compact", "version": 2}),
}


def write_configs(workdir, mapfile, cache_root):
    def cache(grid, options, folder):
        return {
            "grids": [grid], "sources": ["ne_mapserver"], "format": "image/png",
            "image": {"mode": "RGB", "transparent": False, "colors": 0},
            "meta_size": META_SIZE, "meta_buffer": META_BUFFER,
            "cache": dict(options, directory=os.path.join(cache_root, folder)),
        }
    caches = {}
    for name, (folder, _, options) in STANDARD_CACHES.items():
        caches["std_" + name] = cache("standard", options, folder + "/_alllayers")
    caches["std_xyz"] = cache("standard", {"type": "file", "directory_layout": "tms"}, "standard/xyz")
    caches["custom"] = cache("custom", {"type": "compact", "version": 2}, "custom/Layers/_alllayers")
    ox, oy = CUSTOM_ORIGIN
    proxy = {
        "globals": {
            "image": {"paletted": False, "resampling_method": "bilinear"},
            "cache": {"base_dir": os.path.join(workdir, "cache_data"),
                      "lock_dir": os.path.join(workdir, "locks")},
            "mapserver": {"binary": MAPSERV, "working_dir": workdir},
        },
        "services": {"wms": {"srs": ["EPSG:3857"], "image_formats": ["image/png"],
                             "md": {"title": "ArcGIS fixtures"}}},
        "layers": [{"name": "custom", "title": "custom grid cache", "sources": ["custom"]}],
        "grids": {
            "standard": {"srs": "EPSG:3857", "bbox": [-E, -E, E, E], "bbox_srs": "EPSG:3857",
                         "tile_size": [256, 256], "origin": "ul",
                         "res": [standard_res(z) for z in range(STANDARD_LEVELS)],
                         "stretch_factor": STRETCH},
            "custom": {"srs": "EPSG:3857", "bbox_srs": "EPSG:3857",
                       "bbox": [ox, oy - 10000000.0, ox + 10000000.0, oy],
                       "tile_size": [CUSTOM_TILE, CUSTOM_TILE], "origin": "ul",
                       "res": CUSTOM_RES, "stretch_factor": STRETCH},
        },
        "caches": caches,
        "sources": {
            "ne_mapserver": {
                "type": "mapserver",
                "req": {"map": mapfile, "layers": ref.LAYERS, "transparent": False, "format": "image/png"},
                "supported_srs": ["EPSG:3857"], "supported_formats": ["image/png"],
                "coverage": {"bbox": [-E, -E, E, E], "srs": "EPSG:3857"},
            },
        },
    }
    seed = {
        "coverages": {
            "standard_area": {"bbox": STANDARD_AREA, "srs": "EPSG:3857"},
            "custom_area": {"bbox": CUSTOM_AREA, "srs": "EPSG:3857"},
        },
        "seeds": {
            "standard": {"caches": ["std_" + n for n in list(STANDARD_CACHES) + ["xyz"]],
                         "grids": ["standard"], "levels": STANDARD_SEEDED, "coverages": ["standard_area"]},
            "custom": {"caches": ["custom"], "grids": ["custom"],
                       "levels": list(range(len(CUSTOM_RES))), "coverages": ["custom_area"]},
        },
    }
    proxy_path = os.path.join(workdir, "mapproxy.yaml")
    seed_path = os.path.join(workdir, "seed.yaml")
    # For GetMap the caches have no source: MapProxy serves what was seeded and renders nothing.
    serve = json.loads(json.dumps(proxy))
    for entry in serve["caches"].values():
        entry["sources"] = []
    serve_path = os.path.join(workdir, "mapproxy-serve.yaml")
    # JSON is valid YAML; MapProxy reads these files with its YAML loader.
    for path, content in ((proxy_path, proxy), (seed_path, seed), (serve_path, serve)):
        with open(path, "w") as f:
            json.dump(content, f, indent=1)
    return proxy_path, seed_path, serve_path


def getmap(app, bbox, width, height):
    """MapProxy's WMS 1.1.1 GetMap of the `custom` layer, through its WSGI app in this process."""
    query = "&".join([
        "SERVICE=WMS", "VERSION=1.1.1", "REQUEST=GetMap", "LAYERS=custom", "STYLES=",
        "SRS=EPSG:3857", "BBOX=" + ",".join(repr(float(v)) for v in bbox),
        "WIDTH=%d" % width, "HEIGHT=%d" % height, "FORMAT=image/png", "TRANSPARENT=false",
    ])
    environ = {
        "REQUEST_METHOD": "GET", "QUERY_STRING": query, "PATH_INFO": "/service", "SCRIPT_NAME": "",
        "SERVER_NAME": "localhost", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(), "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0), "wsgi.multithread": False, "wsgi.multiprocess": False,
        "wsgi.run_once": True,
    }
    status = []
    body = b"".join(app(environ, lambda s, headers, exc_info=None: status.append((s, headers))))
    ctype = dict(status[0][1]).get("Content-type") or dict(status[0][1]).get("Content-Type")
    if not status[0][0].startswith("200") or ctype != "image/png":
        fail("GetMap %s: %s %s\n%s" % (query, status[0][0], ctype, body[:2000].decode(errors="replace")))
    img = Image.open(io.BytesIO(body)).convert("RGB")
    if img.size != (width, height):
        fail("GetMap returned %dx%d, wanted %dx%d" % (img.size + (width, height)))
    return img


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------

def exploded_tiles(layer):
    root = os.path.join(layer, "_alllayers")
    tiles = {}
    for level in sorted(os.listdir(root)):
        for row in sorted(os.listdir(os.path.join(root, level))):
            for name in sorted(os.listdir(os.path.join(root, level, row))):
                z, y, x = int(level[1:]), int(row[1:], 16), int(name[1:9], 16)
                tiles[(z, x, y)] = os.path.join(root, level, row, name)
    return tiles


def bundle_tile(layer, version, z, x, y):
    """A tile's bytes read the way the ArcGIS formats are documented (not MapProxy's code)."""
    r, c = y // 128 * 128, x // 128 * 128
    base = os.path.join(layer, "_alllayers", "L%02d" % z, "R%04xC%04x" % (r, c))
    if version == 1:
        with open(base + ".bundlx", "rb") as f:
            f.seek(16 + 5 * ((x % 128) * 128 + y % 128))
            offset = int.from_bytes(f.read(5), "little")
        with open(base + ".bundle", "rb") as f:
            f.seek(offset)
            size = int.from_bytes(f.read(4), "little")
            return f.read(size) if size else None
    with open(base + ".bundle", "rb") as f:
        f.seek(64 + 8 * ((y % 128) * 128 + x % 128))
        entry = int.from_bytes(f.read(8), "little")
        offset, size = entry & ((1 << 40) - 1), entry >> 40
        if not size:
            return None
        f.seek(offset)
        return f.read(size)


def check_standard(out):
    exploded = exploded_tiles(os.path.join(out, "standard/exploded/Layers"))
    if not exploded:
        fail("the exploded cache is empty")
    for (z, x, y), path in exploded.items():
        pixels = np.asarray(Image.open(path).convert("RGB"))
        sources = {
            "compact-v1": bundle_tile(os.path.join(out, "standard/compact-v1/Layers"), 1, z, x, y),
            "compact-v2": bundle_tile(os.path.join(out, "standard/compact-v2/Layers"), 2, z, x, y),
        }
        with open(os.path.join(out, "standard/xyz", str(z), str(x), "%d.png" % y), "rb") as f:
            sources["xyz"] = f.read()
        for name, data in sources.items():
            if data is None:
                fail("%s has no tile %d/%d/%d" % (name, z, x, y))
            other = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
            if other.shape != pixels.shape or (other != pixels).any():
                fail("%s tile %d/%d/%d differs from the exploded one" % (name, z, x, y))
    print("check: %d tiles, the same pixels in the exploded, compact v1, compact v2 and XYZ caches"
          % len(exploded))
    return len(exploded)


def level_for(res, resolutions):
    """mapcompose's rule (and MapProxy's closest_level): the finest level not finer than the
    output within the stretch, else the next finer one."""
    candidates = [i for i, r in enumerate(resolutions) if r <= res * STRETCH]
    if not candidates:
        return len(resolutions) - 1
    chosen = candidates[0]
    while chosen + 1 < len(resolutions) and resolutions[chosen + 1] >= res * (1 - 1e-9):
        chosen += 1
    return chosen


def viewport_entry(name, cx, cy, res, width, height, resolutions, grid, area):
    lon, lat = lonlat(cx, cy)
    zoom = math.log2(2 * E / (256 * res))
    bbox = [cx - width / 2 * res, cy - height / 2 * res, cx + width / 2 * res, cy + height / 2 * res]
    if bbox[0] < area[0] or bbox[1] < area[1] or bbox[2] > area[2] or bbox[3] > area[3]:
        fail("viewport %s (%r) reaches outside the seeded area %r" % (name, bbox, area))
    level = level_for(res, resolutions)
    mp = grid.closest_level(res)
    if mp != level:
        fail("viewport %s: rule says level %d, MapProxy's closest_level %d" % (name, level, mp))
    return {"name": name, "center": [lat, lon], "zoom": zoom, "width": width, "height": height,
            "resolution": res, "bbox": bbox, "level": level, "level_resolution": resolutions[level],
            "exact_level": abs(resolutions[level] - res) < 1e-9 * res}


def main():
    if not os.access(MAPSERV, os.X_OK):
        fail("%s not found (apt-get install cgi-mapserver)" % MAPSERV)
    import mapproxy.version
    from mapproxy.grid import tile_grid
    from mapproxy.wsgiapp import make_wsgi_app

    workdir = tempfile.mkdtemp(prefix="mapcompose-arcgis-")
    try:
        ms = ref.MapServer(workdir)
        print("MapServer:", ms.version.splitlines()[0])
        print("MapProxy:", mapproxy.version.version)
        cache_root = os.path.join(workdir, "out")
        proxy_path, seed_path, serve_path = write_configs(workdir, ms.mapfile, cache_root)
        env = dict(os.environ)
        env["MAPSERVER_CONFIG_FILE"] = ms.config
        env.setdefault("LC_ALL", "C.UTF-8")
        run_seed(proxy_path, seed_path, env)

        for name, (folder, storage, _) in STANDARD_CACHES.items():
            layer = os.path.join(cache_root, folder)
            with open(os.path.join(layer, "conf.xml"), "w", newline="") as f:
                f.write(conf_xml((-E, E), 256, [standard_res(z) for z in range(STANDARD_LEVELS)], storage))
            with open(os.path.join(layer, "conf.cdi"), "w", newline="") as f:
                f.write(conf_cdi(STANDARD_AREA))
        layer = os.path.join(cache_root, "custom/Layers")
        with open(os.path.join(layer, "conf.xml"), "w", newline="") as f:
            f.write(conf_xml(CUSTOM_ORIGIN, CUSTOM_TILE, CUSTOM_RES, "esriMapCacheStorageModeCompactV2"))
        with open(os.path.join(layer, "conf.cdi"), "w", newline="") as f:
            f.write(conf_cdi(CUSTOM_AREA))
        # MapProxy's lock files are not part of a cache.
        for folder, subfolders, files in os.walk(cache_root, topdown=False):
            for name in files:
                if name.endswith(".lck"):
                    os.remove(os.path.join(folder, name))
            if os.path.basename(folder) == "tile_locks":
                shutil.rmtree(folder)
        tiles = check_standard(cache_root)

        # Viewports and MapProxy's GetMap from the custom cache alone (the cache has no source).
        app = make_wsgi_app(serve_path)
        ox, oy = CUSTOM_ORIGIN
        custom_grid = tile_grid(srs="EPSG:3857", tile_size=(CUSTOM_TILE, CUSTOM_TILE), origin="ul",
                                res=CUSTOM_RES, bbox=(ox, oy - 10000000.0, ox + 10000000.0, oy),
                                stretch_factor=STRETCH)
        standard_grid = tile_grid(srs="EPSG:3857", tile_size=(256, 256), origin="ul",
                                  res=[standard_res(z) for z in range(STANDARD_LEVELS)],
                                  bbox=(-E, -E, E, E), stretch_factor=STRETCH)
        os.makedirs(os.path.join(cache_root, "custom/getmap"))
        custom = []
        for name, res, width, height, cx, cy in CUSTOM_VIEWPORTS:
            if res in CUSTOM_RES:
                # Put the bbox's corner on the level's pixel grid: an exact crop of the tiles.
                minx = ox + round((cx - width / 2 * res - ox) / res) * res
                maxy = oy - round((oy - (cy + height / 2 * res)) / res) * res
                cx, cy = minx + width / 2 * res, maxy - height / 2 * res
            entry = viewport_entry(name, cx, cy, res, width, height, CUSTOM_RES, custom_grid, CUSTOM_AREA)
            getmap(app, entry["bbox"], width, height).save(
                os.path.join(cache_root, "custom/getmap", name + ".png"), format="PNG", optimize=True)
            custom.append(entry)
            print("GetMap %s: %dx%d at %g m/px, level %d" % (name, width, height, res, entry["level"]))
        standard = []
        for name, cx, cy, width, height in STANDARD_VIEWPORTS:
            zoom = float(name.rsplit("-z", 1)[1])
            res = 2 * E / (256 * 2 ** zoom)
            standard.append(viewport_entry(name, cx, cy, res, width, height,
                                           [standard_res(z) for z in range(STANDARD_LEVELS)], standard_grid,
                                           STANDARD_AREA))

        with open(os.path.join(cache_root, "manifest.json"), "w") as f:
            json.dump({
                "comment": "Written by scripts/reference/make_arcgis.py. center is [lat, lon]; zoom gives "
                           "the output resolution (2E / (256 * 2^zoom) m/px); bbox is in EPSG:3857 metres; "
                           "level is the LOD MapProxy's closest_level picks (stretch 1.15).",
                "mapproxy": mapproxy.version.version,
                "mapserver": ms.version.splitlines()[0],
                "standard": {"levels_seeded": STANDARD_SEEDED, "area": STANDARD_AREA, "tiles": tiles,
                             "viewports": standard},
                "custom": {"tile_size": CUSTOM_TILE, "origin": list(CUSTOM_ORIGIN), "resolutions": CUSTOM_RES,
                           "area": CUSTOM_AREA, "viewports": custom},
            }, f, indent=1)
            f.write("\n")

        keep = os.path.join(OUT, "README.md")
        readme = open(keep).read() if os.path.exists(keep) else None
        shutil.rmtree(OUT, ignore_errors=True)
        shutil.copytree(cache_root, OUT)
        if readme is not None:
            with open(keep, "w") as f:
                f.write(readme)
        print("done: %s" % os.path.relpath(OUT, ref.ROOT))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
