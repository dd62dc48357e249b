# ids.sh — `attnplay ids` lists what an embed's panels= and lock=/hide= accept, from the registries; the embed
# table in docs/embedding.md lists exactly those (a panel or a lockable control added to the app without the docs fails here).
set -u
BIN=$1
DIR=$2
source "$DIR/helpers.bash"
README="$DIR/../../docs/embedding.md"

if expect_ok "ids" "$BIN" ids; then
  if out=$(python3 - "$TMP/out" "$README" <<'PY'
import json, re, sys
ids = json.load(open(sys.argv[1]))
readme = open(sys.argv[2]).read()
def listed(param):
    row = re.search(r"^\| `" + param + r"=[^`]*` \| [^|]*?: (.*) \|$", readme, re.M)
    assert row, f"docs/embedding.md's embed table has no {param}= row"
    return [re.sub(r"[`\s]", "", x.split("(")[0]) for x in re.findall(r"`[^`]+`(?: \([^)]*\))?", row.group(1))]
problems = []
for param, key in (("panels", "panels"), ("lock", "controls")):
    got, want = listed(param), ids[key]
    if sorted(got) != sorted(want):
        problems.append(f"{param}=: docs/embedding.md lists {sorted(set(got) - set(want))} that the app lacks and lacks "
                        f"{sorted(set(want) - set(got))}")
print("\n".join(problems) or f"{len(ids['panels'])} panels and {len(ids['controls'])} lockable controls, as listed")
sys.exit(1 if problems else 0)
PY
  ); then pass "docs/embedding.md's embed table lists every panel and lockable control ($out)"
  else fail "docs/embedding.md's embed table lists every panel and lockable control" "$out"; fi
fi
finish
