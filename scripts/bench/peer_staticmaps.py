"""py-staticmaps peer of the benchmark (see peer_common.py): each view drawn with py-staticmaps'
CairoRenderer as Context.render_cairo draws it (tiles, objects, attribution) and written with
write_to_png; a TileProvider per tile layer, on the local tile server, with a disk cache in the
job's folder.

py-staticmaps has one tile provider per Context and no layer opacity: a second layer is drawn
with the renderer's render_tiles over the first, through the tile fetch of a Context holding
that layer's provider, in a Cairo group painted with the layer's alpha. Markers are ImageMarker
(the icon PNG mapcompose's markers use, at the same anchor), the path a Line, the attribution
the renderer's own (py-staticmaps' text and placement). py-staticmaps renders whole zooms only.

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
    providers = {}

    def provider(url):
        if url not in providers:
            pattern = url.replace("{z}", "$z").replace("{x}", "$x").replace("{y}", "$y")
            providers[url] = staticmaps.TileProvider(f"bench-peers-{len(providers)}", url_pattern=pattern,
                                                     attribution=None, max_zoom=20)
        return providers[url]

    for view in job["views"]:
        check_alignment(view)
        for layer in view["layers"]:
            provider(layer["url"])

    def render(view):
        layers = []
        for layer in view["layers"]:
            context = staticmaps.Context()
            context.set_cache_dir(job["cache"])
            context.set_tile_provider(provider(layer["url"]))
            layers.append((context, layer["opacity"]))
        center = s2sphere.LatLng.from_degrees(view["lat"], view["lon"])
        renderer = staticmaps.CairoRenderer(Transformer(view["width"], view["height"], view["zoom"], center, 256))
        for context, opacity in layers:
            if opacity < 1:
                renderer.context().push_group()
            renderer.render_tiles(context._fetch_tile)  # the Context's tile download through its cache
            if opacity < 1:
                renderer.context().pop_group_to_source()
                renderer.context().paint_with_alpha(opacity)
        # Paths under markers, as mapcompose draws them (py-staticmaps draws in the order added).
        objects = []
        if "path" in view:
            color = staticmaps.parse_color(view["path_color"])
            objects.append(staticmaps.Line([s2sphere.LatLng.from_degrees(lat, lon) for lat, lon in view["path"]],
                                           color, view["path_width"]))
        objects += [staticmaps.ImageMarker(s2sphere.LatLng.from_degrees(lat, lon), view["icon"], *view["anchor"])
                    for lat, lon in view.get("markers", [])]
        renderer.render_objects(objects)
        renderer.render_attribution(view.get("attribution"))
        renderer.image_surface().write_to_png(view["out"])

    versions = {
        "py-staticmaps": importlib.metadata.version("py-staticmaps"),
        "pycairo": cairo.version,
        "cairo": cairo.cairo_version_string(),
    }
    return render, versions


def check_alignment(view):
    if view["zoom"] != int(view["zoom"]):
        raise SystemExit(f"py-staticmaps renders whole zooms only, not {view['zoom']} ({view['name']})")
    center = s2sphere.LatLng.from_degrees(view["lat"], view["lon"])
    t = Transformer(view["width"], view["height"], view["zoom"], center, 256)
    left = t.first_tile_x() * 256 - t.tile_offset_x()
    top = t.first_tile_y() * 256 - t.tile_offset_y()
    if (left, top) != (view["left"], view["top"]):
        raise SystemExit(f"py-staticmaps puts {view['name']} at world pixel {left},{top}, "
                         f"not {view['left']},{view['top']}")


if __name__ == "__main__":
    peer_common.run(make_renderer)
