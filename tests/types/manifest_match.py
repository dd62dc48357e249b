#!/usr/bin/env python3
"""manifest_match.py — the shipped attnplay.d.ts declares what the app declares, no more and no less.

tsc checks the scripts against the declaration file; this checks the declaration file against data/manifest.json
(the app's own description, `attnplay manifest`): the `State` interface has exactly the manifest's state keys, and
`EmbedEventName` and docs/embedding.md's subscribe list exactly its events a host can subscribe to. A key or an event added to the app without the types
fails here.
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2])
dts = (ROOT / "web" / "site" / "attnplay.d.ts").read_text(encoding="utf-8")
manifest = json.loads((ROOT / "data" / "manifest.json").read_text(encoding="utf-8"))


def interface_members(name):
    block = re.search(r"^  interface " + name + r" \{\n(.*?)^  \}", dts, re.M | re.S)
    assert block, f"attnplay.d.ts has no interface {name}"
    return set(re.findall(r"^    (?:readonly )?'?([\w-]+)'?\??:", block.group(1), re.M))


problems = []
declared, keys = interface_members("State"), set(manifest["keys"])
if declared != keys:
    problems.append(f"State: the types lack {sorted(keys - declared)} and have {sorted(declared - keys)} the app lacks")
union = re.search(r"type EmbedEventName = ([^;]+);", dts)
events = set(re.findall(r"'([\w-]+)'", union.group(1))) if union else set()
subscribable = {e["name"] for e in manifest["events"] if e.get("subscribable")}
if events != subscribable:
    problems.append(f"EmbedEventName: the types lack {sorted(subscribable - events)} and have "
                    f"{sorted(events - subscribable)} a host cannot subscribe to")
# The embedding page's subscribe example lists every event a host can subscribe to, too.
page = (ROOT / "docs" / "embedding.md").read_text(encoding="utf-8")
listed = re.search(r'`events: \[([^\]]*)\]`', page)
documented = set(re.findall(r'"([\w-]+)"', listed.group(1))) if listed else set()
if documented != subscribable:
    problems.append(f"docs/embedding.md's subscribe list lacks {sorted(subscribable - documented)} and has "
                    f"{sorted(documented - subscribable)} a host cannot subscribe to")
for p in problems:
    print(p)
print(f"types: {len(declared)} state keys, {len(events)} subscribable events; {len(problems)} problems")
sys.exit(1 if problems else 0)
