#!/usr/bin/env python3
"""Write Tests/Fixtures/WMTS/: MapProxy's WMTS capabilities documents (KVP and RESTful).

Debian's MapProxy serves two layers through its WSGI application, called in this process
(no server, no network): `naturalearth` on the standard 256-px Web Mercator grid
(GLOBAL_WEBMERCATOR, levels 0-8) and `custom` on the grid of the custom ArcGIS fixture
(512-px tiles, resolutions 10000/6000/3700/2300/1400 m/px, origin -4000000, 11000000; see
make_arcgis.py). Only the capabilities are asked for, so the caches have no source and hold
no tiles. The documents are what a WMTS client reads to build its tile grids.

Run: scripts/reference/make-wmts-capabilities.sh (installs the Debian packages first).
"""

import io
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_arcgis as arcgis  # noqa: E402  (the custom grid)
import make_reference as ref  # noqa: E402

OUT = os.path.join(ref.ROOT, "Tests", "Fixtures", "WMTS")
E = ref.E


def config(workdir):
    ox, oy = arcgis.CUSTOM_ORIGIN
    return {
        "globals": {"cache": {"base_dir": os.path.join(workdir, "cache"),
                              "lock_dir": os.path.join(workdir, "locks")}},
        "services": {"wmts": {"restful": True, "kvp": True,
                              "md": {"title": "mapcompose WMTS fixture"}}},
        "layers": [
            {"name": "naturalearth", "title": "Natural Earth", "sources": ["standard"]},
            {"name": "custom", "title": "Custom grid", "sources": ["custom"]},
        ],
        "grids": {
            "webmercator": {"base": "GLOBAL_WEBMERCATOR", "num_levels": 9},
            "custom": {"srs": "EPSG:3857", "bbox_srs": "EPSG:3857",
                       "bbox": [ox, oy - 10000000.0, ox + 10000000.0, oy],
                       "tile_size": [arcgis.CUSTOM_TILE, arcgis.CUSTOM_TILE], "origin": "ul",
                       "res": arcgis.CUSTOM_RES},
        },
        "caches": {
            "standard": {"grids": ["webmercator"], "sources": [], "format": "image/png"},
            "custom": {"grids": ["custom"], "sources": [], "format": "image/jpeg"},
        },
    }


def get(app, path, query=""):
    environ = {
        "REQUEST_METHOD": "GET", "QUERY_STRING": query, "PATH_INFO": path, "SCRIPT_NAME": "",
        "SERVER_NAME": "localhost", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(), "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0), "wsgi.multithread": False, "wsgi.multiprocess": False,
        "wsgi.run_once": True,
    }
    status = []
    body = b"".join(app(environ, lambda s, headers, exc_info=None: status.append(s)))
    if not status[0].startswith("200"):
        arcgis.fail("%s?%s: %s\n%s" % (path, query, status[0], body[:2000].decode(errors="replace")))
    return body


def main():
    import mapproxy.version
    from mapproxy.wsgiapp import make_wsgi_app
    with tempfile.TemporaryDirectory(prefix="mapcompose-wmts-") as workdir:
        path = os.path.join(workdir, "mapproxy.yaml")
        with open(path, "w") as f:
            json.dump(config(workdir), f, indent=1)   # JSON is valid YAML
        app = make_wsgi_app(path)
        os.makedirs(OUT, exist_ok=True)
        documents = {
            "capabilities-kvp.xml": get(app, "/service", "SERVICE=WMTS&REQUEST=GetCapabilities&VERSION=1.0.0"),
            "capabilities-rest.xml": get(app, "/wmts/1.0.0/WMTSCapabilities.xml"),
        }
        for name, body in documents.items():
            with open(os.path.join(OUT, name), "wb") as f:
                f.write(body)
            print("wrote %s (%d bytes), MapProxy %s" % (name, len(body), mapproxy.version.version))


if __name__ == "__main__":
    main()
