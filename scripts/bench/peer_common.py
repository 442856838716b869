"""Shared timing loop of the peer benchmark's helpers (peer_staticmaps.py, peer_mapproxy.py).

A helper is started as `python helper.py JOB.json`. The job (written by peers.py) holds the tile
URL template, a cache folder, the number of timed runs and the views; each view has the
`out` path the helper writes its PNG to. For each view the helper renders once cold (filling its
own tile cache from the local server), once more warm and untimed, then `repeats` times timed
with time.perf_counter around one whole render including writing the PNG file. It prints one
JSON object: {"versions": {...}, "ms": {view name: [ms, ...]}}.
"""

import json
import sys
import time


def run(make_renderer):
    """make_renderer(job) returns (render(view), versions); render writes view["out"]."""
    with open(sys.argv[1]) as f:
        job = json.load(f)
    render, versions = make_renderer(job)
    ms = {}
    for view in job["views"]:
        render(view)  # cold: tiles come from the HTTP server into the peer's cache
        render(view)  # warm, untimed
        times = []
        for _ in range(job["repeats"]):
            start = time.perf_counter()
            render(view)
            times.append((time.perf_counter() - start) * 1000)
        ms[view["name"]] = times
    json.dump({"versions": versions, "ms": ms}, sys.stdout)
