#!/usr/bin/env python3
"""Generate Tests/Fixtures/Reference512: 512-px Web Mercator tiles seeded by MapProxy.

MapProxy (Debian python3-mapproxy) seeds a file cache from a `mapserver` source:
MapProxy runs Debian's mapserv CGI binary itself (no HTTP server, no network) over
scripts/reference/naturalearth.map, the same mapfile, data and layers
(land,borders) that make_reference.py uses for the 256-px set and the reference
images. The grid is EPSG:3857 with 512x512 tiles and origin `ul`, so MapProxy's
tile (x, y, z) is the standard XYZ addressing of a 512-px Web Mercator grid
(level z has 2^z x 2^z tiles, y = 0 at the north). The cache uses MapProxy's
`tms` directory layout, which is `{z}/{x}/{y}.png` with the grid's own y; with
origin `ul` that y already counts from the top, so no flip is needed (the script
checks this against the 256-px MapServer tiles, see below).

Which tiles: levels 0-2 complete, and for every viewport of
Tests/Fixtures/Reference/viewports.json the tiles of the level it draws (plus a
1-tile margin, x wrapped modulo 2^z, y clamped), where the level follows the rule

    device zoom d = zoom + log2(scale); output resolution r = 2E / (256 * 2^d)
    level = the coarsest level L of the grid whose resolution 2E / (512 * 2^L)
            is <= r * 1.15

(for 256-px tiles this is L = ceil(d - log2(1.15)); for 512 px one less). The
script also asks MapProxy's own TileGrid.closest_level for each viewport and
fails if it disagrees.

Outputs (wiped and rewritten each run):
  Tests/Fixtures/Reference512/tiles/{z}/{x}/{y}.png   8-bit RGB PNG tiles
  Tests/Fixtures/Reference512/manifest.json           per viewport: level, tiles,
                                                      and the figures of the checks

Checks (results go to the manifest and stdout; the run fails beyond the limits):
  * every 512-px tile of level z is compared with the mosaic of the four 256-px
    MapServer tiles of level z+1 that cover the same area at the same resolution
    (where Tests/Fixtures/Reference/tiles has them). A flipped or shifted tile set
    fails this at once.
  * for each viewport the covering tiles are stitched, the bbox is cut out and
    resampled once to the output size (Pillow bilinear; a plain crop when it is
    pixel-aligned at the same resolution) and compared with the MapServer GetMap
    image in Tests/Fixtures/Reference/images (pixelmatch-style YIQ delta,
    threshold 0.1). Viewports whose output resolution equals the level's must
    stay within 1%; the others are reported only.

Run: scripts/reference/make-mapproxy-512.sh (installs the Debian packages first).
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_reference as ref  # noqa: E402  (shared Web Mercator math, data clipping, mapfile set-up)

try:
    import numpy as np
    from PIL import Image
except ImportError:  # pragma: no cover
    sys.exit("make_mapproxy_512.py: needs python3-pil and python3-numpy")

E = ref.E
TILE = 512
STRETCH = 1.15
FULL_LEVELS = range(0, 3)
META_SIZE = [2, 2]
META_BUFFER = 32          # px rendered around each meta tile and cut off again
OUT = os.path.join(ref.ROOT, "Tests", "Fixtures", "Reference512")
REF256 = ref.OUT
MAPSERV = "/usr/lib/cgi-bin/mapserv"
# Limits of the self-checks.
CHILD_MOSAIC_MAX_FRACTION = 0.002   # share of pixels differing (YIQ threshold 0.1)
VIEWPORT_MAX_FRACTION = 0.01


def fail(msg):
    sys.stderr.write("make_mapproxy_512.py: ERROR: %s\n" % msg)
    sys.exit(1)


# --------------------------------------------------------------------------
# Level rule and tiles
# --------------------------------------------------------------------------

def level_resolution(z):
    return 2 * E / (TILE * 2 ** z)


def rule_level(res, max_level=30):
    """The coarsest level whose resolution is <= res * STRETCH (clamped)."""
    for z in range(0, max_level + 1):
        if level_resolution(z) <= res * STRETCH:
            return z
    return max_level


def mapproxy_grid():
    from mapproxy.grid import tile_grid
    return tile_grid(srs="EPSG:3857", tile_size=(TILE, TILE), origin="ul",
                     res=[level_resolution(z) for z in range(0, 21)],
                     bbox=(-E, -E, E, E), stretch_factor=STRETCH)


# --------------------------------------------------------------------------
# pixelmatch-style comparison (YIQ colour delta as in pixelmatch; no
# anti-aliasing detection, so it is slightly stricter than the Swift helper)
# --------------------------------------------------------------------------

def yiq_delta(a, b):
    a = a.astype(np.float64)
    b = b.astype(np.float64)

    def yiq(p):
        r, g, bl = p[..., 0], p[..., 1], p[..., 2]
        y = r * 0.29889531 + g * 0.58662247 + bl * 0.11448223
        i = r * 0.59597799 - g * 0.27417610 - bl * 0.32180189
        q = r * 0.21147017 - g * 0.52261711 + bl * 0.31114694
        return y, i, q
    y1, i1, q1 = yiq(a)
    y2, i2, q2 = yiq(b)
    dy, di, dq = y1 - y2, i1 - i2, q1 - q2
    return 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq


def compare(a, b, threshold=0.1):
    """(fraction of pixels over the pixelmatch threshold, max channel difference)."""
    a = np.asarray(a.convert("RGB"))
    b = np.asarray(b.convert("RGB"))
    if a.shape != b.shape:
        fail("compare: sizes differ %r vs %r" % (a.shape, b.shape))
    max_delta = 35215.0 * threshold * threshold
    over = yiq_delta(a, b) > max_delta
    maxdiff = int(np.abs(a.astype(int) - b.astype(int)).max())
    return float(over.mean()), maxdiff


# --------------------------------------------------------------------------
# MapProxy
# --------------------------------------------------------------------------

def write_configs(workdir, mapfile, blocks):
    cache_dir = os.path.join(workdir, "cache")
    proxy = {
        "globals": {
            "image": {"paletted": False},
            "cache": {"base_dir": cache_dir, "lock_dir": os.path.join(workdir, "locks")},
            "mapserver": {"binary": MAPSERV, "working_dir": workdir},
        },
        "services": {"demo": None},
        "layers": [{"name": "naturalearth", "title": "Natural Earth", "sources": ["ne_cache"]}],
        "grids": {
            "webmercator512": {
                "srs": "EPSG:3857",
                "bbox": [-E, -E, E, E],
                "bbox_srs": "EPSG:3857",
                "tile_size": [TILE, TILE],
                "origin": "ul",
                "res": [level_resolution(z) for z in range(0, 21)],
                "stretch_factor": STRETCH,
            },
        },
        "caches": {
            "ne_cache": {
                "grids": ["webmercator512"],
                "sources": ["ne_mapserver"],
                "format": "image/png",
                "image": {"mode": "RGB", "transparent": False, "colors": 0},
                "meta_size": META_SIZE,
                "meta_buffer": META_BUFFER,
                "cache": {"type": "file", "directory_layout": "tms",
                          "directory": os.path.join(cache_dir, "tiles")},
            },
        },
        "sources": {
            "ne_mapserver": {
                "type": "mapserver",
                "req": {"map": mapfile, "layers": ref.LAYERS, "transparent": False,
                        "format": "image/png"},
                "supported_srs": ["EPSG:3857"],
                "supported_formats": ["image/png"],
                "coverage": {"bbox": [-E, -E, E, E], "srs": "EPSG:3857"},
            },
        },
    }
    # One seed per block of tiles (a level, or a viewport's tiles plus margin,
    # split at the antimeridian). Its coverage is the block's bbox shrunk by a
    # quarter tile on every side, so no tile that only touches it is seeded.
    seeds = {}
    coverages = {}
    for i, (z, xs, ys) in enumerate(blocks):
        size = 2 * E / 2 ** z
        minx = -E + xs[0] * size
        maxx = -E + (xs[1] + 1) * size
        maxy = E - ys[0] * size
        miny = E - (ys[1] + 1) * size
        name = "block%02d_z%d" % (i, z)
        coverages[name] = {"bbox": [minx + 0.25 * size, miny + 0.25 * size,
                                    maxx - 0.25 * size, maxy - 0.25 * size],
                           "srs": "EPSG:3857"}
        seeds[name] = {"caches": ["ne_cache"], "grids": ["webmercator512"],
                       "levels": [z], "coverages": [name]}
    seed = {"seeds": seeds, "coverages": coverages}
    proxy_path = os.path.join(workdir, "mapproxy.yaml")
    seed_path = os.path.join(workdir, "seed.yaml")
    # JSON is valid YAML; MapProxy reads both files with its YAML loader.
    with open(proxy_path, "w") as f:
        json.dump(proxy, f, indent=1)
    with open(seed_path, "w") as f:
        json.dump(seed, f, indent=1)
    return proxy_path, seed_path, os.path.join(cache_dir, "tiles")


def run_seed(proxy_path, seed_path, env):
    cmd = ["/usr/bin/python3", "-m", "mapproxy.seed.script",
           "-f", proxy_path, "-s", seed_path, "-c", "1", "--seed", "ALL"]
    print("running:", " ".join(cmd))
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    log = p.stdout.decode(errors="replace")
    if p.returncode != 0:
        fail("mapproxy seed exited %d\n%s" % (p.returncode, log[-4000:]))
    bad = [line for line in log.splitlines()
           if "error" in line.lower() or "exception" in line.lower()]
    if bad:
        fail("mapproxy seed reported problems:\n%s" % "\n".join(bad[:20]))
    return cmd, log


# --------------------------------------------------------------------------

def mosaic(tile_dir, size, z, xs, ys):
    img = Image.new("RGB", (size * len(xs), size * len(ys)))
    for i, x in enumerate(xs):
        for j, y in enumerate(ys):
            img.paste(Image.open(os.path.join(tile_dir, str(z), str(x % 2 ** z), "%d.png" % y)),
                      (i * size, j * size))
    return img


def viewport_from_tiles(tile_dir, g, z):
    """The viewport image made from level-z tiles the simple way: stitch the
    covering tiles, then cut the bbox out and resample it once to the output
    size (Pillow's bilinear filter, which widens its support when it shrinks).
    A crop at whole pixels when the level's resolution equals the output's and
    the bbox lies on the tile pixel grid. Returns (image, [offset x, offset y,
    tile px per output px]) or None when the bbox leaves the grid vertically."""
    res = g["res"]
    lres = level_resolution(z)
    k = res / lres
    size = 2 * E / 2 ** z
    b = g["bbox"]
    x0 = math.floor((b[0] + E) / size)
    x1 = math.ceil((b[2] + E) / size) - 1
    y0 = math.floor((E - b[3]) / size)
    y1 = math.ceil((E - b[1]) / size) - 1
    n = 2 ** z
    if y0 < 0 or y1 >= n:
        return None
    big = mosaic(tile_dir, TILE, z, list(range(x0, x1 + 1)), list(range(y0, y1 + 1)))
    # The bbox's top-left corner inside the mosaic, in tile pixels.
    ox = (b[0] - (-E + x0 * size)) / lres
    oy = ((E - y0 * size) - b[3]) / lres
    w, h = g["width"], g["height"]
    if abs(k - 1) < 1e-9 and abs(ox - round(ox)) < 1e-6 and abs(oy - round(oy)) < 1e-6:
        ox, oy = int(round(ox)), int(round(oy))
        return big.crop((ox, oy, ox + w, oy + h)), [ox, oy, 1.0]
    img = big.resize((w, h), resample=Image.BILINEAR, box=(ox, oy, ox + w * k, oy + h * k))
    return img, [ox, oy, k]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-optipng", action="store_true", help="skip optipng")
    ap.add_argument("--keep-workdir", action="store_true",
                    help="keep the temporary directory (configs, cache, mapfile)")
    args = ap.parse_args()

    if not os.access(MAPSERV, os.X_OK):
        fail("%s not found (apt-get install cgi-mapserver)" % MAPSERV)
    import mapproxy.version
    mapproxy_version = mapproxy.version.version
    grid = mapproxy_grid()

    with open(ref.VIEWPORTS) as f:
        viewports = json.load(f)["viewports"]

    wanted = set()
    blocks = []   # (z, [x0, x1], [y0, y1]) rectangles of tiles to seed, inside the matrix
    for z in FULL_LEVELS:
        wanted.update((z, x, y) for x in range(2 ** z) for y in range(2 ** z))
        blocks.append((z, [0, 2 ** z - 1], [0, 2 ** z - 1]))
    manifest = []
    for vp in viewports:
        g = ref.viewport_geometry(vp)
        device_zoom = float(vp["zoom"]) + math.log2(float(vp["scale"]))
        z = rule_level(g["res"])
        mp = grid.closest_level(g["res"])
        if mp != z:
            fail("viewport %s: rule says level %d, MapProxy closest_level %d" % (vp["name"], z, mp))
        need, rng = ref.tiles_for_bbox(g["bbox"], z)
        wide, _ = ref.tiles_for_bbox(g["bbox"], z, margin=1)
        wanted.update((z, x, y) for x, y in wide)
        _, wide_rng = ref.tiles_for_bbox(g["bbox"], z, margin=1)
        n = 2 ** z
        x0, x1 = wide_rng["x"]
        if x1 - x0 + 1 >= n:
            x0, x1 = 0, n - 1
        for start in range(x0, x1 + 1):
            # split the unwrapped column range where it crosses a world edge
            if start == x0 or start % n == 0:
                end = min(x1, start + (n - 1 - start % n))
                blocks.append((z, [start % n, end % n], wide_rng["y"]))
        manifest.append({
            "name": vp["name"], "zoom": vp["zoom"], "scale": vp["scale"],
            "device_zoom": device_zoom,
            "device_width": g["width"], "device_height": g["height"],
            "meters_per_device_pixel": g["res"], "bbox": g["bbox"],
            "level": z, "level_resolution": level_resolution(z),
            "tile_scale": level_resolution(z) / g["res"],
            "mapproxy_closest_level": mp,
            "tiles_x_range_unwrapped": rng["x"], "tiles_y_range": rng["y"],
            "tiles": [[z, x, y] for x, y in need],
        })

    workdir = tempfile.mkdtemp(prefix="mapcompose-mapproxy512-")
    try:
        ms = ref.MapServer(workdir)   # writes the mapfile, clipped data and MapServer config
        print("MapServer:", ms.version.splitlines()[0])
        print("MapProxy:", mapproxy_version)
        proxy_path, seed_path, cache_tiles = write_configs(workdir, ms.mapfile, blocks)
        env = dict(os.environ)
        env["MAPSERVER_CONFIG_FILE"] = ms.config
        env.setdefault("LC_ALL", "C.UTF-8")
        cmd, log = run_seed(proxy_path, seed_path, env)

        tile_dir = os.path.join(OUT, "tiles")
        shutil.rmtree(tile_dir, ignore_errors=True)
        written = []
        for z, x, y in sorted(wanted):
            src = os.path.join(cache_tiles, str(z), str(x), "%d.png" % y)
            if not os.path.exists(src):
                fail("MapProxy did not write tile %d/%d/%d (%s)" % (z, x, y, src))
            img = Image.open(src)
            if img.size != (TILE, TILE):
                fail("tile %s is %dx%d" % (src, img.size[0], img.size[1]))
            dst = os.path.join(tile_dir, str(z), str(x), "%d.png" % y)
            ref.save_png(img.convert("RGB"), dst)   # 8-bit RGB, no ancillary chunks
            written.append(dst)
        if not args.no_optipng:
            if ref.have_optipng():
                ref.optimise(written)
            else:
                print("optipng not found: PNGs left as Pillow wrote them")
        per_level = {}
        for z, _, _ in wanted:
            per_level[z] = per_level.get(z, 0) + 1
        print("tiles:", ", ".join("z%d: %d" % (z, n) for z, n in sorted(per_level.items())),
              "(total %d)" % len(wanted))
        for p in written:
            im = Image.open(p)
            if im.mode != "RGB":
                fail("%s is %s, not RGB" % (p, im.mode))

        # ---- check 1: each 512 tile vs the four 256 MapServer tiles of z+1 ----
        ref_tiles = os.path.join(REF256, "tiles")
        child_checks = []
        worst = 0.0
        for z, x, y in sorted(wanted):
            kids = [(2 * x + i, 2 * y + j) for j in (0, 1) for i in (0, 1)]
            if not all(os.path.exists(os.path.join(ref_tiles, str(z + 1), str(kx), "%d.png" % ky))
                       for kx, ky in kids):
                continue
            m = mosaic(ref_tiles, 256, z + 1, [2 * x, 2 * x + 1], [2 * y, 2 * y + 1])
            frac, maxd = compare(Image.open(os.path.join(tile_dir, str(z), str(x), "%d.png" % y)), m)
            child_checks.append({"tile": [z, x, y], "differing_fraction": round(frac, 6),
                                 "max_channel_difference": maxd})
            worst = max(worst, frac)
        print("check: %d tiles vs the mosaic of their four 256-px MapServer tiles at z+1: "
              "worst differing fraction %.5f%%" % (len(child_checks), worst * 100))
        if not child_checks:
            fail("no tile could be checked against the 256-px MapServer tiles")
        if worst > CHILD_MOSAIC_MAX_FRACTION:
            fail("a 512-px tile differs from its 256-px children by %.4f%%" % (worst * 100))
        # The same check with y flipped must fail clearly (shows the check can see a flip).
        z, x, y = 1, 0, 0
        m = mosaic(ref_tiles, 256, 2, [0, 1], [2, 3])
        flipped, _ = compare(Image.open(os.path.join(tile_dir, "1", "0", "0.png")), m)
        print("check: tile 1/0/0 against the 256-px tiles of 1/0/1 (a y-flip) differs at "
              "%.2f%% (must be large)" % (flipped * 100))
        if flipped < 0.05:
            fail("cannot tell tile 1/0/0 from 1/0/1")

        # ---- check 2: stitched viewports at an exact level vs MapServer GetMap --
        for m in manifest:
            g = {"res": m["meters_per_device_pixel"], "bbox": m["bbox"],
                 "width": m["device_width"], "height": m["device_height"]}
            got = viewport_from_tiles(tile_dir, g, m["level"])
            if got is None:
                continue
            img, offset = got
            expected = Image.open(os.path.join(REF256, "images", m["name"] + ".png"))
            frac, maxd = compare(img, expected)
            m["stitch_check"] = {"pixel_offset_in_mosaic": offset[:2],
                                 "tile_pixels_per_output_pixel": offset[2],
                                 "differing_fraction": round(frac, 6),
                                 "max_channel_difference": maxd}
            exact = abs(offset[2] - 1) < 1e-9
            m["stitch_check"]["same_resolution"] = exact
            print("check: %s from level-%d tiles (offset %.3f,%.3f px, %.4f tile px per output px) "
                  "vs MapServer GetMap: %.4f%% of pixels differ, max channel difference %d"
                  % (m["name"], m["level"], offset[0], offset[1], offset[2], frac * 100, maxd))
            # Only a same-resolution stitch is held to the limit; a resampled one
            # (Pillow's filter, not mapcompose's) is reported for information.
            if exact and frac > VIEWPORT_MAX_FRACTION:
                fail("%s: stitched tiles differ from the GetMap image at %.3f%% of pixels"
                     % (m["name"], frac * 100))

        with open(os.path.join(OUT, "manifest.json"), "w") as f:
            json.dump({
                "comment": "Written by scripts/reference/make_mapproxy_512.py: for each viewport of "
                           "Tests/Fixtures/Reference/viewports.json, the 512-px level it draws "
                           "(coarsest level whose resolution <= output resolution * 1.15) and the "
                           "tiles of that level that cover its bbox (without the 1-tile margin "
                           "tiles/ also holds). tiles are [z, x, y], XYZ, y = 0 at the north.",
                "mapproxy": mapproxy_version,
                "mapserver": ms.version.splitlines()[0],
                "tile_size": TILE,
                "stretch_factor": STRETCH,
                "meta_size": META_SIZE,
                "meta_buffer_px": META_BUFFER,
                "seed_command": "python3 -m mapproxy.seed.script -f mapproxy.yaml -s seed.yaml "
                                "-c 1 --seed ALL",
                "tile_counts": {str(z): n for z, n in sorted(per_level.items())},
                "checks": {
                    "tiles_vs_256_children": {
                        "tiles_checked": len(child_checks),
                        "worst_differing_fraction": round(worst, 6),
                        "worst_max_channel_difference": max(c["max_channel_difference"]
                                                            for c in child_checks),
                        "y_flipped_tile_differing_fraction": round(flipped, 4),
                    },
                },
                "viewports": manifest,
            }, f, indent=1)
            f.write("\n")
        if args.keep_workdir:
            print("workdir kept:", workdir)
        print("done: %d tiles in %s" % (len(wanted), os.path.relpath(tile_dir, ref.ROOT)))
    finally:
        if not args.keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
