"""py-staticmaps peer of the benchmark: Context.render_cairo + write_to_png for each view, with a
TileProvider on the local tile server and a disk cache in the job's folder (see peer_common.py).

py-staticmaps places tiles at int() of the centre's pixel offset (it truncates); peers.py picks
centres on whole pixels (nudged by 1e-7 px so the truncation cannot fall one short) and this
helper checks that py-staticmaps' own Transformer puts the image's top-left corner on exactly
the world pixel peers.py computed, so its output is on the same pixel grid as the others'.
"""

import importlib.metadata

import cairo
import s2sphere
import staticmaps
from staticmaps.transformer import Transformer

import peer_common


def make_renderer(job):
    url = job["url"].replace("{z}", "$z").replace("{x}", "$x").replace("{y}", "$y")
    provider = staticmaps.TileProvider("bench-peers", url_pattern=url, attribution=None, max_zoom=20)

    for view in job["views"]:
        check_alignment(view)

    def render(view):
        context = staticmaps.Context()
        context.set_cache_dir(job["cache"])
        context.set_tile_provider(provider)
        context.set_center(s2sphere.LatLng.from_degrees(view["lat"], view["lon"]))
        context.set_zoom(view["zoom"])
        context.render_cairo(view["width"], view["height"]).write_to_png(view["out"])

    versions = {
        "py-staticmaps": importlib.metadata.version("py-staticmaps"),
        "pycairo": cairo.version,
        "cairo": cairo.cairo_version_string(),
    }
    return render, versions


def check_alignment(view):
    center = s2sphere.LatLng.from_degrees(view["lat"], view["lon"])
    t = Transformer(view["width"], view["height"], view["zoom"], center, 256)
    left = t.first_tile_x() * 256 - t.tile_offset_x()
    top = t.first_tile_y() * 256 - t.tile_offset_y()
    if (left, top) != (view["left"], view["top"]):
        raise SystemExit(f"py-staticmaps puts {view['name']} at world pixel {left},{top}, "
                         f"not {view['left']},{view['top']}")


if __name__ == "__main__":
    peer_common.run(make_renderer)
