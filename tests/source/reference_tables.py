#!/usr/bin/env python3
"""reference_tables.py — the docs' generated regions (reference.md, embed lists, limits) are what the manifest says.

A region of a page (README.md, DEVELOPERS.md, docs/**.md) is written between two HTML comments, inline or as lines
of their own:

    <!-- generated: NAME -->…<!-- /generated -->

and NAME says what goes there (RENDERERS below; `limit:<name>` is one of the manifest's limits). The text comes from
data/manifest.json (`attnplay manifest`) and, for titles, the English catalog data/strings/en.json. Without
--write this prints a unified diff for every region that is not what it would write, names each panel id, lockable
control or event a list region holds that the manifest lacks (or lacks one it has), and exits 1. With --write it
rewrites the regions. Every region NAME it knows must be used somewhere, so removing a region's markers fails too.

usage: reference_tables.py [--write] [--manifest PATH] [ROOT]
"""
import difflib
import json
import pathlib
import re
import sys

# A marker quoted in a code span (`<!-- generated: NAME -->`, as a page explaining them writes it) is no marker.
REGION = re.compile(r"(?<!`)<!-- generated: ([\w:.-]+) -->(.*?)<!-- /generated -->", re.S)
OPENING = re.compile(r"(?<!`)<!-- generated: ")


class Context:
    """The manifest, the English catalog and the problems found while rendering."""

    def __init__(self, manifest, catalog, source):
        self.m, self.catalog, self.source, self.problems = manifest, catalog, source, []
        self.panel_ids = [p["id"] for p in manifest["panels"]]
        self.lesson_ids = [lesson["id"] for lesson in manifest["lessons"]]
        self.subscribable = [e["name"] for e in manifest["events"] if e["subscribable"]]

    def text(self, key):
        # A title the catalog lacks is a problem of its own; the id stands in so the rest still renders.
        if key not in self.catalog:
            self.problems.append(f"data/strings/en.json has no {key}")
            return key.split(".")[1] if "." in key else key
        return self.catalog[key]


def code(s):
    return f"`{s}`"


def prose(s):
    """A manifest or catalog text inside a table cell: no cell break, no stray HTML tag (`<number>`)."""
    return str(s).replace("|", "\\|").replace("<", "&lt;")


def number(v):
    return str(int(v)) if float(v).is_integer() else repr(v)


def size_text(n):
    for unit, factor in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= factor and n % factor == 0:
            return f"{n // factor} {unit}"
    return f"{n} bytes"


def limit_text(ctx, name):
    if name not in ctx.m["limits"]:
        ctx.problems.append(f"limit:{name}: {ctx.source} has no such limit")
        return "?"
    value = ctx.m["limits"][name]
    return size_text(value) if name.endswith("_bytes") else str(value)


def table(header, rows):
    # Blank lines around it: a table right after a comment line would not start a table everywhere.
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n\n" + "\n".join(lines) + "\n\n"


# The inline lists of docs/embedding.md.

def panel_list(ctx):
    return ", ".join(code(p) for p in ctx.panel_ids)


def lock_note(ctx, control):
    """What locking `control` covers beyond its own key: the panels it disables, the fields of an object key."""
    notes = [f"disables the {ctx.text('panel.' + p['id'])} panel" for p in ctx.m["panels"] if p["lock"] == control]
    fields = list(ctx.m["keys"].get(control, {}).get("properties", {}))
    if fields:
        notes.append("its " + " and ".join(fields))
    return f" ({'; '.join(notes)})" if notes else ""


def lockable_list(ctx):
    return ", ".join(code(c) + lock_note(ctx, c) for c in ctx.m["controls"]["lockable"])


def subscribe_option(ctx):
    return "`events: [" + ", ".join(f'"{e}"' for e in ctx.subscribable) + "]`"


def component_events(ctx):
    what = {e["name"]: e["what"] for e in ctx.m["events"]}
    return ", ".join(f"{code(e)} ({prose(what[e])})" for e in ctx.subscribable)


# docs/reference.md's tables.

def enum_text(values, ctx):
    # An enum that is a whole manifest list is named, not copied a second time.
    if sorted(values) == sorted(ctx.lesson_ids):
        return "a lesson id, see [Lessons](#lessons)"
    return ", ".join(code(v) for v in values)


def range_text(schema):
    lo, hi = schema.get("minimum"), schema.get("maximum")
    if lo is not None and lo == hi:
        return f", always {number(lo)}"
    if lo is not None and hi is not None:
        return f" {number(lo)} … {number(hi)}"
    return f" ≥ {number(lo)}" if lo is not None else f" ≤ {number(hi)}" if hi is not None else ""


def object_text(schema, ctx):
    props = schema.get("properties", {})
    if props and sorted(props) == sorted(ctx.panel_ids):
        return "object: `true` or `false` per panel id ([Panels](#panels))"
    inner = ", ".join(f"{code(k)} ({values_text(v, ctx)})" for k, v in props.items())
    return "object" + (f": {inner}" if inner else "")


def values_text(schema, ctx):
    """What a key (or an object key's field) takes, from its JSON-schema entry."""
    if "enum" in schema:
        return enum_text(schema["enum"], ctx)
    types = schema.get("type", [])
    types = types if isinstance(types, list) else [types]
    nullable = " or `null`" if "null" in types else ""
    kind = next((t for t in types if t != "null"), "")
    if kind == "object":
        text = object_text(schema, ctx)
        return text.replace("object", "object" + nullable, 1)
    if kind in ("integer", "number"):
        return kind + range_text(schema) + nullable
    if kind == "boolean":
        return "`true` or `false`"
    if kind == "string" and "maxLength" in schema:
        return f"string, maxLength {schema['maxLength']}"
    return (kind or "any JSON value") + nullable


def keys_table(ctx):
    lockable = set(ctx.m["controls"]["lockable"])
    rows = []
    for key, s in ctx.m["keys"].items():
        sample = code(prose(json.dumps(s["sample"], ensure_ascii=False))) if "sample" in s else ""
        notes = prose(s.get("description", ""))
        if s.get("read_only") and "read only" not in notes:
            notes = "; ".join(filter(None, [notes, "read only"]))
        if s.get("recomputes_sweep"):
            notes = "; ".join(filter(None, [notes, "recomputes the Saturation panel's d_k sweep"]))
        default = code(prose(json.dumps(s["default"], ensure_ascii=False))) if "default" in s else ""
        if "default_from" in s:
            default += " (or " + prose(s["default_from"]) + ")"
        rows.append([code(key), s["kind"], values_text(s, ctx), default, "yes" if key in lockable else "", sample, notes])
    return table(["key", "kind", "values", "default", "`lock=`", "a value away from the default", "notes"], rows)


def panels_table(ctx):
    rows = [[code(p["id"]), prose(ctx.text("panel." + p["id"])), "yes" if p["open"] else "no",
             code(p["lock"]) if p["lock"] else "", ", ".join(code(f) for f in p["shows"])] for p in ctx.m["panels"]]
    return table(["panel", "title", "open at first", "disabled by `lock=`", "shows"], rows)


def events_table(ctx):
    rows = [[code(e["name"]), e["source"], "yes" if e["subscribable"] else "no", prose(e["what"])]
            for e in ctx.m["events"]]
    return table(["event", "source", "a host may subscribe", "what"], rows)


def lessons_table(ctx):
    rows = [[code(lesson["id"]), prose(ctx.text(lesson["title"])), str(lesson["steps"])] for lesson in ctx.m["lessons"]]
    return table(["lesson", "title", "steps"], rows)


def limits_table(ctx):
    rows = []
    for name, value in ctx.m["limits"].items():
        shown = f"{value} ({size_text(value)})" if name.endswith("_bytes") and value >= 1024 else str(value)
        rows.append([code(name), shown])
    return table(["limit", "value"], rows)


RENDERERS = {
    "panels": panel_list,
    "lockable": lockable_list,
    "subscribe-option": subscribe_option,
    "component-events": component_events,
    "reference:keys": keys_table,
    "reference:panels": panels_table,
    "reference:events": events_table,
    "reference:lessons": lessons_table,
    "reference:limits": limits_table,
}
# The list regions whose members are ids: (what the ids are, the manifest's ids, how a member is written).
BACKTICKED, QUOTED = re.compile(r"`([^`]+)`"), re.compile(r'"([^"]+)"')
LISTS = {
    "panels": ("panel", lambda ctx: ctx.panel_ids, BACKTICKED),
    "lockable": ("lockable control", lambda ctx: ctx.m["controls"]["lockable"], BACKTICKED),
    "subscribe-option": ("subscribable event", lambda ctx: ctx.subscribable, QUOTED),
    "component-events": ("subscribable event", lambda ctx: ctx.subscribable, BACKTICKED),
}


def render(ctx, name):
    if name.startswith("limit:"):
        return limit_text(ctx, name[len("limit:"):])
    if name not in RENDERERS:
        ctx.problems.append(f"`{name}` is no region this script writes (known: {', '.join(RENDERERS)}, limit:<name>)")
        return None
    return RENDERERS[name](ctx)


def listed_ids(body, pattern):
    """The members a list region names as written: parenthesised notes (which may name other things) dropped."""
    while True:
        stripped = re.sub(r"\([^()]*\)", "", body)
        if stripped == body:
            return pattern.findall(body)
        body = stripped


def check_list(ctx, where, name, body):
    what, ids, pattern = LISTS[name]
    written, known = listed_ids(body, pattern), ids(ctx)
    unknown = [i for i in written if i not in known]
    missing = [i for i in known if i not in written]
    if unknown:
        ctx.problems.append(f"{where}: the `{name}` list names {', '.join(unknown)}, which {ctx.source} has "
                            f"no {what} of")
    if missing:
        ctx.problems.append(f"{where}: the `{name}` list lacks the {what} {', '.join(missing)} of {ctx.source}")


def diff(ctx, rel, name, written, wanted):
    lines = difflib.unified_diff(written.splitlines(), wanted.splitlines(), f"{rel} ({name}, as written)",
                                 f"{rel} ({name}, from {ctx.source})", lineterm="")
    return "\n".join(lines)


def process(ctx, root, page, write, used):
    """Checks (or rewrites) one page's regions; returns the diffs of those that differ."""
    rel = page.relative_to(root).as_posix()
    text = page.read_text(encoding="utf-8")
    if len(OPENING.findall(text)) != len(REGION.findall(text)):
        # A region would run on to the next one's end: writing it would eat the text between.
        ctx.problems.append(f"{rel}: a `<!-- generated: NAME -->` without its `<!-- /generated -->`")
        return []
    diffs, out, last = [], [], 0
    for m in REGION.finditer(text):
        name, body = m.group(1), m.group(2)
        used.add(name)
        where = f"{rel}:{text.count(chr(10), 0, m.start()) + 1}"
        wanted = render(ctx, name)
        if name in LISTS and not write:  # what --write replaces needs no naming
            check_list(ctx, where, name, body)
        if wanted is not None and wanted != body:
            diffs.append(diff(ctx, rel, name, body, wanted))
        out += [text[last:m.start(2)], body if wanted is None else wanted]
        last = m.end(2)
    new = "".join(out) + text[last:]
    if write and new != text:
        page.write_text(new, encoding="utf-8")
    return diffs


def pages(root):
    return [root / "README.md", root / "DEVELOPERS.md"] + sorted((root / "docs").rglob("*.md"))


def arguments(argv):
    write, manifest, rest = "--write" in argv, None, [a for a in argv if a != "--write"]
    if "--manifest" in rest:
        i = rest.index("--manifest")
        manifest = pathlib.Path(rest[i + 1]).resolve()
        rest = rest[:i] + rest[i + 2:]
    root = pathlib.Path(rest[0] if rest else pathlib.Path(__file__).parents[2]).resolve()
    return write, root, manifest or root / "data" / "manifest.json"


def main(argv):
    write, root, manifest = arguments(argv)
    catalog = json.loads((root / "data" / "strings" / "en.json").read_text(encoding="utf-8"))
    source = manifest.relative_to(root).as_posix() if manifest.is_relative_to(root) else str(manifest)
    ctx = Context(json.loads(manifest.read_text(encoding="utf-8")), catalog, source)
    used, diffs = set(), []
    for page in pages(root):
        diffs += process(ctx, root, page, write, used)
    ctx.problems += [f"no page holds the `{name}` region (were its markers removed?)" for name in RENDERERS
                     if name not in used]
    for d in [] if write else diffs:
        print(d)
    problems = list(dict.fromkeys(ctx.problems))  # a region used twice (limit:json_depth) reports once
    for p in problems:
        print(p)
    verb = "rewritten" if write else f"not what {source} makes of them"
    print(f"reference tables: {len(used)} kinds of region, {len(diffs)} {verb}, {len(problems)} problems"
          + ("" if write or not diffs else "; `python3 tests/source/reference_tables.py --write` rewrites them"))
    return 1 if ctx.problems or (diffs and not write) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
