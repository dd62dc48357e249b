#!/usr/bin/env python3
"""check_screenshot.py — reads the Windows build's screenshot (a PNG) and the item rectangles it was drawn with
(--dump-rects) and checks, with the standard library only: the picture is not blank, every heatmap cell's
centre is a colour of the viridis map the heatmap shader draws (shaders/heatmap.frag.glsl), and a larger weight
is brighter. The same checks as tests/desktop/check_screenshot.cpp plus the colours.
usage: check_screenshot.py SHOT.png RECTS.json ROW LOW,HIGH ROWS COLS
"""
import json
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour})")
            bpp = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        ftype, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
            if ftype == 1:
                line[x] = (line[x] + a) & 255
            elif ftype == 2:
                line[x] = (line[x] + b) & 255
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def cell_colour(rows, bpp, r, i, j, nrows, ncols):
    """Mean colour of a 5x5 patch in cell (i, j) of rectangle r, left of the cell's number (which is drawn in its
    centre) and clear of its outline and of the saturation flag in its top-right corner."""
    cw, ch = r["w"] / ncols, r["h"] / nrows
    cx, cy = int(r["x"] + cw * (j + 0.15)), int(r["y"] + ch * (i + 0.5))
    patch = [rows[y][x * bpp:x * bpp + 3] for y in range(cy - 2, cy + 3) for x in range(cx - 2, cx + 3)]
    return [round(sum(p[k] for p in patch) / len(patch)) for k in range(3)]


def viridis(t):  # the shader's polynomial
    c = [(0.2777273272234177, 0.005407344544966578, 0.3340998053353061),
         (0.1050930431085774, 1.404613529898575, 1.384590162594685),
         (-0.3308618287255563, 0.214847559468213, 0.09509516302823659),
         (-4.634230498983486, -5.799100973351585, -19.33244095627987),
         (6.228269936347081, 14.17993336680509, 56.69055260068105),
         (4.776384997670288, -13.74514537774601, -65.35303263337234),
         (-5.435455855934631, 4.645852612178535, 26.3124352495832)]
    out = []
    for k in range(3):
        v = 0.0
        for coeff in reversed(c):
            v = v * t + coeff[k]
        out.append(255 * min(1.0, max(0.0, v)))
    return out


def main(argv):
    if len(argv) != 7:
        print("usage: check_screenshot.py SHOT.png RECTS.json ROW LOW,HIGH ROWS COLS", file=sys.stderr)
        return 2
    w, h, bpp, rows = read_png(argv[1])
    px = lambda x, y: rows[y][x * bpp:x * bpp + 3]
    lum = lambda p: 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]
    vals = [lum(px(x, y)) for y in range(0, h, 2) for x in range(0, w, 2)]
    mean = sum(vals) / len(vals)
    var = sum((v - mean) ** 2 for v in vals) / len(vals)
    print(f"screenshot {w}x{h}, luminance variance {var:.1f}")
    if var < 100:
        print("FAIL: screenshot looks blank")
        return 1
    rects = json.load(open(argv[2]))
    if "heatmap:grid" not in rects:
        print("FAIL: no heatmap rectangle recorded")
        return 1
    r = rects["heatmap:grid"]
    row, (lo, hi) = int(argv[3]), map(int, argv[4].split(","))
    nrows, ncols = int(argv[5]), int(argv[6])
    table = [viridis(i / 255) for i in range(256)]
    worst, cells = 0.0, {}
    for i in range(nrows):
        for j in range(ncols):
            p = cell_colour(rows, bpp, r, i, j, nrows, ncols)
            d = min(sum((p[k] - v[k]) ** 2 for k in range(3)) ** 0.5 for v in table)
            worst = max(worst, d)
            cells[(i, j)] = p
            print(f"  cell ({i},{j}) rgb {tuple(p)} distance to viridis {d:.1f}")
    if worst > 12:
        print(f"FAIL: a heatmap cell is not a viridis colour (distance {worst:.1f})")
        return 1
    l_lo, l_hi = lum(cells[(row, lo)]), lum(cells[(row, hi)])
    print(f"heatmap row {row}: cell {lo} luminance {l_lo:.1f}, cell {hi} luminance {l_hi:.1f}")
    if not l_hi > l_lo + 10:
        print("FAIL: heatmap colours are not ordered like the weights")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
