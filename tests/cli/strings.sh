# strings.sh — `attnplay strings check` tells a translator what their catalog lacks or breaks before a learner sees it,
# and `attnplay strings pseudo` makes the pseudo-locale the layout checks use.
set -u
BIN=$1
DIR=$2
source "$DIR/helpers.bash"
ROOT="$DIR/../.."

# The shipped translation passes (run from the repository, where data/strings/TAG.json is).
if (cd "$ROOT" && "$BIN" strings check hi-Latn >"$TMP/out" 2>"$TMP/err"); then
  if grep -q "errors, 0 missing" "$TMP/out"; then pass "hi-Latn: every key, no errors ($(tail -1 "$TMP/out"))"
  else fail "hi-Latn: every key, no errors" "$(tail -3 "$TMP/out")"; fi
else fail "strings check hi-Latn exits 0" "$(cat "$TMP/out" "$TMP/err" | tail -5)"; fi

# A draft with each kind of mistake: each is named with its key, and the command fails.
python3 - "$ROOT/data/strings/hi-Latn.json" "$TMP/draft.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1], encoding="utf-8"))
key_with_placeholder = next(k for k, v in c.items() if "{" in v and not k.startswith("_"))
c[key_with_placeholder] = "no placeholder left"
c["a11y.answer"] = "आपका जवाब"            # Devanagari: the canvas's font has no such glyphs
c["panel.no_such_panel"] = "extra"
del c["a11y.canvas"]
json.dump(c, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
PY
if "$BIN" strings check "$TMP/draft.json" >"$TMP/out" 2>"$TMP/err"; then fail "a broken draft fails" "it exited 0"
else
  problems=""
  grep -q "^error: a11y.answer: the canvas's font cannot draw U+0906 .*U+0915" "$TMP/out" || problems+=" undrawable"
  grep -q "^error: panel.no_such_panel: not a key of the English catalog" "$TMP/out" || problems+=" extra"
  grep -q "^warning: a11y.canvas: missing: English is shown" "$TMP/out" || problems+=" missing"
  grep -q "^error: .*: placeholders none where English has {" "$TMP/out" || problems+=" placeholders"
  grep -q "3 errors, 1 missing" "$TMP/out" || problems+=" counts"
  if [ -z "$problems" ]; then pass "a draft's undrawable characters, extra key, missing key and lost placeholder are named"
  else fail "a draft's mistakes are named" "not found:$problems" "$(cat "$TMP/out")"; fi
fi

# The pseudo-locale: every English key, each text bracketed, accented and longer, placeholders intact; it checks clean.
if expect_ok "strings pseudo" "$BIN" strings pseudo; then
  cp "$TMP/out" "$TMP/pseudo.json"
  if python3 - "$TMP/pseudo.json" "$ROOT/data/strings/en.json" <<'PY'
import json, re, sys
p = json.load(open(sys.argv[1], encoding="utf-8"))
en = json.load(open(sys.argv[2], encoding="utf-8"))
assert len(p) > 1000, len(p)
t = p["a11y.cell"]
assert t.startswith("[") and t.endswith("]") and "{row}" in t and "{col}" in t, t
assert "ö" in p["a11y.answer"], p["a11y.answer"]
plain = lambda s: len(re.sub(r"\{[^}]*\}", "", s))  # placeholders are filled, not translated
short = [k for k, v in p.items() if plain(en[k]) >= 10 and plain(v) < 1.35 * plain(en[k])]
assert not short, f"not 40 % longer: {short[:5]}"
PY
  then pass "pseudo: bracketed, accented, longer, placeholders kept"
  else fail "pseudo: bracketed, accented, longer, placeholders kept" "$(head -c 300 "$TMP/pseudo.json")"; fi
  if "$BIN" strings check "$TMP/pseudo.json" >"$TMP/out" 2>&1; then pass "the pseudo-locale checks clean"
  else fail "the pseudo-locale checks clean" "$(tail -3 "$TMP/out")"; fi
fi
expect_error "strings with no subcommand" 2 "usage: attnplay strings" "$BIN" strings
expect_error "strings check of a missing catalog" 1 "cannot read it" "$BIN" strings check /nonexistent/xx.json

finish
