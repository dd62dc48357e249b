#!/usr/bin/env python3
"""perf_tables.py — every "vs X" cell in docs/performance.md is the ratio of the times printed in its row.

A table whose header has a column `vs X` and a column `X` holds, in each row, X's time ÷ the first timed column's
time (ours). The times are printed rounded (3 decimals under 10 ms, 1 above), so a cell passes when it lies within
the ratios those rounded times allow, widened by the cell's own rounding to 2 decimals. Run by `./scripts/test`
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


def check_table(rows, problems):
    header, body = rows[0], rows[2:]
    vs = {i: h[3:] for i, h in enumerate(header) if h.startswith("vs ") and h[3:] in header}
    if not vs:
        return 0
    ours = next(i for i, h in enumerate(header) if i > 0 and all(time_of(r[i]) for r in body) and h not in ("n", "d_k"))
    checked = 0
    for row in body:
        mine = time_of(row[ours])
        for i, other in vs.items():
            theirs, cell = time_of(row[header.index(other)]), re.match(r"^([0-9.]+)×$", row[i])
            if not (theirs and mine and cell):
                continue
            low = (theirs[0] - theirs[1]) / (mine[0] + mine[1])
            high = (theirs[0] + theirs[1]) / max(mine[0] - mine[1], 1e-12)
            shown = float(cell.group(1))
            checked += 1
            if not low - 0.005 <= shown <= high + 0.005:
                problems.append(f"row {row[:2]}: vs {other} = {row[i]}, but {row[header.index(other)]} ÷ {row[ours]} "
                                f"= {theirs[0] / mine[0]:.2f}×")
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
