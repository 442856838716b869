"""Driver of `make bench-peers` (run by peers.sh inside its throwaway virtual environment).

Serves the tile folder on 127.0.0.1, starts each peer helper in its own Python process (they
time their own renders, see peer_common.py), renders every view once cold with each peer, once
warm with every tool, then `--repeats` timed rounds in which the tools take turns: mapcompose
as a whole process timed from outside, the peers warm inside their process. Then it compares
every peer's PNG with mapcompose's and prints the machine, the versions and the tables. mapcompose
also takes a turn held to one core, since the peers use one.

The views are whole-pixel aligned so that all three draw each tile on the same pixel grid:
the image's top-left corner is a whole world pixel at the view's zoom (256-px tiles).
The committed tiles (Tests/Fixtures/Reference/tiles) have zoom 6 only around a few test
regions; a 5x5 block (x 29-33, y 18-22: the British Isles) holds 512² and 1024² at zoom 6.
No zoom 6 block holds 2048² (9x9 tiles), so 2048² is the whole world at zoom 3 (64 tiles).
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

from PIL import Image, ImageChops

E = 20037508.342789244  # half the Web Mercator world, metres
HERE = os.path.dirname(os.path.abspath(__file__))

# (size, zoom, centre in tile units of that zoom)
VIEWS = [(512, 6, (31.5, 20.5)), (1024, 6, (31.5, 20.5)), (2048, 3, (4.0, 4.0))]
PEERS = [("py-staticmaps", "peer_staticmaps.py"), ("MapProxy", "peer_mapproxy.py")]


def view_geometry(size, zoom, center_tiles):
    world = 256 * 2**zoom  # world size in pixels
    cx, cy = (c * 256 for c in center_tiles)
    left, top = cx - size / 2, cy - size / 2
    assert left == int(left) and top == int(top), "views must start on a whole pixel"
    # The centre handed to every tool, 1e-7 px right of and below the exact one: py-staticmaps
    # truncates its pixel offset, and a value a rounding error short of the whole pixel would
    # put its tiles one pixel off. mapcompose treats offsets under 1e-6 px as aligned.
    nx, ny = (cx + 1e-7) / world, (cy + 1e-7) / world
    res = 2 * E / world
    first = lambda edge: int(edge // 256)
    tiles = (first(left + size - 1) - first(left) + 1) * (first(top + size - 1) - first(top) + 1)
    return {
        "name": f"{size}x{size}", "width": size, "height": size, "zoom": zoom, "tiles": tiles,
        "lat": math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * ny)))), "lon": nx * 360 - 180,
        "left": int(left), "top": int(top),
        "bbox": [-E + left * res, E - (top + size) * res, -E + (left + size) * res, E - top * res],
    }


class TileServer(http.server.ThreadingHTTPServer):
    """The tile folder on 127.0.0.1 (a free port), counting the requests it answers."""

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

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}/{{z}}/{{x}}/{{y}}.png"


class Mapcompose:
    """mapcompose as a whole process per render, timed from outside; with `cpu`, held to that one
    core (the peers are single-threaded): the process inherits the affinity this one takes
    for the moment it is started, so nothing else runs in between."""

    def __init__(self, binary, style, work, cpu=None):
        self.binary, self.style, self.work, self.cpu = binary, style, work, cpu
        self.name = "mapcompose" if cpu is None else "mapcompose-one-core"
        version = subprocess.run([binary, "--version"], check=True, stdout=subprocess.PIPE, text=True)
        self.versions = {"mapcompose": version.stdout.strip().removeprefix("mapcompose ")}

    def render(self, view):
        command = [self.binary, "--style", self.style, "--center", f"{view['lat']!r},{view['lon']!r}",
                   "--zoom", str(view["zoom"]), "--size", view["name"], "--no-attribution",
                   output(self.work, self.name, view)]
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

    def __init__(self, name, script, server, views, work):
        self.name = name
        job = {"url": server.url, "cache": os.path.join(work, f"cache-{name}"),
               "views": [dict(v, out=output(work, name, v)) for v in views]}
        job_file = os.path.join(work, f"job-{name}.json")
        with open(job_file, "w") as f:
            json.dump(job, f)
        self.process = subprocess.Popen([sys.executable, os.path.join(HERE, script), job_file],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.versions = json.loads(self.process.stdout.readline())

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
    """pixelmatch count (mapcompose diff, threshold 0.1) and the largest channel difference."""
    result = subprocess.run([binary, "diff", ours, theirs, "--threshold", "0.1"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode not in (0, 1):
        return f"diff failed: {result.stdout.strip().splitlines()[0]}"
    count = re.match(r"(\d+) of (\d+) pixels differ \(([^)]*)\)", result.stdout)
    a, b = (Image.open(p).convert("RGB") for p in (ours, theirs))
    delta = max(high for _, high in ImageChops.difference(a, b).getextrema())
    return f"{count[1]} px ({count[3]}), max Δ {delta}" if count else result.stdout.strip()


def machine():
    with open("/proc/cpuinfo") as f:
        cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
    with open("/proc/meminfo") as f:
        kib = int(next(line.split()[1] for line in f if line.startswith("MemTotal")))
    return f"nproc {len(os.sched_getaffinity(0))}, {cpu}, {kib / 2**20:.1f} GiB RAM"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mapcompose", required=True)
    parser.add_argument("--tiles", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    tiles = os.path.abspath(args.tiles)

    style = os.path.join(args.work, "folder.yaml")
    with open(style, "w") as f:
        f.write("name: bench-peers\nlayers:\n  - id: tiles\n    source: {type: xyz, scheme: xyz, "
                f"path: \"{tiles}/{{z}}/{{x}}/{{y}}.png\"}}\n")
    views = [view_geometry(size, zoom, center) for size, zoom, center in VIEWS]
    server = TileServer(tiles)

    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f} at start")
    tools = [Mapcompose(args.mapcompose, style, args.work),
             Mapcompose(args.mapcompose, style, args.work, cpu=min(os.sched_getaffinity(0)))]
    requests = {}
    for name, script in PEERS:
        before = server.requests
        tools.append(Peer(name, script, server, views, args.work))
        for v in views:
            tools[-1].render(v)  # cold: its tiles come over HTTP into the peer's own cache
        requests[name] = server.requests - before
    for v in views:
        for tool in tools:
            tool.render(v)  # warm-up, untimed
    # Timed: the tools take turns, so a change in the machine's load hits them all alike.
    ms = {tool.name: {v["name"]: [] for v in views} for tool in tools}
    before = server.requests
    for _ in range(args.repeats):
        for v in views:
            for tool in tools:
                ms[tool.name][v["name"]].append(tool.render(v))
    requests["timed runs"] = server.requests - before
    versions = {}
    for tool in tools:
        versions.update(tool.versions)
        tool.close()
    versions["Python"] = platform.python_version()
    server.shutdown()

    print("versions: " + "; ".join(f"{k} {v}" for k, v in versions.items()))
    print(f"tiles: {args.tiles} (256-px XYZ PNG) served on {server.url}; tile requests answered: "
          + ", ".join(f"{name} {n}" for name, n in requests.items()))
    print(f"median of {args.repeats} runs, the tools taking turns; mapcompose: whole process, timed "
          "from outside; peers: warm, in their own Python process, one render + PNG write timed")
    print()
    names = [name for name, _ in PEERS]
    print(f"{'size':<10}{'zoom':>5}{'tiles':>6}{'mapcompose':>13}" + "".join(f"{n:>15}" for n in names)
          + "".join(f"{n + '/mc':>19}" for n in names))
    for v in views:
        median = {tool: statistics.median(ms[tool][v["name"]]) for tool in ms}
        print(f"{v['name']:<10}{v['zoom']:>5}{v['tiles']:>6}{median['mapcompose']:>10.1f} ms"
              + "".join(f"{median[n]:>12.1f} ms" for n in names)
              + "".join(f"{median[n] / median['mapcompose']:>18.2f}×" for n in names))
    print("goal: every peer/mc ratio ≥ 3 at 1024x1024 and 2048x2048")
    print()
    print("mapcompose held to one core (the peers are single-threaded), in the same turns:")
    print(f"{'size':<10}{'mapcompose':>13}" + "".join(f"{n + '/mc':>19}" for n in names)
          + f"{'output':>22}")
    for v in views:
        median = {tool: statistics.median(ms[tool][v["name"]]) for tool in ms}
        one_core = median["mapcompose-one-core"]
        same = filecmp.cmp(output(args.work, "mapcompose", v), output(args.work, "mapcompose-one-core", v),
                           shallow=False)
        print(f"{v['name']:<10}{one_core:>10.1f} ms" + "".join(f"{median[n] / one_core:>18.2f}×" for n in names)
              + f"{'the same bytes' if same else 'DIFFERS':>22}")
    print()
    print("pixel difference against mapcompose's output (mapcompose diff --threshold 0.1; max Δ: "
          "largest channel difference, Pillow)")
    for v in views:
        ours = output(args.work, "mapcompose", v)
        print((f"{v['name']:<10}" + "".join(
            f"  {n}: {difference(args.mapcompose, ours, output(args.work, n, v)):<34}" for n in names)).rstrip())
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end; views: "
          + "; ".join(f"{v['name']} at {round(v['lat'], 6) + 0.0},{round(v['lon'], 6) + 0.0} zoom {v['zoom']}"
                   for v in views))


if __name__ == "__main__":
    main()
