"""MapProxy peer of the benchmark: a WMS GetMap of each view's exact EPSG:3857 bbox and pixel
size, called in-process on mapproxy.wsgiapp.make_wsgi_app with a WSGI environ, the response
body written to the view's PNG (see peer_common.py for the timing loop).

Configuration: one layer over a file cache (in the job's folder) of a `tile` source on the local
tile server, grid GLOBAL_WEBMERCATOR (origin nw, so the source's {x}/{y} are XYZ). Output PNGs
are truecolour (`paletted: false`): MapProxy's default quantizes PNGs to 256 colours, which
would change the pixels and add time of its own.
"""

import importlib.metadata
import io
import os
import sys
import urllib.parse
import wsgiref.util

import yaml
from mapproxy.version import version as mapproxy_version
from mapproxy.wsgiapp import make_wsgi_app

import peer_common


def config(job):
    url = job["url"].replace("{z}", "%(z)s").replace("{x}", "%(x)s").replace("{y}", "%(y)s")
    return {
        "globals": {"image": {"paletted": False}},
        "services": {"wms": {"srs": ["EPSG:3857"], "image_formats": ["image/png"],
                             "md": {"title": "bench-peers"}}},
        "layers": [{"name": "tiles", "title": "tiles", "sources": ["tiles_cache"]}],
        "caches": {"tiles_cache": {
            "grids": ["GLOBAL_WEBMERCATOR"], "sources": ["tiles_source"], "format": "image/png",
            "cache": {"type": "file", "directory": os.path.join(job["cache"], "tiles")},
        }},
        "sources": {"tiles_source": {"type": "tile", "url": url, "grid": "GLOBAL_WEBMERCATOR"}},
    }


def make_renderer(job):
    path = os.path.join(job["cache"], "mapproxy.yaml")
    os.makedirs(job["cache"], exist_ok=True)
    with open(path, "w") as f:
        yaml.safe_dump(config(job), f)
    app = make_wsgi_app(path)

    def render(view):
        query = urllib.parse.urlencode({
            "SERVICE": "WMS", "VERSION": "1.1.1", "REQUEST": "GetMap", "LAYERS": "tiles", "STYLES": "",
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
