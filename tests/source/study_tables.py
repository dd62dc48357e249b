#!/usr/bin/env python3
"""study_tables.py — the scaling study's tables in docs/learn-mode.md are the study's results files, row for row.

The Learn panel shows data/study-results/<name>.json (written by scripts/study.mjs as results.json); docs/learn-mode.md
prints the same rows. This renders every row as study.mjs prints it and checks that the page holds exactly those
rows, so neither can say something the other does not.
"""
import json
import pathlib
import re
import sys


def side_cells(s):
    lr = f"{s['lr']:g}" + ("*" if s["lr_at_edge"] else "")
    return [lr, f"{s['median']} [{s['q1']}–{s['q3']}]", f"{s['reached']}/{s['seeds']}"]


def render(row):
    r = row["ratio"]
    cells = [row["task"], str(row["d_k"]), row["init"], row["optimizer"], *side_cells(row["a"]), *side_cells(row["b"]),
             f"{row['b_slower']}/{row['paired']}", f"{r['median']} ({r['min']}–{r['max']})"]
    return "| " + " | ".join(cells) + " |"


def main(root):
    root = pathlib.Path(root)
    readme = [line for line in (root / "docs" / "learn-mode.md").read_text().splitlines() if re.match(r"^\| (induction|sort) \|", line)]
    rendered = []
    for f in sorted((root / "data" / "study-results").glob("*.json")):
        rendered += [render(row) for row in json.loads(f.read_text())["rows"]]
    missing = [r for r in rendered if r not in readme]
    extra = [r for r in readme if r not in rendered]
    for r in missing:
        print("in the results but not in docs/learn-mode.md:", r)
    for r in extra:
        print("in docs/learn-mode.md but not in any results file:", r)
    print(f"{len(rendered)} study rows in data/study-results, {len(readme)} in docs/learn-mode.md")
    return 1 if missing or extra or not rendered else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
