#!/usr/bin/env python3
"""conformance.py — the WCAG 2.1 table in docs/accessibility.md is decided by the tests that prove its rows.

A test that checks a success criterion says so in a comment line of its own:

    wcag: 2.1.2 2.4.3 — what this test checks for them

(after `//` in .mjs/.js/.cpp files, after `#` in .sh/.py files). This collects those markers from every file under
tests/ and checks the table (`| Criterion | Level | Status | Tests | Notes |`):

- every status is Supports, Partially supports, Does not support or Not applicable;
- a "Supports" row has at least one test marking its criterion (what no test checks is at most partly supported);
- a row's Tests column names exactly the files that mark its criterion, and those files exist;
- a marker names a criterion that has a row in the table, and not one the table calls Not applicable;
- a marked file is run by CTest: a Catch2 file the unit tests compile, or a file a CMakeLists.txt under tests/
  names (directly or by a glob) in a folder CTest reaches.

Prints one line per problem; exit 1 when there is any.
`--write` rewrites the Tests column from the markers (adding the column when it is missing); the statuses and notes
stay as written and are still checked.
"""
import pathlib
import re
import sys

STATUSES = ("Supports", "Partially supports", "Does not support", "Not applicable")
CRITERION = re.compile(r"^\d\.\d+\.\d+$")
MARKER = re.compile(r"^\s*(?://|#)\s*wcag:\s*(.*)$")
MARKER_BODY = re.compile(r"^((?:\d\.\d+\.\d+\s+)+)(?:—|--)\s*(\S.*)$")
HEADER = ["Criterion", "Level", "Status", "Tests", "Notes"]
SCANNED = (".mjs", ".js", ".cpp", ".h", ".sh", ".py")
NONE = "—"


def markers(root):
    """{criterion: {relative path: [what it checks]}} and the malformed marker lines."""
    found, bad = {}, []
    for path in sorted((root / "tests").rglob("*")):
        if not path.is_file() or path.suffix not in SCANNED or path.resolve() == pathlib.Path(__file__).resolve():
            continue
        rel = path.relative_to(root).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            m = MARKER.match(line)
            if not m:
                continue
            body = MARKER_BODY.match(m.group(1).strip())
            if not body:
                bad.append(f"{rel}:{n}: a wcag marker is `wcag: 1.2.3 4.5.6 — what it checks`: {line.strip()}")
                continue
            for c in body.group(1).split():
                found.setdefault(c, {}).setdefault(rel, []).append(body.group(2))
    return found, bad


def ctest_patterns(root):
    """Glob patterns (relative to the root) of the files the CMakeLists under tests/ hand to CTest or compile."""
    tests = root / "tests"
    reached = [tests / "CMakeLists.txt"]
    text = reached[0].read_text(encoding="utf-8")
    for sub in re.findall(r"add_subdirectory\((\w+)\)", text):
        if (tests / sub / "CMakeLists.txt").exists():
            reached.append(tests / sub / "CMakeLists.txt")
    patterns = []
    for cml in reached:
        body = re.sub(r"#[^\n]*", "", cml.read_text(encoding="utf-8"))
        for token in re.findall(r"[\w${}./*-]+\.(?:mjs|js|cpp|sh|py)\b", body):
            token = token.replace("${CMAKE_CURRENT_SOURCE_DIR}/", "")
            if "$" not in token:  # ${CMAKE_SOURCE_DIR}/…: the whole tree's sources (clang-format), not tests it runs
                patterns.append((cml.parent / token).relative_to(root).as_posix())
    return patterns


def run_by_ctest(root, rel, patterns):
    glob = lambda p: re.compile(re.escape(p).replace(r"\*", "[^/]*") + "$")  # a `*` stays inside its folder
    if not any(glob(p).match(rel) for p in patterns):
        return False
    if rel.startswith("tests/unit/") and rel.endswith(".cpp"):  # compiled into core_tests: a Catch2 file
        return "TEST_CASE" in (root / rel).read_text(encoding="utf-8")
    return True


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table(lines):
    """(index of the header line, [(line index, cells)]) of the conformance table, or (None, [])."""
    for i, line in enumerate(lines):
        if line.startswith("| Criterion |"):
            rows, j = [], i + 2
            while j < len(lines) and lines[j].startswith("|"):
                rows.append((j, cells(lines[j])))
                j += 1
            return i, rows
    return None, []


def tests_cell(files):
    return ", ".join(sorted(files)) if files else NONE


def main(argv):
    write = "--write" in argv
    args = [a for a in argv if a != "--write"]
    root = pathlib.Path(args[0] if args else pathlib.Path(__file__).parents[2]).resolve()
    doc = root / "docs" / "accessibility.md"
    lines = doc.read_text(encoding="utf-8").split("\n")
    found, problems = markers(root)
    head, rows = table(lines)
    if head is None:
        print(f"{doc.relative_to(root)}: no `| Criterion |` table")
        return 1
    header = cells(lines[head])
    if header != HEADER:
        if write and header == ["Criterion", "Level", "Status", "Notes"]:
            lines[head] = "| " + " | ".join(HEADER) + " |"
            lines[head + 1] = "|" + "---|" * len(HEADER)
            for i, c in rows:
                lines[i] = "| " + " | ".join(c[:3] + [""] + c[3:]) + " |"
            head, rows = table(lines)
            header = HEADER
        else:
            problems.append(f"docs/accessibility.md: the table's columns are {' | '.join(header)}, not {' | '.join(HEADER)}"
                            " (conformance.py --write adds the Tests column)")
    columns = header == HEADER
    criteria = {}
    for i, c in rows:
        name = c[0].split(" ", 1)[0]
        if not CRITERION.match(name):
            problems.append(f"docs/accessibility.md:{i + 1}: not a criterion: {c[0]}")
            continue
        if name in criteria:
            problems.append(f"docs/accessibility.md:{i + 1}: {name} has two rows")
        status = c[2] if len(c) > 2 else ""
        criteria[name] = status
        if status not in STATUSES:
            problems.append(f"{name}: status {status!r} is not one of {', '.join(STATUSES)}")
        marked = found.get(name, {})
        if status == "Supports" and not marked:
            problems.append(f"{name} ({c[0].split(' ', 1)[1]}) says Supports, but no test marks it "
                            f"(`wcag: {name} — …` in the test that checks it; else Partially supports)")
        if status == "Not applicable" and marked:
            problems.append(f"{name} is Not applicable, but {', '.join(sorted(marked))} mark it")
        if not columns or len(c) != len(HEADER):
            if columns:
                problems.append(f"docs/accessibility.md:{i + 1}: {len(c)} cells, not {len(HEADER)}")
            continue
        want = tests_cell(marked)
        if write:
            c[3] = want
            lines[i] = "| " + " | ".join(c) + " |"
        elif c[3] != want:
            problems.append(f"{name}: the Tests column says {c[3] or '(nothing)'}; the markers say {want}")
        for name_ in [t.strip() for t in c[3].split(",") if t.strip() not in ("", NONE)]:
            if not (root / name_).is_file():
                problems.append(f"{name}: {name_} (Tests column) does not exist")
    for name, files in sorted(found.items()):
        if name not in criteria:
            problems.append(f"{', '.join(sorted(files))}: marks {name}, which has no row in the table")
    patterns = ctest_patterns(root)
    for rel in sorted({f for files in found.values() for f in files}):
        if not run_by_ctest(root, rel, patterns):
            problems.append(f"{rel}: has wcag markers but CTest does not run it (no CMakeLists.txt under tests/ names it)")
    if write:
        doc.write_text("\n".join(lines), encoding="utf-8")
    for p in problems:
        print(p)
    supports = sum(1 for s in criteria.values() if s == "Supports")
    files = len({f for fs in found.values() for f in fs})
    print(f"{len(criteria)} criteria ({supports} Supports), {len(found)} marked by {files} test files; "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
