# lesson.sh — `attnplay lesson check FILE`: every built-in lesson and the example in docs/lessons.md pass with
# "ok: N steps, M predictions"; each kind of malformed lesson a teacher may write is refused (exit 1) with
# one message naming the step and the field. Malformed files are the example with one thing broken.
set -u
BIN=$1
DIR=$2
source "$DIR/helpers.bash"
ROOT="$DIR/../.."
EXAMPLE="$ROOT/data/examples/my-lesson.json"

for f in "$ROOT"/data/lessons/*.json; do
  if expect_ok "built-in $(basename "$f") passes" "$BIN" lesson check "$f"; then
    if grep -qE '^ok: [0-9]+ steps?, [0-9]+ predictions?$' "$TMP/out"; then pass "built-in $(basename "$f") says $(cat "$TMP/out")"
    else fail "built-in $(basename "$f") says ok" "$(cat "$TMP/out")"; fi
  fi
done
if expect_ok "the example lesson passes" "$BIN" lesson check "$EXAMPLE"; then
  if grep -qx 'ok: 3 steps, 1 prediction' "$TMP/out"; then pass "the example counts 3 steps, 1 prediction"
  else fail "the example counts 3 steps, 1 prediction" "$(cat "$TMP/out")"; fi
fi

# The "For teachers" example in docs/lessons.md is a lesson that passes, too.
python3 - "$ROOT/docs/lessons.md" "$TMP/readme-lesson.json" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
section = text[text.index("**For teachers: your own lesson.**"):]
open(sys.argv[2], "w", encoding="utf-8").write(re.search(r"```json\n(.*?)```", section, re.S).group(1))
PY
if expect_ok "docs/lessons.md's example lesson passes" "$BIN" lesson check "$TMP/readme-lesson.json"; then
  if grep -qx 'ok: 3 steps, 1 prediction' "$TMP/out"; then pass "docs/lessons.md's example counts 3 steps, 1 prediction"
  else fail "docs/lessons.md's example counts 3 steps, 1 prediction" "$(cat "$TMP/out")"; fi
fi

# broken NAME PYTHON — the example with PYTHON applied to `d` (the parsed lesson; `s` = its steps), in $TMP/NAME.json.
broken() {
  python3 - "$EXAMPLE" "$TMP/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["steps"]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"), ensure_ascii=False)
PY
}
# refused NAME PHRASE PYTHON — that file is refused with exit 1 and one line containing PHRASE.
refused() {
  broken "$1" "$3"
  expect_error "$1" 1 "$2" "$BIN" lesson check "$TMP/$1.json"
}

refused unknown-state-key 'step 1 ("look"): state: unknown' 's[0]["state"]["d_kk"] = 3'
refused unknown-panel 'step 1 ("look"): panels: unknown panel id "heatmapp"' 's[0]["panels"] = ["heatmapp"]'
refused unknown-control 'step 1 ("look"): lock: unknown control id "dk"' 's[0]["lock"] = ["dk"]'
refused unknown-highlight 'step 1 ("look"): highlight: unknown' 's[0]["highlight"] = "nope"'
refused no-answer 'step 2 ("predict"): task.answer is missing' 'del s[1]["task"]["answer"]'
refused answer-out-of-range 'step 2 ("predict"): task.answer 5 is out of range' 's[1]["task"]["answer"] = 5'
refused number-no-tolerance 'step 2 ("predict"): task.tolerance is missing' \
  't = s[1]["task"]; del t["choices"], t["answer"], t["feedback"]; t["number"] = 0.5'
refused no-choices-no-number 'step 2 ("predict"): task.answer is missing' \
  't = s[1]["task"]; del t["choices"], t["answer"], t["feedback"]'
refused text-too-long 'step 3 ("wrap-up"): text.en is 2001 bytes' 's[2]["text"]["en"] = "x" * 2001'
refused too-many-steps 'steps: 65 steps; a lesson has at most 64' 'd["steps"] = s + [s[2]] * 62'
refused wrong-type-text 'step 3 ("wrap-up"): text must be a catalog key or a text' 's[2]["text"] = 3'
refused wrong-type-panels 'step 1 ("look"): panels must be an array of strings' 's[0]["panels"] = "heatmap"'
refused wrong-type-answer 'step 2 ("predict"): task.answer must be the index' 's[1]["task"]["answer"] = "Up"'
refused unknown-language 'step 3 ("wrap-up"): text: unknown language "fr"' 's[2]["text"]["fr"] = "Bonjour"'
refused missing-catalog-key 'step 3 ("wrap-up"): text "lesson.nope" is not a catalog key' 's[2]["text"] = "lesson.nope"'
refused unknown-live-value 'step 3 ("wrap-up"): text quotes an unknown live value {wieght}' \
  's[2]["text"]["en"] = "The weight is {wieght}."'
refused feedback-missing 'step 2 ("predict"): task.feedback[1] is missing' 's[1]["task"]["feedback"] = ["", ""]'
refused bad-id 'id "My Lesson" may hold only' 'd["id"] = "My Lesson"'
refused no-steps 'steps must be a non-empty array' 'd["steps"] = []'
refused builtin-key-inline-empty 'step 1 ("look"): text has no text' 's[0]["text"] = {"en": ""}'

printf '{\n  "id": "x",\n  "title": "t"\n  "steps": []\n}\n' >"$TMP/syntax.json"
expect_error "JSON syntax error names line and column" 1 "JSON syntax error at line 4, column 3" \
  "$BIN" lesson check "$TMP/syntax.json"
expect_error "a missing file" 1 "cannot open" "$BIN" lesson check "$TMP/nope.json"
expect_error "lesson without check" 2 "usage: attnplay lesson check" "$BIN" lesson "$EXAMPLE"

# The verifier: a claim that holds of the file's own state but not in every state a learner reaches (after the reveal,
# at any d_k the unlocked slider gives) is refused by `lesson check`, naming lesson, step, state and the numbers.
refused false-claim 'my-first-lesson step 2 ("predict") [en], after ' \
  's[1]["task"]["claims"] = [{"value": "max_weight", "op": ">", "than": 0.999}]'
if grep -q 'claims max_weight > 0.999, which the numbers it quotes do not show: max_weight 0.' "$TMP/err"; then
  pass "the verifier's refusal quotes the claim and the numbers"
else fail "the verifier's refusal quotes the claim and the numbers" "$(cat "$TMP/err")"; fi

# `lesson verify ID|FILE` prints its walk per language, and each failure.
if expect_ok "lesson verify why-sqrt-dk passes" "$BIN" lesson verify why-sqrt-dk; then
  if [ "$(grep -cE '^why-sqrt-dk \[(en|hi-Latn)\]: [0-9]+ states, [0-9]+ texts, [0-9]+ claims checked, 0 failures$' "$TMP/out")" = 2 ]
  then pass "lesson verify prints states, texts and claims for both languages"
  else fail "lesson verify prints states, texts and claims for both languages" "$(cat "$TMP/out")"; fi
fi
rc=0; "$BIN" lesson verify "$TMP/false-claim.json" >"$TMP/out" 2>&1 || rc=$?
if [ "$rc" = 1 ] && grep -q '^fail: my-first-lesson step 2 ("predict") \[hi-Latn\], after ' "$TMP/out" &&
   grep -qE '^my-first-lesson \[en\]: [0-9]+ states, .*, [1-9][0-9]* failures$' "$TMP/out"; then
  pass "lesson verify names each failure, in both languages, and exits 1"
else fail "lesson verify names each failure, in both languages, and exits 1" "exit $rc: $(head -c 600 "$TMP/out")"; fi

# One language missing: accepted, with a warning naming the field.
broken one-language 's[2]["text"] = {"en": "Only English here."}'
if expect_ok "a text in one language passes" "$BIN" lesson check "$TMP/one-language.json"; then
  if grep -q 'warning: step3.text: no "hi-Latn" text' "$TMP/out" && grep -qx 'ok: 3 steps, 1 prediction' "$TMP/out"; then
    pass "a text in one language is warned about"
  else fail "a text in one language is warned about" "$(cat "$TMP/out")"; fi
fi

finish
