"""MapProxy peer of the benchmark: a WMS GetMap of each view's exact EPSG:3857 bbox and pixel
size, called in-process on mapproxy.wsgiapp.make_wsgi_app with a WSGI environ, the response
body written to the view's PNG (see peer_common.py for the timing loop).

Configuration: per tile URL a `tile` source on the local tile server, grid GLOBAL_WEBMERCATOR
(origin nw, so the source's {x}/{y} are XYZ), and a file cache of it (in the job's folder) with
the layer's opacity (`image: {opacity: …}`, MapProxy's own layer opacity, applied when it merges
the layers; MapProxy 1.15's configuration check lists `opacity` only for wms and mapserver
sources and warns of it on a cache, but applies it: a layer of red at 0.5 over another comes out
as their mean. That warning, and only that, is left unprinted); per distinct list of layers in the views a WMS layer with those caches as its
sources, bottom first. MapProxy picks the tile level for a fractional zoom and resamples. It
draws no markers, paths or attribution: peers.py leaves them out of the views it is given.
Output PNGs are truecolour (`paletted: false`): MapProxy's default quantizes PNGs to 256
colours, which would change the pixels and add time of its own.
"""

import importlib.metadata
import io
import logging
import os
import re
import sys
import urllib.parse
import wsgiref.util

import yaml
from mapproxy.config.spec import validate_options
from mapproxy.version import version as mapproxy_version
from mapproxy.wsgiapp import make_wsgi_app

import peer_common


def layer_key(view):
    return tuple((layer["url"], layer["opacity"]) for layer in view["layers"])


def config(job):
    """The MapProxy configuration, and the WMS layer name of each distinct list of layers."""
    sources, caches, layers, names = {}, {}, [], {}
    for view in job["views"]:
        key = layer_key(view)
        if key in names:
            continue
        names[key] = f"stack{len(names)}"
        cache_names = []
        for url, opacity in key:
            source = sources.setdefault(url, {"name": f"source{len(sources)}", "conf": {
                "type": "tile", "grid": "GLOBAL_WEBMERCATOR",
                "url": url.replace("{z}", "%(z)s").replace("{x}", "%(x)s").replace("{y}", "%(y)s")}})["name"]
            cache = f"cache_{source}_{opacity:g}".replace(".", "_")
            if cache not in caches:
                caches[cache] = {"grids": ["GLOBAL_WEBMERCATOR"], "sources": [source], "format": "image/png",
                                 "cache": {"type": "file", "directory": os.path.join(job["cache"], cache)}}
                if opacity < 1:
                    caches[cache]["image"] = {"opacity": opacity}
            cache_names.append(cache)
        layers.append({"name": names[key], "title": names[key], "sources": cache_names})
    return {
        "globals": {"image": {"paletted": False}},
        "services": {"wms": {"srs": ["EPSG:3857"], "image_formats": ["image/png"],
                             "md": {"title": "bench-peers"}}},
        "layers": layers,
        "caches": caches,
        "sources": {s["name"]: s["conf"] for s in sources.values()},
    }, names


def make_renderer(job):
    path = os.path.join(job["cache"], "mapproxy.yaml")
    os.makedirs(job["cache"], exist_ok=True)
    with open(path, "w") as f:
        conf, names = config(job)
        yaml.safe_dump(conf, f)
    errors, _ = validate_options(conf)
    unexpected = [e for e in errors if not re.fullmatch(r"unknown 'opacity' in caches\.\w+\.image", e)]
    if unexpected:
        raise SystemExit("MapProxy configuration: " + "; ".join(unexpected))
    if errors:
        logging.getLogger("mapproxy.config").setLevel(logging.ERROR)
    app = make_wsgi_app(path)

    def render(view):
        query = urllib.parse.urlencode({
            "SERVICE": "WMS", "VERSION": "1.1.1", "REQUEST": "GetMap", "LAYERS": names[layer_key(view)], "STYLES": "",
            "SRS": "EPSG:3857", "BBOX": ",".join(repr(v) for v in view["bbox"]),
            "WIDTH": view["width"], "HEIGHT": view["height"], "FORMAT": "image/png",
        })
        environ = {"PATH_INFO": "/service", "QUERY_STRING": query, "wsgi.errors": sys.stderr,
                   "wsgi.input": io.BytesIO()}
        wsgiref.util.setup_testing_defaults(environ)
        status = []
        body = b"".join(app(environ, lambda s, headers, exc_info=None: status.append(s)))
        if not status[0].startswith("200") or not body.startswith(b"\x89PNG"):
            raise SystemExit(f"MapProxy GetMap {view['name']}: {status[0]} {body[:300]!r}")
        with open(view["out"], "wb") as f:
            f.write(body)

    versions = {"MapProxy": mapproxy_version, "Pillow": importlib.metadata.version("Pillow")}
    return render, versions


if __name__ == "__main__":
    peer_common.run(make_renderer)
