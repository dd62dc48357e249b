# manifest.sh — `attnplay manifest` describes the app (panels, controls, state keys, lessons, limits, page events) in one
# JSON, and the committed copy every other language reads (data/manifest.json) is exactly that: a panel, key, lesson,
# limit or event changed in C++ without refreshing the copy fails here.
set -u
BIN=$1
DIR=$2
source "$DIR/helpers.bash"
COMMITTED="$DIR/../../data/manifest.json"
REFRESH="refresh it: build/native/attnplay manifest > data/manifest.json"

if expect_ok "manifest" "$BIN" manifest; then
  if out=$(python3 - "$TMP/out" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["format"] == 1, m["format"]
ids = [p["id"] for p in m["panels"]]
assert ids[:3] == ["controls", "embeddings", "heatmap"] and "builder" in ids, ids
masks = next(p for p in m["panels"] if p["id"] == "masks")
assert masks == {"id": "masks", "open": False, "lock": "mask", "shows": ["masks", "weights"]}, masks
assert "d_k" in m["controls"]["lockable"] and any(f["prefix"] == "lesson:choice:" for f in m["controls"]["families"])
assert m["keys"]["d_k"]["maximum"] == 1024, m["keys"]["d_k"]
assert m["lessons"][0]["id"] == "why-attention" and m["lessons"][0]["title"].startswith("lesson."), m["lessons"][0]
assert m["limits"]["share_fragment_bytes"] == 256 << 10 and m["limits"]["json_depth"] == 16, m["limits"]
events = {e["name"]: e for e in m["events"]}
assert events["lesson-complete"]["source"] == "app" and events["lesson-complete"]["subscribable"], events
assert not events["ready"]["subscribable"] and events["change"]["source"] == "embed", events
print(f"{len(ids)} panels, {len(m['keys'])} keys, {len(m['lessons'])} lessons, {len(m['events'])} events")
PY
  ); then pass "the manifest holds each part ($out)"
  else fail "the manifest holds each part" "$out"; fi
  if cmp -s "$TMP/out" "$COMMITTED"; then
    pass "data/manifest.json is the binary's manifest"
  else
    fail "data/manifest.json is the binary's manifest" "$REFRESH" "$(diff "$COMMITTED" "$TMP/out" | head -20)"
  fi
  cp "$TMP/out" "$TMP/first"
  if expect_ok "manifest again" "$BIN" manifest && cmp -s "$TMP/out" "$TMP/first"; then
    pass "two runs print the same bytes"
  else
    fail "two runs print the same bytes"
  fi
fi
expect_error "manifest with an argument" 2 "manifest takes no arguments" "$BIN" manifest --all

finish
