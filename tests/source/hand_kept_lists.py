#!/usr/bin/env python3
"""hand_kept_lists.py — no script, page or package keeps its own copy of the app's panel, lesson, event or state-key
lists.

The C++ registries declare them and data/manifest.json (`attnplay manifest`) carries them to every other language.
This scans the page's scripts, the build scripts, the Python package and the browser tests' helpers for a literal
list (strings separated by commas, as in an array, a tuple, a Set or a JSON object's keys) naming three or more
panel ids, lesson ids, event names or state keys, and fails naming each one. Tests themselves
(*.test.mjs) may state the ids they expect. A list that is a choice of its own, not a copy, is allowed below with
the reason.
"""
import json
import pathlib
import re
import sys

SCANNED = ("web/site/*.js", "web/examples/*.js", "web/examples/*.html", "scripts/*.mjs", "scripts/*.js",
           "scripts/*.py", "scripts/lib/*", "python/setup.py", "python/attnplay/*.py", "tests/browser/*.mjs")
# file -> (the list's first member, why it is no copy)
ALLOWED = {
    "python/attnplay/_view.py": ("controls", "DEFAULT_PANELS: the notebook view's own choice of three panels"),
    "tests/browser/exerciser.mjs": ("d_k", "TARGETS: the exerciser's own choice of controls to aim at, sliders "
                                            "among worksheet cells and lesson buttons"),
    "web/examples/component.js": ("ready", "an example host page listens to the events it wants, as a host would"),
}
STRING = re.compile(r"""(["'])([A-Za-z0-9_:.-]{1,40})\1""")
# Between two members: a comma, and in an object's keys the value true/false before it.
GAP = re.compile(r"^\s*(?::\s*(?:true|false|True|False)\s*)?,\s*$")


def strip_comments(text, suffix):
    # Comment text may name ids freely; a '//' or '#' inside a string (a URL, a CSS colour) starts no comment.
    marker = "#" if suffix in (".py", ".sh") else "//"
    out = []
    for line in text.splitlines():
        quote = None
        for i, c in enumerate(line):
            if quote:
                quote = None if c == quote and line[i - 1] != "\\" else quote
            elif c in "'\"`":
                quote = c
            elif line.startswith(marker, i):
                line = line[:i]
                break
        out.append(line)
    return "\n".join(out)


def literal_lists(text):
    """Runs of string literals separated only by commas, with the line of their first member."""
    run, last_end = [], None
    for m in STRING.finditer(text):
        if run and GAP.match(text[last_end:m.start()]):
            run.append(m.group(2))
        else:
            if len(run) >= 3:
                yield run, text.count("\n", 0, first) + 1
            run, first = [m.group(2)], m.start()
        last_end = m.end()
    if len(run) >= 3:
        yield run, text.count("\n", 0, first) + 1


def main(root):
    root = pathlib.Path(root)
    manifest = json.loads((root / "data" / "manifest.json").read_text(encoding="utf-8"))
    kinds = {"panel ids": {p["id"] for p in manifest["panels"]},
             "lesson ids": {lesson["id"] for lesson in manifest["lessons"]},
             "event names": {e["name"] for e in manifest["events"]},
             "state keys": set(manifest["keys"])}
    problems, scanned = [], 0
    for pattern in SCANNED:
        for path in sorted(root.glob(pattern)):
            rel = path.relative_to(root).as_posix()
            if not path.is_file() or rel.endswith(".test.mjs") or ".min." in rel:
                continue
            scanned += 1
            for members, line in literal_lists(strip_comments(path.read_text(encoding="utf-8"), path.suffix)):
                allowed = ALLOWED.get(rel)
                if allowed and members[0] == allowed[0]:
                    continue
                # Some ids are of two kinds ("saturation" is a panel and a lesson): a list is named by its most.
                kind, named = max(((k, [m for m in members if m in ids]) for k, ids in kinds.items()),
                                  key=lambda kn: len(kn[1]))
                if len(named) >= 3:
                    problems.append(f"{rel}:{line}: a hand-kept list of {kind} ({', '.join(named[:6])}"
                                    f"{', …' if len(named) > 6 else ''}): read data/manifest.json instead")
    for p in problems:
        print(p)
    print(f"{scanned} files scanned, {len(problems)} hand-kept lists "
          "(docs/dev/manifest.md says how each reader gets the lists)")
    return 1 if problems or not scanned else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
