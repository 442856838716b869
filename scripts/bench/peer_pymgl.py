"""MapLibre Native peer of the benchmark's vector case (see peer_common.py), through PyPI's pymgl,
headless on Mesa's EGL (EGL_PLATFORM=surfaceless). The job's views carry the MapLibre style as
text (its vector source an `mbtiles://` URL: pymgl's libcurl has no `pmtiles://`), the centre,
the GL zoom (mapcompose zoom - 1) and the size. pymgl crashes when a process makes a second map,
so one map is made at the first render and moved and resized for every view (setSize,
setCenter, setZoom); each render is renderPNG and the file write.
"""

import importlib.metadata

import peer_common


def make_renderer(job):
    from pymgl import Map
    state = {}

    def render(view):
        if "map" not in state:
            state["map"] = Map(view["maplibre_style"], view["width"], view["height"], 1.0, view["lon"], view["lat"],
                               view["gl_zoom"])
        m = state["map"]
        m.setSize(view["width"], view["height"])
        m.setCenter(view["lon"], view["lat"])
        m.setZoom(view["gl_zoom"])
        with open(view["out"], "wb") as f:
            f.write(m.renderPNG())

    return render, {"pymgl (MapLibre Native)": importlib.metadata.version("pymgl")}


if __name__ == "__main__":
    peer_common.run(make_renderer)
