#!/usr/bin/env bash
# fragments.sh — three encoders write the page's share fragment: the core's (`attnplay share`), the Python
# package's (share_fragment) and the web component's (AttentionPlayground.fragmentOf). For every key of the
# state schema, a state setting it is encoded by all three and opened by the core's decoder: the three
# must open the same state, and one that carries the key's value (a key an encoder drops fails here). The state for
# each key is the schema's "sample" of it.
set -u
BIN=$1
DIR=$2
source "$DIR/helpers.bash"
ROOT="$(cd "$DIR/../.." && pwd)"

expect_error "share with no state" 2 "share takes a state file" "$BIN" share
expect_error "share --open of a garbled fragment" 1 "" "$BIN" share --open 's=1.<img src=x>'

"$BIN" schema >"$TMP/schema.json"
if /usr/bin/python3 - "$BIN" "$ROOT" "$TMP" <<'PY'; then pass "every schema key: the three encoders open the same state"; else fail "every schema key: the three encoders open the same state"; fi
import json, subprocess, sys
bin_, root, tmp = sys.argv[1:4]
sys.path.insert(0, root + "/python")
from attnplay._page import share_fragment as python_fragment

schema = json.load(open(tmp + "/schema.json"))
# One state per key that sets it away from its default (with what it needs beside it): the key's row gives it.
samples = {k: v["sample"] for k, v in schema.items() if "sample" in v}
missing = [k for k, v in schema.items() if not v.get("read_only") and k not in samples]
assert not missing, f"no sample state for schema keys {missing}: add .sample(…) to their rows (src/app/state/state_json.cpp)"

js = r"""
const fs = require('fs'), vm = require('vm');
let cls = null;
const ctx = {TextEncoder, btoa, console, document: {currentScript: null}, location: {href: 'http://127.0.0.1/'},
             HTMLElement: class {}, customElements: {get: () => undefined, define: (n, c) => { cls = c; }}};
ctx.window = ctx;
vm.runInNewContext(fs.readFileSync(process.argv[1], 'utf8'), ctx);
const states = JSON.parse(fs.readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(states.map((s) => cls.fragmentOf(s))));
"""
web = subprocess.run(["node", "-e", js, root + "/web/site/attention-playground.js"], input=json.dumps(list(samples.values())),
                     capture_output=True, text=True, check=True)
js_fragments = json.loads(web.stdout)

def opened(fragment):
    r = subprocess.run([bin_, "share", "--open", fragment], capture_output=True, text=True)
    assert r.returncode == 0, f"{fragment[:60]}: {r.stderr}"
    return json.loads(r.stdout)

defaults = opened(subprocess.run([bin_, "share", "-"], input="{}", capture_output=True, text=True, check=True).stdout.strip())
bad = []
for (key, state), js_fragment in zip(samples.items(), js_fragments):
    text = json.dumps(state)
    core = subprocess.run([bin_, "share", "-"], input=text, capture_output=True, text=True)
    if core.returncode != 0:
        bad.append(f"{key}: attnplay share refused {text}: {core.stderr.strip()}")
        continue
    want = opened(core.stdout.strip())
    if want.get(key) == defaults.get(key) and key != "scenario":
        bad.append(f"{key}: the core's own fragment does not carry {text}")
    for name, fragment in (("python", python_fragment(text)), ("web component", js_fragment)):
        got = opened(fragment)
        if got != want:
            diff = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
            bad.append(f"{key}: the {name} fragment opens another state (differs in {diff})")
for line in bad:
    print("   ", line)
print(f"    {len(samples)} keys, {len(bad)} disagreements")
sys.exit(1 if bad else 0)
PY

finish
