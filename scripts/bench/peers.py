"""Driver of `make bench-peers` (run by peers.sh inside its throwaway virtual environment).

Serves the tiles on 127.0.0.1, starts each peer helper in its own Python process (they time
their own renders, see peer_common.py), renders every view once cold with each peer, once warm
with every tool, then `--repeats` timed rounds in which the tools take turns: mapcompose as a
whole process timed from outside, the peers warm inside their process. Then it compares every
peer's PNG with mapcompose's and prints the machine, the versions and one table per case.
mapcompose also takes a turn held to one core, since the peers use one. With `--peers none`
(as `make bench` runs it) only mapcompose is timed, on the same cases.

Three cases:

- single layer: one layer of the committed tile folder (Tests/Fixtures/Reference/tiles) at a
  whole zoom, no overlays, no attribution. The views are whole-pixel aligned so that all three
  tools draw each tile on the same pixel grid: the image's top-left corner is a whole world
  pixel at the view's zoom (256-px tiles). The committed tiles have zoom 6 only around a few test
  regions; a 5x5 block (x 29-33, y 18-22: the British Isles) holds 512² and 1024² at zoom 6. No
  zoom 6 block holds 2048² (9x9 tiles), so 2048² is the whole world at zoom 3 (64 tiles).
- realistic: two layers of 256-px PNG tiles (the built-in style and the geojson-night style,
  made at the start by cutting mapcompose renders into tiles with Pillow), the second at
  opacity 0.5; zoom 5.37 over central Europe (tiles of level 6 resampled); three icon markers
  and a path of 50 points drawn over the map; the attribution on; at 1024² and 2048². What a
  peer cannot draw is left out of its render, and its image is compared with a mapcompose
  render (untimed) of just what it draws: py-staticmaps renders whole zooms only (zoom 5, the
  nearest), MapProxy draws no markers, paths or attribution.
- vector: the committed MapLibre style (Styles/maplibre.json: background, water and ice fills,
  country boundaries, capital circles) over the committed OpenMapTiles-schema fixture (maxzoom
  4, so overzoomed) at mapcompose zooms 5, 6 and 7 (GL 4-6) at 1024² and 2048², against
  MapLibre Native (PyPI pymgl, OpenGL through Mesa's EGL, software rendering where there is no
  GPU), one map in its own process moved from view to view, reading the tiles from the MBTiles
  copy of the fixture (no `pmtiles://` in pymgl).
"""

import argparse
import filecmp
import functools
import http.server
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import threading
import time

from PIL import Image, ImageChops, ImageDraw

E = 20037508.342789244  # half the Web Mercator world, metres
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Single layer: (size, zoom, centre in tile units of that zoom)
VIEWS = [(512, 6, (31.5, 20.5)), (1024, 6, (31.5, 20.5)), (2048, 3, (4.0, 4.0))]
PEERS = [("py-staticmaps", "peer_staticmaps.py"), ("MapProxy", "peer_mapproxy.py")]
# The vector case's peer (a MapLibre style over vector tiles).
VECTOR_PEERS = [("MapLibre-Native", "peer_pymgl.py")]

# Vector: Styles/maplibre.json over the OpenMapTiles-schema fixture (PMTiles for mapcompose, the
# MBTiles copy of the same tiles for pymgl), over central Europe at mapcompose zooms 5-7 (GL 4-6).
VECTOR_STYLE = "Styles/maplibre.json"
VECTOR_TILES = "Tests/Fixtures/MapLibre/ne-omt"
VECTOR_SIZES = [1024, 2048]
VECTOR_ZOOMS = [5, 6, 7]
VECTOR_CENTER = (48.0, 10.0)

# Realistic: the centre is a whole pixel at zoom 5 (for py-staticmaps' whole zoom), in tile units
# of zoom 5: 47.04 N, 8.44 E.
REALISTIC_SIZES = [1024, 2048]
REALISTIC_ZOOM = 5.37
REALISTIC_CENTER = (16.75, 11.25)
REALISTIC_STYLES = [("base", "Styles/default.yaml", 1.0), ("night", "Styles/geojson-night.yaml", 0.5)]
ATTRIBUTION = "Natural Earth (public domain)"
MARKERS = [(45.76, 4.84), (47.37, 8.54), (48.21, 16.37)]  # Lyon, Zürich, Vienna
ICON_SIZE, ICON_ANCHOR = 24, (12, 12)
PATH_COLOR, PATH_WIDTH = "#c00000", 3
# What each peer draws of the realistic case; the rest is left out of its render.
LIMITS = {
    "py-staticmaps": {"whole_zoom": True},
    "MapProxy": {"overlays": False, "attribution": False},
}
LIMIT_NOTES = {
    "py-staticmaps": f"whole zooms only: renders zoom {round(REALISTIC_ZOOM)} (the nearest; its level-"
                     f"{round(REALISTIC_ZOOM)} tiles unscaled) where the others render {REALISTIC_ZOOM}",
    "MapProxy": "draws no markers, paths or attribution: its realistic render is the two layers, "
                "the opacity and the fractional zoom only",
}


def latlon(x_tiles, y_tiles, zoom):
    """The latitude and longitude of a point given in tile units of `zoom`."""
    nx, ny = x_tiles / 2**zoom, y_tiles / 2**zoom
    return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * ny)))), nx * 360 - 180


def view_geometry(size, zoom, center_tiles, name=None):
    """A square view of `size` px at `zoom` centred on `center_tiles` (tile units of `zoom`): its
    centre, its EPSG:3857 bbox and, where `zoom` is whole, its top-left world pixel."""
    world = 256 * 2**zoom  # world size in pixels
    cx, cy = (c * 256 for c in center_tiles)
    left, top = cx - size / 2, cy - size / 2
    # The centre handed to every tool, 1e-7 px right of and below the exact one: py-staticmaps
    # truncates its pixel offset, and a value a rounding error short of the whole pixel would
    # put its tiles one pixel off. mapcompose treats offsets under 1e-6 px as aligned.
    lat, lon = latlon((cx + 1e-7) / 256, (cy + 1e-7) / 256, zoom)
    res = 2 * E / world
    first = lambda edge: int(edge // 256)
    tiles = (first(left + size - 1) - first(left) + 1) * (first(top + size - 1) - first(top) + 1)
    view = {
        "name": name or f"{size}x{size}", "size": f"{size}x{size}", "width": size, "height": size, "zoom": zoom,
        "tiles": tiles, "lat": lat, "lon": lon,
        "bbox": [-E + left * res, E - (top + size) * res, -E + (left + size) * res, E - top * res],
    }
    if zoom == int(zoom):
        assert left == int(left) and top == int(top), "views must start on a whole pixel"
        view.update(left=int(left), top=int(top))
    return view


def single_layer_views(url, style):
    views = []
    for size, zoom, center in VIEWS:
        view = view_geometry(size, zoom, center)
        view.update(case="single layer", style=style, layers=[{"url": url, "opacity": 1.0}])
        views.append(view)
    return views


def realistic_views(urls, style, icon):
    """The realistic case at each size; `urls` holds one tile URL template per REALISTIC_STYLES."""
    centre = latlon(*REALISTIC_CENTER, 5)
    path = route()
    views = []
    for size in REALISTIC_SIZES:
        # The centre in tile units of the fractional zoom (the same point).
        scale = 2 ** (REALISTIC_ZOOM - 5)
        view = view_geometry(size, REALISTIC_ZOOM, tuple(c * scale for c in REALISTIC_CENTER),
                             name=f"realistic-{size}x{size}")
        view.update(case="realistic", style=style, lat=centre[0], lon=centre[1],
                    layers=[{"url": url, "opacity": opacity} for url, (_, _, opacity) in zip(urls, REALISTIC_STYLES)],
                    markers=[list(m) for m in MARKERS], icon=icon, anchor=list(ICON_ANCHOR),
                    path=path, path_color=PATH_COLOR, path_width=PATH_WIDTH, attribution=ATTRIBUTION)
        view["tiles"] = tiles_at_level(view, 6)
        views.append(view)
    return views


def route():
    """50 points from Lyon over Zürich to Vienna, winding as a road does."""
    (a_lat, a_lon), (b_lat, b_lon), (c_lat, c_lon) = MARKERS
    points = []
    for i in range(50):
        t = i / 49
        if t <= 0.5:
            u = t / 0.5
            lat, lon = a_lat + (b_lat - a_lat) * u, a_lon + (b_lon - a_lon) * u
        else:
            u = (t - 0.5) / 0.5
            lat, lon = b_lat + (c_lat - b_lat) * u, b_lon + (c_lon - b_lon) * u
        wiggle = 0.35 * math.sin(t * math.pi * 9) * math.sin(t * math.pi)
        points.append([round(lat + wiggle, 5), round(lon - wiggle * 0.5, 5)])
    return points


def tiles_at_level(view, level):
    """How many tiles of `level` the view covers."""
    res = 2 * E / (256 * 2**level)
    x0, y1, x1, y0 = view["bbox"]
    col = lambda x: (x + E) / res / 256
    row = lambda y: (E - y) / res / 256
    return (math.ceil(col(x1)) - math.floor(col(x0))) * (math.ceil(row(y1)) - math.floor(row(y0)))


def as_drawn_by(view, peer):
    """The view as `peer` renders it: the realistic case without what the peer cannot draw."""
    limits = LIMITS.get(peer, {}) if view["case"] == "realistic" else {}
    drawn = dict(view)
    if limits.get("whole_zoom") and drawn["zoom"] != int(drawn["zoom"]):
        zoom = round(drawn["zoom"])
        scale = 2 ** (zoom - 5)
        aligned = view_geometry(drawn["width"], zoom, tuple(c * scale for c in REALISTIC_CENTER), name=drawn["name"])
        drawn.update(zoom=zoom, lat=aligned["lat"], lon=aligned["lon"], bbox=aligned["bbox"], left=aligned["left"],
                     top=aligned["top"])
    if limits.get("overlays") is False:
        for key in ("markers", "path"):
            drawn.pop(key, None)
    if limits.get("attribution") is False:
        drawn.pop("attribution", None)
    return drawn


def make_realistic_tiles(binary, folder):
    """256-px RGB PNG tiles of each of REALISTIC_STYLES under folder/<name>/{z}/{x}/{y}.png:
    level 6 for the fractional zoom, level 5 for py-staticmaps' whole zoom, each covering the
    largest view with a tile to spare. One mapcompose render per style and level, cut up."""
    blocks = {}
    largest = max(REALISTIC_SIZES)
    for level, zoom in ((6, REALISTIC_ZOOM), (5, 5)):
        half = largest / 2 * 2 ** (level - zoom) / 256  # half the view, in tiles of `level`
        cx, cy = (c * 2 ** (level - 5) for c in REALISTIC_CENTER)
        blocks[level] = (math.floor(cx - half) - 1, math.floor(cy - half) - 1,
                         math.ceil(cx + half) + 1, math.ceil(cy + half) + 1)  # x0, y0, x1, y1 (exclusive)
    count = 0
    os.makedirs(folder, exist_ok=True)
    for name, style, _ in REALISTIC_STYLES:
        for level, (x0, y0, x1, y1) in blocks.items():
            lat, lon = latlon((x0 + x1) / 2 + 1e-9, (y0 + y1) / 2 + 1e-9, level)
            big = os.path.join(folder, f"{name}-{level}.png")
            subprocess.run([binary, "--style", os.path.join(ROOT, style), "--center", f"{lat!r},{lon!r}",
                            "--zoom", str(level), "--size", f"{(x1 - x0) * 256}x{(y1 - y0) * 256}",
                            "--no-attribution", big], check=True, stdout=subprocess.DEVNULL)
            image = Image.open(big).convert("RGB")
            for x in range(x0, x1):
                os.makedirs(os.path.join(folder, name, str(level), str(x)), exist_ok=True)
                for y in range(y0, y1):
                    left, top = (x - x0) * 256, (y - y0) * 256
                    image.crop((left, top, left + 256, top + 256)).save(
                        os.path.join(folder, name, str(level), str(x), f"{y}.png"))
                    count += 1
            os.remove(big)
    return count


def make_icon(path):
    """A 24-px round marker icon: red with a white ring, antialiased (drawn 4x and reduced)."""
    big = Image.new("RGBA", (ICON_SIZE * 4, ICON_SIZE * 4), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.ellipse((8, 8, ICON_SIZE * 4 - 8, ICON_SIZE * 4 - 8), fill=(255, 255, 255, 255))
    draw.ellipse((20, 20, ICON_SIZE * 4 - 20, ICON_SIZE * 4 - 20), fill=(214, 40, 40, 255))
    big.resize((ICON_SIZE, ICON_SIZE), Image.LANCZOS).save(path)


class TileServer(http.server.ThreadingHTTPServer):
    """A folder on 127.0.0.1 (a free port), counting the requests it answers."""

    def __init__(self, folder):
        server = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def send_head(self):
                server.requests += 1
                return super().send_head()

        self.requests = 0
        super().__init__(("127.0.0.1", 0), functools.partial(Handler, directory=folder))
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def url(self, under=""):
        return f"http://127.0.0.1:{self.server_address[1]}/{under}{{z}}/{{x}}/{{y}}.png"


def mapcompose_arguments(view):
    """mapcompose's command line for `view` (less the binary and the output)."""
    arguments = ["--style", view["style"], "--center", f"{view['lat']!r},{view['lon']!r}",
                 "--zoom", str(view["zoom"]), "--size", view["size"]]
    for lat, lon in view.get("markers", []):
        arguments += ["--marker", f"{lat},{lon};icon={view['icon']};anchor={view['anchor'][0]},{view['anchor'][1]}"]
    if "path" in view:
        arguments += ["--path", ";".join(f"{lat},{lon}" for lat, lon in view["path"])
                      + f";color={view['path_color']};width={view['path_width']}"]
    if "attribution" not in view:
        arguments.append("--no-attribution")
    return arguments


class Mapcompose:
    """mapcompose as a whole process per render, timed from outside; with `cpu`, held to that one
    core (the peers are single-threaded): the process inherits the affinity this one takes
    for the moment it is started, so nothing else runs in between."""

    def __init__(self, binary, work, cpu=None, floor_style=None):
        self.binary, self.work, self.cpu, self.floor_style = binary, work, cpu, floor_style
        self.name = "mapcompose-background-only" if floor_style else "mapcompose" if cpu is None else "mapcompose-one-core"
        version = subprocess.run([binary, "--version"], check=True, stdout=subprocess.PIPE, text=True)
        self.versions = {"mapcompose": version.stdout.strip().removeprefix("mapcompose ")}

    def render(self, view, out=None):
        drawn = dict(view, style=self.floor_style) if self.floor_style else view
        command = [self.binary] + mapcompose_arguments(drawn) + [out or output(self.work, self.name, view)]
        cores = os.sched_getaffinity(0)
        if self.cpu is not None:
            os.sched_setaffinity(0, {self.cpu})
        try:
            start = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            return (time.perf_counter() - start) * 1000
        finally:
            os.sched_setaffinity(0, cores)

    def close(self):
        pass


class Peer:
    """A peer helper in its own Python process (peer_common.py): renders on request, warm."""

    def __init__(self, name, script, views, work):
        self.name = name
        job = {"cache": os.path.join(work, f"cache-{name}"),
               "views": [dict(as_drawn_by(v, name), out=output(work, name, v)) for v in views]}
        job_file = os.path.join(work, f"job-{name}.json")
        with open(job_file, "w") as f:
            json.dump(job, f)
        self.process = subprocess.Popen([sys.executable, os.path.join(HERE, script), job_file],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"{name} did not start (exit status {self.process.wait()})")
        self.versions = json.loads(line)

    def render(self, view):
        self.process.stdin.write(view["name"] + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"{self.name} stopped (exit status {self.process.wait()})")
        return float(line)

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def output(work, tool, view):
    return os.path.join(work, f"{tool}-{view['name']}.png")


def difference(binary, ours, theirs):
    """The share of pixels pixelmatch counts as differing (mapcompose diff, threshold 0.1) and
    the largest channel difference."""
    result = subprocess.run([binary, "diff", ours, theirs, "--threshold", "0.1"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode not in (0, 1):
        return f"diff failed: {result.stdout.strip().splitlines()[0]}"
    count = re.match(r"(\d+) of (\d+) pixels differ", result.stdout)
    if not count:
        return result.stdout.strip()
    a, b = (Image.open(p).convert("RGB") for p in (ours, theirs))
    delta = max(high for _, high in ImageChops.difference(a, b).getextrema())
    share = 100 * int(count[1]) / int(count[2])
    return f"{share:.2f}%, max Δ {delta}"


def machine():
    with open("/proc/cpuinfo") as f:
        cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
    with open("/proc/meminfo") as f:
        kib = int(next(line.split()[1] for line in f if line.startswith("MemTotal")))
    return f"{cpu}, {len(os.sched_getaffinity(0))} cores, {kib / 2**20:.1f} GiB RAM"


def table(rows):
    """Rows of cells as aligned text: the first column left, the others right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
                     .rstrip() for row in rows)


def vector_views(style):
    """The vector case: one view per size and zoom; `style` is the MapLibre style as pymgl reads it."""
    views = []
    for size in VECTOR_SIZES:
        for zoom in VECTOR_ZOOMS:
            views.append({"name": f"vector-{size}x{size}-z{zoom}", "case": "vector", "size": f"{size}x{size}",
                          "width": size, "height": size, "zoom": zoom, "gl_zoom": zoom - 1,
                          "lat": VECTOR_CENTER[0], "lon": VECTOR_CENTER[1],
                          "style": os.path.join(ROOT, VECTOR_STYLE), "maplibre_style": style})
    return views


def take_turns(tools, views, repeats):
    """One untimed warm-up render of every view by every tool, then `repeats` timed rounds in
    which the tools take turns (a change in the machine's load hits them all alike): ms per
    tool and view."""
    for v in views:
        for tool in tools:
            tool.render(v)
    ms = {tool.name: {v["name"]: [] for v in views} for tool in tools}
    for _ in range(repeats):
        for v in views:
            for tool in tools:
                ms[tool.name][v["name"]].append(tool.render(v))
    return ms


def vector_case(args, names):
    """Times and prints the vector case, mapcompose against the `names` of VECTOR_PEERS."""
    style = json.loads(open(os.path.join(ROOT, VECTOR_STYLE)).read())
    for source in style["sources"].values():
        if source.get("type") == "vector":
            source["url"] = "mbtiles://" + os.path.join(ROOT, VECTOR_TILES + ".mbtiles")
    views = vector_views(json.dumps(style))
    # The floor: the same command with the style's background layer alone (start-up, the map's
    # memory, the PNG writer), which no map of that size can take less than.
    floor_style = os.path.join(args.work, "background-only.json")
    with open(floor_style, "w") as f:
        json.dump({"version": 8, "name": "background only", "sources": {},
                   "layers": [layer for layer in style["layers"] if layer["type"] == "background"][:1]}, f)
    tools = [Mapcompose(args.mapcompose, args.work),
             Mapcompose(args.mapcompose, args.work, cpu=min(os.sched_getaffinity(0))),
             Mapcompose(args.mapcompose, args.work, floor_style=floor_style)]
    for name, script in VECTOR_PEERS:
        if name in names:
            tools.append(Peer(name, script, views, args.work))
    ms = take_turns(tools, views, args.repeats)
    versions = {}
    for tool in tools:
        versions.update(tool.versions)
        tool.close()
    peers = [tool.name for tool in tools[3:]]
    print()
    print(f"vector: {VECTOR_STYLE} over {VECTOR_TILES} (PMTiles; pymgl: the MBTiles copy), "
          f"centre {VECTOR_CENTER[0]},{VECTOR_CENTER[1]}, no attribution — {machine().rsplit(',', 1)[0]}")
    if peers:
        print("versions: " + "; ".join(f"{k} {v}" for k, v in versions.items() if k != "mapcompose"))
    header = ["size", "zoom", "GL zoom", "mapcompose", "1 core", "background only"] + peers
    header += [f"{n}/mc" for n in peers] + [f"{n}/1 core" for n in peers] + [f"{n}/background only" for n in peers]
    header += [f"{n} differs" for n in peers]
    rows = [header]
    for v in views:
        median = {tool: statistics.median(ms[tool][v["name"]]) for tool in ms}
        row = [v["size"], str(v["zoom"]), str(v["gl_zoom"]), f"{median['mapcompose']:.1f} ms",
               f"{median['mapcompose-one-core']:.1f} ms", f"{median['mapcompose-background-only']:.1f} ms"]
        row += [f"{median[n]:.1f} ms" for n in peers]
        row += [f"{median[n] / median['mapcompose']:.2f}×" for n in peers]
        row += [f"{median[n] / median['mapcompose-one-core']:.2f}×" for n in peers]
        row += [f"{median[n] / median['mapcompose-background-only']:.2f}×" for n in peers]
        row += [difference(args.mapcompose, output(args.work, "mapcompose", v), output(args.work, n, v)) for n in peers]
        rows.append(row)
    print(table(rows))
    if peers:
        print("goal: MapLibre-Native/mc ≥ 3 at every size; MapLibre Native renders with OpenGL "
              "(Mesa's renderer: " + os.environ.get("GALLIUM_DRIVER", "the default") + ")")
    print("background only: mapcompose with the style's background layer alone at the same view, a whole "
          "process (start-up, the map's memory, the PNG writer): the least any map of that size takes; "
          "peer/background only is the most a whole process per map can reach")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mapcompose", required=True)
    parser.add_argument("--tiles", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--cases", default="raster,vector", help="comma-separated: raster (single layer and "
                        "realistic), vector")
    parser.add_argument("--peers", default=",".join(name for name, _ in PEERS + VECTOR_PEERS),
                        help="comma-separated peers to run, or 'none' for mapcompose alone")
    args = parser.parse_args()
    wanted = [] if args.peers == "none" else args.peers.split(",")
    known = [n for n, _ in PEERS + VECTOR_PEERS]
    unknown = set(wanted) - set(known)
    if unknown:
        parser.error(f"--peers: no peer {', '.join(sorted(unknown))} (known: {', '.join(known)})")
    peers = [(n, s) for n, s in PEERS if n in wanted]
    names = [n for n, _ in peers]

    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f} at start")
    cases = args.cases.split(",")
    if "raster" in cases:
        raster_cases(args, peers, names)
    if "vector" in cases:
        vector_case(args, wanted)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


def raster_cases(args, peers, names):
    """Times and prints the single-layer and realistic cases against the raster peers."""
    tiles = os.path.abspath(args.tiles)
    # The tiles: the committed folder, and the realistic case's made from mapcompose renders.
    style = os.path.join(args.work, "folder.yaml")
    with open(style, "w") as f:
        f.write("name: bench-peers\nlayers:\n  - id: tiles\n    source: {type: xyz, scheme: xyz, "
                f"path: \"{tiles}/{{z}}/{{x}}/{{y}}.png\"}}\n")
    realistic_folder = os.path.join(args.work, "realistic-tiles")
    made = make_realistic_tiles(args.mapcompose, realistic_folder)
    icon = os.path.join(args.work, "marker.png")
    make_icon(icon)
    realistic_style = os.path.join(args.work, "realistic.yaml")
    with open(realistic_style, "w") as f:
        f.write(f"name: bench-peers-realistic\nattribution: \"{ATTRIBUTION}\"\nlayers:\n")
        for name, _, opacity in REALISTIC_STYLES:
            f.write(f"  - id: {name}\n    opacity: {opacity}\n    source: {{type: xyz, scheme: xyz, "
                    f"path: \"{realistic_folder}/{name}/{{z}}/{{x}}/{{y}}.png\"}}\n")
    servers = [TileServer(tiles), TileServer(realistic_folder)]
    views = (single_layer_views(servers[0].url(), style)
             + realistic_views([servers[1].url(f"{name}/") for name, _, _ in REALISTIC_STYLES], realistic_style, icon))
    served = lambda: sum(s.requests for s in servers)

    tools = [Mapcompose(args.mapcompose, args.work),
             Mapcompose(args.mapcompose, args.work, cpu=min(os.sched_getaffinity(0)))]
    requests = {}
    for name, script in peers:
        before = served()
        tools.append(Peer(name, script, views, args.work))
        for v in views:
            tools[-1].render(v)  # cold: its tiles come over HTTP into the peer's own cache
        requests[name] = served() - before
    before = served()
    ms = take_turns(tools, views, args.repeats)
    if peers:
        requests["timed runs"] = served() - before
    versions = {}
    for tool in tools:
        versions.update(tool.versions)
        tool.close()
    versions["Python"] = platform.python_version()
    for server in servers:
        server.shutdown()

    # mapcompose's image of what each peer draws, where that is not the timed view (untimed).
    references = {}
    for v in views:
        for n in names:
            drawn = as_drawn_by(v, n)
            if drawn == v:
                references[(n, v["name"])] = output(args.work, "mapcompose", v)
            else:
                references[(n, v["name"])] = output(args.work, f"mapcompose-as-{n}", v)
                tools[0].render(drawn, out=references[(n, v["name"])])

    print("versions: " + "; ".join(f"{k} {v}" for k, v in versions.items()))
    print(f"tiles: {args.tiles} and, for the realistic case, {made} tiles made from the built-in and geojson-night "
          "styles (256-px PNG)" + (f"; tile requests answered: " + ", ".join(f"{n} {c}" for n, c in requests.items())
                                    if peers else ""))
    print(f"median of {args.repeats} runs" + (", the tools taking turns" if peers else "")
          + "; mapcompose: whole process, timed from outside"
          + ("; peers: warm, in their own Python process, one render + PNG write timed" if peers else "")
          + "; 1 core: mapcompose held to one core" + (" (the peers are single-threaded)" if peers else ""))
    cpu = machine().rsplit(",", 1)[0]
    for case, title in [("single layer", "single layer: one XYZ PNG layer, whole zoom, no overlays, no attribution"),
                        ("realistic", f"realistic: 2 layers (the 2nd at opacity 0.5), zoom {REALISTIC_ZOOM}, "
                                      f"{len(MARKERS)} icon markers, a {len(route())}-point path, attribution")]:
        print()
        print(f"{title} — {cpu}")
        header = ["size", "zoom", "tiles", "mapcompose", "1 core"] + names
        header += [f"{n}/mc" for n in names] + [f"{n}/1 core" for n in names] + [f"{n} differs" for n in names]
        rows = [header]
        for v in (v for v in views if v["case"] == case):
            median = {tool: statistics.median(ms[tool][v["name"]]) for tool in ms}
            same = filecmp.cmp(output(args.work, "mapcompose", v), output(args.work, "mapcompose-one-core", v),
                               shallow=False)
            row = [v["size"], f"{v['zoom']:g}", str(v["tiles"]), f"{median['mapcompose']:.1f} ms",
                   f"{median['mapcompose-one-core']:.1f} ms" + ("" if same else " (OUTPUT DIFFERS)")]
            row += [f"{median[n]:.1f} ms" for n in names]
            row += [f"{median[n] / median['mapcompose']:.2f}×" for n in names]
            row += [f"{median[n] / median['mapcompose-one-core']:.2f}×" for n in names]
            row += [difference(args.mapcompose, references[(n, v["name"])], output(args.work, n, v)) for n in names]
            rows.append(row)
        print(table(rows))
        for n in names:
            if case == "realistic" and n in LIMIT_NOTES:
                print(f"  {n}: {LIMIT_NOTES[n]}; its image is compared with mapcompose's of the same")
    if peers:
        print()
        print("goal: every peer/mc ratio ≥ 3 at 1024x1024 and 2048x2048, in both cases. differs: pixels that differ "
              "from mapcompose's image (mapcompose diff --threshold 0.1) and the largest channel difference (Pillow)")
    print("views: "
          + "; ".join(f"{v['name']} at {round(v['lat'], 6) + 0.0},{round(v['lon'], 6) + 0.0} zoom {v['zoom']:g}"
                      for v in views))


if __name__ == "__main__":
    main()
