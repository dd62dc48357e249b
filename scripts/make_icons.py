#!/usr/bin/env python3
"""make_icons.py FAVICON_SVG SITE_DIR — the installed app's PNG icons (192 and 512 px), drawn from the favicon.

The favicon (web/site/favicon.svg) is the one drawing of the icon: a few <rect>s on a 16×16 viewBox. This scales
its rectangles (their x, y, width, height, rx and fill) to each size and writes SITE_DIR/icon-<size>.png, so the
icons a browser installs the app with never drift from it. Standard library only (zlib for the PNG).
"""
import re
import struct
import sys
import zlib
from pathlib import Path

SIZES = (192, 512)


def rects(svg):
    view = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    if not view:
        sys.exit("make_icons.py: the favicon has no viewBox")
    out = []
    for attrs in re.findall(r"<rect ([^>]*)/>", svg):
        a = dict(re.findall(r'(\w+)="([^"]*)"', attrs))
        fill = a.get("fill", "#000000").lstrip("#")
        out.append((float(a.get("x", 0)), float(a.get("y", 0)), float(a["width"]), float(a["height"]),
                    float(a.get("rx", 0)), tuple(int(fill[i:i + 2], 16) for i in (0, 2, 4))))
    return float(view.group(1)), out


def inside(px, py, r):
    x, y, w, h, rx, _ = r
    if not (x <= px < x + w and y <= py < y + h):
        return False
    cx = min(max(px, x + rx), x + w - rx)  # the nearest point of the rectangle without its rounded corners
    cy = min(max(py, y + rx), y + h - rx)
    return (px - cx) ** 2 + (py - cy) ** 2 <= rx * rx


def png(size, view, shapes):
    scale = view / size
    rows = bytearray()
    for j in range(size):
        rows.append(0)  # filter: none
        for i in range(size):
            pixel = (0, 0, 0, 0)
            for r in shapes:  # later rectangles paint over earlier ones, as in SVG
                if inside((i + 0.5) * scale, (j + 0.5) * scale, r):
                    pixel = (*r[5], 255)
            rows.extend(pixel)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make_icons.py FAVICON_SVG SITE_DIR")
    view, shapes = rects(Path(sys.argv[1]).read_text())
    for size in SIZES:
        Path(sys.argv[2], f"icon-{size}.png").write_bytes(png(size, view, shapes))


if __name__ == "__main__":
    main()
