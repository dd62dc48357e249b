#!/usr/bin/env python3
"""compare_heatmaps.py — the heatmap cells of two screenshots (each with its --dump-rects file) differ: an input
script that moved a control reached the app. Prints the largest colour change of a cell centre.
usage: compare_heatmaps.py A.png A-rects.json B.png B-rects.json ROWS COLS
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_screenshot import cell_colour, read_png  # noqa: E402


def cells(png, rects, nrows, ncols):
    w, h, bpp, rows = read_png(png)
    r = json.load(open(rects))["heatmap:grid"]
    return [tuple(cell_colour(rows, bpp, r, i, j, nrows, ncols)) for i in range(nrows) for j in range(ncols)]


def main(a, ar, b, br, nrows, ncols):
    ca, cb = cells(a, ar, int(nrows), int(ncols)), cells(b, br, int(nrows), int(ncols))
    delta = max(sum(abs(p - q) for p, q in zip(x, y)) for x, y in zip(ca, cb))
    print(f"largest cell colour change {delta} (sum of |ΔRGB|)")
    return 0 if delta > 30 else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:7]) if len(sys.argv) == 7 else 2)
