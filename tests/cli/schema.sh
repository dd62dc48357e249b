# schema.sh — `attnplay schema` prints every state key with its kind and values, and the manifest's "keys" (what the
# Python package and the scripts read, data/manifest.json) is exactly that: a key added to the app's table without
# refreshing the manifest fails here (refresh: build/native/attnplay manifest > data/manifest.json).
set -u
BIN=$1
DIR=$2
source "$DIR/helpers.bash"
MANIFEST="$DIR/../../data/manifest.json"

if expect_ok "schema" "$BIN" schema; then
  if python3 - "$TMP/out" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
kinds = {"echo", "example", "display", "lesson", "learn", "worksheet"}
assert all(v.get("kind") in kinds for v in s.values()), "every key has a kind"
assert s["d_k"]["minimum"] == 1 and s["d_k"]["maximum"] == 1024, s["d_k"]
assert s["theme"]["enum"] == ["dark", "light"], s["theme"]
assert s["learn"]["kind"] == "learn" and s["exercise"]["kind"] == "worksheet" and s["lesson"]["kind"] == "lesson"
assert s["tokens"].get("read_only") and not s["d_k"].get("read_only")
assert "worksheet" in s["panels"]["properties"] and "learn" in s["panels"]["properties"]
PY
  then pass "schema names each key's kind and values"
  else fail "schema names each key's kind and values" "$(head -c 400 "$TMP/out")"; fi
  keys_of_manifest() { python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["keys"], indent=4, sort_keys=True))' "$MANIFEST"; }
  if cmp -s <(python3 -m json.tool --sort-keys "$TMP/out") <(keys_of_manifest); then
    pass "the manifest's keys are the binary's schema"
  else
    fail "the manifest's keys are the binary's schema" \
      "refresh it: build/native/attnplay manifest > data/manifest.json" \
      "$(diff <(python3 -m json.tool --sort-keys "$TMP/out") <(keys_of_manifest) | head -20)"
  fi
fi
expect_error "schema with an argument" 2 "schema takes no arguments" "$BIN" schema --all

finish
