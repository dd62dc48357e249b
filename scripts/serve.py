#!/usr/bin/env python3
"""serve.py — a static server for build/web with correct wasm MIME type, an optional CSP header and optional
gzip (Content-Encoding: gzip, as a static host sends the page's wasm, scripts, JSON, CSS and HTML)."""
import argparse
import functools
import gzip
import http.server
import io
import os

GZIP_SUFFIXES = (".wasm", ".js", ".json", ".css", ".html", ".svg", ".webmanifest")


class Handler(http.server.SimpleHTTPRequestHandler):
    csp = None
    gzip = False
    compressed = {}  # (path, mtime) -> gzip -9 bytes, so each file is compressed once
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript",
                      ".webmanifest": "application/manifest+json",
                      # attnplay.d.ts, the API's declarations: text to read (mimetypes may say MPEG-TS or Qt Linguist)
                      ".ts": "text/plain; charset=utf-8"}

    def end_headers(self):
        if self.csp:
            self.send_header("Content-Security-Policy", self.csp)
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        if not self.gzip or "gzip" not in self.headers.get("Accept-Encoding", ""):
            return super().send_head()
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?")[0].endswith("/"):
            path = os.path.join(path, "index.html")
        if not path.endswith(GZIP_SUFFIXES) or not os.path.isfile(path):
            return super().send_head()
        key = (path, os.path.getmtime(path))
        body = self.compressed.get(key)
        if body is None:
            with open(path, "rb") as f:
                body = gzip.compress(f.read(), 9)
            self.compressed[key] = body
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, *args):
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--dir", default="build/web")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--csp", default=None, help="send this Content-Security-Policy header")
    ap.add_argument("--gzip", action="store_true", help="send .wasm/.js/.json/.css/.html/.svg gzip-compressed")
    a = ap.parse_args()
    Handler.csp = a.csp
    Handler.gzip = a.gzip
    handler = functools.partial(Handler, directory=a.dir)
    http.server.ThreadingHTTPServer((a.host, a.port), handler).serve_forever()


if __name__ == "__main__":
    main()
