#!/usr/bin/env python3
"""layering.py — the folders' include rules (DEVELOPERS.md, Architecture; docs/dev/app-folders.md) hold in every file
under src/.

- src/core includes only core, Eigen, nlohmann-json and the standard library;
- src/app includes core and app, never ui, render or platform; and no include runs back up inside it: its folders
  stand on the floors of APP_FLOORS, and a file includes only headers of its own folder or of a lower floor (never
  a higher one, nor a sibling folder on its own floor, so there is no cycle between folders); every file of src/app
  is directly in src/app (the composition root, the top floor) or in one of the floors' folders; and no file of a
  part that app/app.h includes (directly or through another part) includes app/app.h;
- imgui.h is included only under src/ui and src/platform (the one backend glue file), GL only under
  src/render, src/ui and src/platform;
- `#ifdef __EMSCRIPTEN__` (or `#if defined(__EMSCRIPTEN__)`) appears only under src/platform;
- a text colour under src/ui comes from the themes' palettes (ui/theme.h, held to 4.5:1 by test_theme.cpp): no
  literal colour is passed to TextColored or pushed as ImGuiCol_Text.
Prints each broken rule with its file and line; exit 1 when there is any.

usage: layering.py [ROOT]              check the rules
       layering.py --graph [ROOT]      print the include edges between src/app's folders
       layering.py --check-doc [ROOT]  the graph in docs/dev/app-folders.md is the one --graph prints
"""
import os
import re
import sys

# src/app's folders from the lowest floor up; folders on one floor are siblings. "" is src/app itself: the
# composition root (App) and what works on the whole App.
APP_FLOORS = [
    ["base"],  # the texts, the embedded data files, the host's services
    ["content"],  # lesson files: the format, parsing, the catalog
    ["state"],  # the State, its keys and codec, the registries, presets
    ["playground"],  # the state with every result computed from it
    ["describe", "learn", "worksheet", "exchange"],  # parts working on the playground
    ["lesson"],  # lessons checked and run, the builder, course packages
    [""],  # the composition root
]
FLOOR = {folder: n for n, folders in enumerate(APP_FLOORS) for folder in folders}
DOC = os.path.join("docs", "dev", "app-folders.md")
DOC_MARK = "<!-- layering.py --graph -->"

args = [a for a in sys.argv[1:] if not a.startswith("--")]
flags = {a for a in sys.argv[1:] if a.startswith("--")}
ROOT = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "..")
SRC = os.path.join(ROOT, "src")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
problems = []
# wcag: 1.4.3 — every text colour on the canvas is a palette colour that test_theme.cpp holds to 4.5:1
LITERAL_TEXT_COLOUR = re.compile(r"(TextColored\(\s*|PushStyleColor\(\s*ImGuiCol_Text,\s*)(ImVec4\(\s*[\d.]|IM_COL32\()")


def files():
    for folder, _, names in os.walk(SRC):
        for name in sorted(names):
            if name.endswith((".cpp", ".h")):
                path = os.path.join(folder, name)
                yield os.path.relpath(path, SRC).replace(os.sep, "/"), path


def app_folder(rel):
    """"lesson" for app/lesson/lesson_run.h, "" for app/app.h, None outside src/app."""
    parts = rel.split("/")
    if parts[0] != "app":
        return None
    return "/".join(parts[1:-1])


def floor_name(folder):
    return folder or "(root)"


includes = {}  # "app/lesson/lesson_run.h" -> [(line, "app/lesson/lesson.h"), ...]
edges = {}  # (from folder, to folder) -> number of includes
for rel, path in files():
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    includes[rel] = [(i + 1, m.group(1)) for i, line in enumerate(lines) for m in [INCLUDE.match(line)] if m]
    top = rel.split("/")[0]
    for i, line in enumerate(lines, 1):
        if "__EMSCRIPTEN__" in line and re.match(r"\s*#\s*(if|ifdef|ifndef|elif)", line) and top != "platform":
            problems.append(f"src/{rel}:{i}: __EMSCRIPTEN__ outside src/platform")
    if top == "ui":
        text = "\n".join(lines)
        for m in LITERAL_TEXT_COLOUR.finditer(text):
            at = text.count("\n", 0, m.start()) + 1
            problems.append(f"src/{rel}:{at}: a literal text colour: use a palette colour of ui/theme.h")
    mine = app_folder(rel)
    if mine is not None and mine not in FLOOR:
        problems.append(f"src/{rel}: in app/{mine}, which is no folder of APP_FLOORS (tests/source/layering.py)")
    for n, inc in includes[rel]:
        first = inc.split("/")[0]
        if top == "core" and first in ("app", "ui", "render", "platform", "cli"):
            problems.append(f"src/{rel}:{n}: core includes {inc}")
        if top == "app" and first in ("ui", "render", "platform", "cli"):
            problems.append(f"src/{rel}:{n}: app includes {inc}")
        if inc.endswith("imgui.h") and top not in ("ui", "platform"):
            problems.append(f"src/{rel}:{n}: imgui.h outside src/ui")
        theirs = app_folder(inc)
        if mine is None or theirs is None or mine == theirs:
            continue
        edges[(mine, theirs)] = edges.get((mine, theirs), 0) + 1
        if mine not in FLOOR or theirs not in FLOOR:
            continue
        if FLOOR[theirs] > FLOOR[mine]:
            problems.append(f"src/{rel}:{n}: includes {inc}, a floor up (app/{floor_name(mine)} is on floor "
                            f"{FLOOR[mine]}, app/{floor_name(theirs)} on {FLOOR[theirs]})")
        elif FLOOR[theirs] == FLOOR[mine]:
            problems.append(f"src/{rel}:{n}: includes {inc}, of a sibling folder on its floor {FLOOR[mine]}")

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


def graph_text():
    """Each folder's floor, then the folders it includes (highest floor first). No counts: an include added inside
    an edge that exists changes nothing a reader of the picture needs."""
    out = []
    order = [folder for folders in reversed(APP_FLOORS) for folder in folders]
    for folder in order:
        targets = sorted(((to, k) for (frm, to), k in edges.items() if frm == folder),
                         key=lambda e: (-FLOOR.get(e[0], -1), e[0]))
        line = f"{floor_name(folder):<11} floor {FLOOR[folder]}"
        out.append(line + (" -> " + ", ".join(floor_name(to) for to, _ in targets) if targets else ""))
    return "\n".join(out) + "\n"


def doc_graph(path):
    """The fenced block that follows DOC_MARK in the doc, or None."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(re.escape(DOC_MARK) + r"\s*```text\n(.*?)```", text, re.S)
    return m.group(1) if m else None


if "--graph" in flags:
    sys.stdout.write(graph_text())
    sys.exit(0)
if "--check-doc" in flags:
    written = doc_graph(os.path.join(ROOT, DOC))
    if written is None:
        print(f"{DOC}: no ```text block after {DOC_MARK}")
        sys.exit(1)
    if written != graph_text():
        print(f"{DOC}: its folder graph is not the one `tests/source/layering.py --graph` prints; paste this:")
        sys.stdout.write(graph_text())
        sys.exit(1)
    print(f"{DOC}: the folder graph is current")
    sys.exit(0)

for p in problems:
    print(p)
print(f"layering: {len(includes)} files, {len(parts)} parts under app/app.h, {len(FLOOR)} app folders on "
      f"{len(APP_FLOORS)} floors, {len(problems)} problems")
sys.exit(1 if problems else 0)
