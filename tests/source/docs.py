#!/usr/bin/env python3
"""docs.py — the documents a reader opens first stay short, and every link between them leads somewhere.

- README.md stays under 8 KB and DEVELOPERS.md under 10 KB (details go to docs/ and docs/dev/);
- every relative link in README.md, DEVELOPERS.md, docs/**.md and python/README.md names a file or folder that
  exists, and a link with a #fragment names a heading of that page (GitHub's anchor rule);
- every file path of the source tree a page names (src/…, tests/…, web/…, data/…, scripts/…, python/…, cmake/…;
  a `*` matches as a glob, a `<placeholder>` is skipped) exists, so a moved file cannot leave a page behind;
- every page under docs/ (but images) is reached from the README or DEVELOPERS.md, directly or through another page.
Prints each problem; exit 1 when there is any.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2]).resolve()
LIMITS = {"README.md": 8 * 1024, "DEVELOPERS.md": 10 * 1024}
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
TREE_PATH = re.compile(r"(?<![\w/.-])((?:src|tests|web|data|scripts|python|cmake)/[\w./*<>-]*[\w*>])")


def anchors(page):
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    out = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^#{1,6}\s+(.*)", line)
        if m:
            out.add(re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-"))
    return out


def links(page):
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for target in LINK.findall(text):
        if not re.match(r"^[a-z]+:", target):
            yield target


def main():
    problems = []
    for name, limit in LIMITS.items():
        size = len((ROOT / name).read_bytes())
        if size > limit:
            problems.append(f"{name}: {size} bytes, more than {limit}")
    pages = [ROOT / "README.md", ROOT / "DEVELOPERS.md", ROOT / "python" / "README.md"]
    pages += sorted((ROOT / "docs").rglob("*.md"))
    reached = set()
    for page in pages:
        for target in links(page):
            path, _, fragment = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                problems.append(f"{page.relative_to(ROOT)}: link to {target}: no such file")
                continue
            reached.add(dest)
            if fragment and dest.suffix == ".md" and fragment not in anchors(dest):
                problems.append(f"{page.relative_to(ROOT)}: link to {target}: no such heading")
    for page in pages:
        for named in sorted(set(TREE_PATH.findall(page.read_text(encoding="utf-8")))):
            if "<" not in named and not list(ROOT.glob(named)) and not list(ROOT.glob(named + ".*")):
                problems.append(f"{page.relative_to(ROOT)}: names {named}, which does not exist")
    for page in sorted((ROOT / "docs").rglob("*.md")):
        if page not in reached and page.parent not in reached:
            problems.append(f"{page.relative_to(ROOT)}: no page links to it")
    for p in problems:
        print(p)
    sizes = ", ".join(f"{n} {len((ROOT / n).read_bytes())} bytes" for n in LIMITS)
    print(f"docs: {len(pages)} pages, {sizes}, {len(problems)} problems")
    return 1 if problems else 0


sys.exit(main())
