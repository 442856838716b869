"""Shared loop of the peer benchmark's helpers (peer_staticmaps.py, peer_mapproxy.py).

A helper is started as `python helper.py JOB.json`. The job (written by peers.py) holds a cache
folder and the views as that peer draws them; each view has its tile layers (URL template and
opacity, bottom first), for the realistic case its markers, path and attribution, and the `out`
path the helper writes its PNG to. The helper prints its versions as one JSON line, then for every view name read from
stdin renders that view once, timed with time.perf_counter around the whole render including
writing the PNG file, and prints the milliseconds on one line. peers.py decides which renders
are cold (the first of a view fills the peer's tile cache from the local server), warm-up or
timed, and interleaves the tools so that a change in the machine's load hits all of them.
"""

import json
import sys
import time


def run(make_renderer):
    """make_renderer(job) returns (render(view), versions); render writes view["out"]."""
    with open(sys.argv[1]) as f:
        job = json.load(f)
    render, versions = make_renderer(job)
    views = {view["name"]: view for view in job["views"]}
    print(json.dumps(versions), flush=True)
    for line in sys.stdin:
        start = time.perf_counter()
        render(views[line.strip()])
        print((time.perf_counter() - start) * 1000, flush=True)
