#!/usr/bin/env python3
"""serve.py — a static server for build/web with correct wasm MIME type and an optional CSP header."""
import argparse
import functools
import http.server


class Handler(http.server.SimpleHTTPRequestHandler):
    csp = None
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def end_headers(self):
        if self.csp:
            self.send_header("Content-Security-Policy", self.csp)
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--dir", default="build/web")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--csp", default=None, help="send this Content-Security-Policy header")
    a = ap.parse_args()
    Handler.csp = a.csp
    handler = functools.partial(Handler, directory=a.dir)
    http.server.ThreadingHTTPServer((a.host, a.port), handler).serve_forever()


if __name__ == "__main__":
    main()
