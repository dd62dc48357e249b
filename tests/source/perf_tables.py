#!/usr/bin/env python3
"""perf_tables.py — every "vs X" cell in docs/performance.md is the ratio of the times printed in its row.

A table whose header has a column `vs X` and a column `X` holds, in each row, X's time ÷ the first timed column's
time (ours). The times are printed rounded (3 decimals under 10 ms, 1 above), so a cell passes when it lies within
the ratios those rounded times allow, widened by the cell's own rounding to 2 decimals. Two derived columns are held
the same way: `vs best peer` is the smaller time of the peer columns present (tfjs-wasm, ort-wasm) ÷ ours, and
`share of peak` (a whole percentage) is the simd128-peak column's time ÷ ours. Run by `./scripts/test`
(CTest `source_perf_tables`); `tests/bench/run_bench.mjs --markdown` prints tables that pass.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2])
PAGE = ROOT / "docs" / "performance.md"


def time_of(cell):
    """(value, half of its last printed digit) of a cell like `2.595 (25.9)`; None when not a time."""
    m = re.match(r"^\s*([0-9]+(?:\.([0-9]+))?)(?:\s*\(|\s*$)", cell)
    if not m:
        return None
    return float(m.group(1)), 0.5 * 10 ** -len(m.group(2) or "")


def tables(text):
    block = []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            block.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif block:
            yield block
            block = []


PEERS = ("tfjs-wasm", "ort-wasm")


def bounds(theirs, mine):
    """The least and greatest ratio theirs ÷ mine that the rounded (value, half-digit) pairs allow."""
    return (theirs[0] - theirs[1]) / (mine[0] + mine[1]), (theirs[0] + theirs[1]) / max(mine[0] - mine[1], 1e-12)


def derived_columns(header):
    """{column index: (label, function from a row to its reference time cell)} of the derived ratio columns."""
    cols = {i: (h, lambda row, c=header.index(h[3:]): row[c]) for i, h in enumerate(header)
            if h.startswith("vs ") and h[3:] in header}
    peers = [header.index(p) for p in PEERS if p in header]
    if "vs best peer" in header and peers:
        def best(row):
            times = [(time_of(row[c]), row[c]) for c in peers]
            times = [t for t in times if t[0]]
            return min(times, key=lambda t: t[0][0])[1] if times else "–"
        cols[header.index("vs best peer")] = ("vs best peer", best)
    if "share of peak" in header and "simd128-peak" in header:
        cols[header.index("share of peak")] = ("share of peak", lambda row, c=header.index("simd128-peak"): row[c])
    return cols


def check_table(rows, problems):
    header, body = rows[0], rows[2:]
    cols = derived_columns(header)
    if not cols:
        return 0
    ours = next(i for i, h in enumerate(header) if i > 0 and all(time_of(r[i]) for r in body) and h not in ("n", "d_k"))
    checked = 0
    for row in body:
        mine = time_of(row[ours])
        for i, (label, reference) in cols.items():
            theirs = time_of(reference(row))
            ratio, percent = re.match(r"^([0-9.]+)×$", row[i]), re.match(r"^([0-9]+) %$", row[i])
            if not (theirs and mine and (ratio or percent)):
                continue
            low, high = bounds(theirs, mine)
            shown, slack = (float(ratio.group(1)), 0.005) if ratio else (float(percent.group(1)) / 100, 0.005)
            checked += 1
            if not low - slack <= shown <= high + slack:
                problems.append(f"row {row[:2]}: {label} = {row[i]}, but {reference(row)} ÷ {row[ours]} "
                                f"= {theirs[0] / mine[0]:.3f}")
    return checked


def main():
    problems, checked = [], 0
    for rows in tables(PAGE.read_text(encoding="utf-8")):
        checked += check_table(rows, problems)
    for p in problems:
        print(p)
    print(f"perf tables: {checked} ratio cells checked, {len(problems)} not the ratio of their row's times")
    return 1 if problems or not checked else 0


sys.exit(main())
