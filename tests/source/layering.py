#!/usr/bin/env python3
"""layering.py — the folders' include rules (DEVELOPERS.md, Architecture) hold in every file under src/.

- src/core includes only core, Eigen, nlohmann-json and the standard library;
- src/app includes core and app, never ui, render or platform; and no include runs back up inside it: no file
  of a part that app/app.h includes (directly or through another part) includes app/app.h;
- imgui.h is included only under src/ui and src/platform (the one backend glue file), GL only under
  src/render, src/ui and src/platform;
- `#ifdef __EMSCRIPTEN__` (or `#if defined(__EMSCRIPTEN__)`) appears only under src/platform.
Prints each broken rule with its file and line; exit 1 when there is any.
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
SRC = os.path.join(ROOT, "src")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
problems = []


def files():
    for folder, _, names in os.walk(SRC):
        for name in sorted(names):
            if name.endswith((".cpp", ".h")):
                path = os.path.join(folder, name)
                yield os.path.relpath(path, SRC).replace(os.sep, "/"), path


includes = {}  # "app/lesson_run.h" -> [(line, "app/lesson.h"), ...]
for rel, path in files():
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    includes[rel] = [(i + 1, m.group(1)) for i, line in enumerate(lines) for m in [INCLUDE.match(line)] if m]
    top = rel.split("/")[0]
    for i, line in enumerate(lines, 1):
        if "__EMSCRIPTEN__" in line and re.match(r"\s*#\s*(if|ifdef|ifndef|elif)", line) and top != "platform":
            problems.append(f"src/{rel}:{i}: __EMSCRIPTEN__ outside src/platform")
    for n, inc in includes[rel]:
        first = inc.split("/")[0]
        if top == "core" and first in ("app", "ui", "render", "platform", "cli"):
            problems.append(f"src/{rel}:{n}: core includes {inc}")
        if top == "app" and first in ("ui", "render", "platform", "cli"):
            problems.append(f"src/{rel}:{n}: app includes {inc}")
        if inc.endswith("imgui.h") and top not in ("ui", "platform"):
            problems.append(f"src/{rel}:{n}: imgui.h outside src/ui")

# The parts app.h is built from: every app header it reaches through includes.
parts, todo = set(), ["app/app.h"]
while todo:
    for _, inc in includes.get(todo.pop(), []):
        if inc.startswith("app/") and inc != "app/app.h" and inc not in parts:
            parts.add(inc)
            todo.append(inc)
for header in sorted(parts):
    for rel in (header, header[:-2] + ".cpp"):
        for n, inc in includes.get(rel, []):
            if inc == "app/app.h":
                problems.append(f"src/{rel}:{n}: includes app/app.h, which includes {header} (an include back up)")

for p in problems:
    print(p)
print(f"layering: {len(includes)} files, {len(parts)} parts under app/app.h, {len(problems)} problems")
sys.exit(1 if problems else 0)
