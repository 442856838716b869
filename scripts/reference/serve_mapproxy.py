#!/usr/bin/env python3
"""Serve a MapProxy configuration on 127.0.0.1 for the tests (WMS, WMTS, tiles).

Usage: /usr/bin/python3 scripts/reference/serve_mapproxy.py CONFIG.yaml [PORT]

Debian's MapProxy (python3-mapproxy) as a WSGI application under the standard library's
threaded wsgiref server, bound to 127.0.0.1 only. PORT 0 (the default) takes a free port;
the first line printed is `serving PORT`. Runs until killed.
"""

import sys
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from mapproxy.wsgiapp import make_wsgi_app


class ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    app = make_wsgi_app(sys.argv[1])
    port = int(sys.argv[2]) if len(sys.argv) == 3 else 0
    server = make_server("127.0.0.1", port, app, server_class=ThreadingServer, handler_class=QuietHandler)
    print("serving %d" % server.server_port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
