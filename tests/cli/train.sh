# train.sh — `attnplay train`: summary and curves JSON, replay from the settings, progress on stderr, bad options.
set -u
BIN=$1
DIR=$2
source "$DIR/helpers.bash"

# Small enough to take well under a second.
SMALL=(--task copy --seq-len 8 --vocab 8 --d-model 16 --heads 2 --d-k 8 --d-v 8 --batch 8 --lr 0.01)

if expect_ok "train copy, 120 steps, --json" "$BIN" train "${SMALL[@]}" --steps 120 --seed 3 --quiet --json "$TMP/a.json"; then
  cp "$TMP/out" "$TMP/summary.json"
  json_check "summary: two models, A scaled, B not, both learn copy" "$TMP/summary.json" '
    const [a, b] = j.models;
    if (j.steps !== 120 || j.models.length !== 2) return "steps/models: " + JSON.stringify(j).slice(0, 200);
    if (a.label !== "÷√d_k" || b.label !== "no scaling") return "labels " + a.label + " / " + b.label;
    if (j.settings.task !== "copy" || j.settings.vary !== "scale" || j.settings.b !== false) return "settings";
    return (a.final_accuracy > 0.9 && b.final_accuracy > 0.9 && a.steps_to_90 > 0) || JSON.stringify(j.models);'
  json_check "curves file: settings, one value per step for every curve of both models" "$TMP/a.json" '
    if (j.format !== "attnplay-train" || j.steps !== 120 || j.stopped !== false) return "header";
    for (const m of j.models)
      for (const k of ["loss", "accuracy", "sequence_accuracy", "jacobian_norm", "logit_grad_norm", "entropy", "grad_norm"]) {
        const c = m.curves[k];
        if (!Array.isArray(c) || c.length !== 120) return m.name + "." + k + " has " + (c && c.length);
        if (!c.every(Number.isFinite)) return m.name + "." + k + " not finite";
      }
    if (j.models[0].weights !== undefined) return "weights without --weights";
    return j.models[0].init.startsWith("unit init") || j.models[0].init;'
fi

# Same seed and settings: the same bytes. The settings stored in the curves file replay the run.
"$BIN" train "${SMALL[@]}" --steps 120 --seed 3 --quiet --json "$TMP/b.json" >/dev/null 2>&1
if cmp -s "$TMP/a.json" "$TMP/b.json"; then pass "same seed, identical curves file"; else fail "same seed, identical curves file"; fi
node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1])); console.log(JSON.stringify(j.settings))' \
  "$TMP/a.json" >"$TMP/settings.json"
"$BIN" train --settings "$TMP/settings.json" --quiet --json "$TMP/c.json" >/dev/null 2>&1
if cmp -s "$TMP/a.json" "$TMP/c.json"; then pass "--settings from a curves file replays the run bit for bit"
else fail "--settings from a curves file replays the run bit for bit"; fi
"$BIN" train "${SMALL[@]}" --steps 120 --seed 4 --quiet --json "$TMP/d.json" >/dev/null 2>&1
if cmp -s "$TMP/a.json" "$TMP/d.json"; then fail "another seed, other curves"; else pass "another seed, other curves"; fi

# Progress on stderr, the summary alone on stdout.
rc=0
"$BIN" train "${SMALL[@]}" --steps 40 --progress 10 >"$TMP/out" 2>"$TMP/err" || rc=$?
if [ "$rc" = 0 ] && [ "$(grep -c '^step [0-9]*/40 ' "$TMP/err")" = 4 ] && grep -q '^done: 40 steps' "$TMP/err"; then
  pass "progress lines on stderr"
else fail "progress lines on stderr" "rc $rc" "$(cat "$TMP/err")"; fi
json_check "stdout is the summary JSON only" "$TMP/out" 'return j.steps === 40 || JSON.stringify(j).slice(0, 100);'

# One difference of B's choosing; --weights; --stop-at.
if expect_ok "--vary d_k --b 2 --weights" "$BIN" train "${SMALL[@]}" --steps 5 --vary d_k --b 2 --weights --quiet \
  --json "$TMP/w.json"; then
  json_check "B has d_k 2 and every tensor is exported" "$TMP/w.json" '
    const [a, b] = j.models;
    if (a.d_k !== 8 || b.d_k !== 2 || a.scale !== b.scale) return "d_k " + a.d_k + "/" + b.d_k;
    const wq = b.weights["L0.W_q"];
    return (wq.length === 16 && wq[0].length === 2 * 2 && a.weights["L0.W_q"][0].length === 2 * 8 &&
            Array.isArray(a.weights.embed) && Array.isArray(a.weights.unembed)) || Object.keys(b.weights).join(",");'
fi
if expect_ok "--stop-at 0.9" "$BIN" train "${SMALL[@]}" --steps 2000 --stop-at 0.9 --quiet; then
  cp "$TMP/out" "$TMP/stop.json"
  json_check "stops once both models reach 0.9" "$TMP/stop.json" '
    const [a, b] = j.models;
    return (j.steps < 2000 && a.steps_to_90 <= j.steps && b.steps_to_90 <= j.steps &&
            Math.max(a.steps_to_90, b.steps_to_90) === j.steps) || JSON.stringify(j.models) + " steps " + j.steps;'
fi
if expect_ok "--scale off: both models alike" "$BIN" train "${SMALL[@]}" --steps 10 --scale off --quiet --json "$TMP/off.json"; then
  json_check "identical curves when nothing differs" "$TMP/off.json" '
    const [a, b] = j.models;
    return (!a.scale && !b.scale && JSON.stringify(a.curves) === JSON.stringify(b.curves)) || "curves differ";'
fi

# A run whose loss overflows stops with a message (exit 1) and still writes what it has.
expect_error "diverging run stops" 1 "training stopped at step" "$BIN" train "${SMALL[@]}" --optimizer sgd --lr 10 \
  --clip 0 --scale off --temperature 0.01 --norm none --steps 500 --quiet --json "$TMP/nan.json"
json_check "stopped run's file says so, finite curves only" "$TMP/nan.json" '
  return (j.stopped === true && j.message.includes("stopped") && j.models.every(m => m.curves.loss.every(Number.isFinite))) ||
         JSON.stringify({stopped: j.stopped, message: j.message});'

# Bad options: exit 2 with one "error:" line, nothing trained, nothing on stdout.
expect_error "d_k 0" 2 "d_k must be between 1 and 256" "$BIN" train --d-k 0
expect_error "heads × d_k too large" 2 "heads × d_k = 4096" "$BIN" train --heads 16 --d-k 256
expect_error "batch 0" 2 "batch must be between 1" "$BIN" train --batch 0
expect_error "lr nan" 2 "--lr expects a finite number" "$BIN" train --lr nan
expect_error "lr negative" 2 "learning rate must be" "$BIN" train --lr -0.1
expect_error "unknown task" 2 "task must be one of" "$BIN" train --task translate
expect_error "copy without the causal mask" 2 "needs the causal mask" "$BIN" train --task copy --mask none
expect_error "unknown option" 2 "unknown option for train: --dk" "$BIN" train --dk 4
expect_error "missing value" 2 "--steps needs a value" "$BIN" train --steps
expect_error "--vary without --b" 2 "needs \"b\"" "$BIN" train --vary heads
expect_error "--b of the wrong kind" 2 "--b expects an integer" "$BIN" train --vary d_k --b many
expect_error "--scale nonsense" 2 "--scale must be both, on or off" "$BIN" train --scale maybe
expect_error "--stop-at out of range" 2 "--stop-at must be" "$BIN" train --stop-at 2
expect_error "settings file missing" 1 "cannot open" "$BIN" train --settings "$TMP/none.json"
printf '{"d_k": 999}' >"$TMP/bad_settings.json"
expect_error "settings file out of range" 1 "d_k must be between" "$BIN" train --settings "$TMP/bad_settings.json"
expect_error "curves file unwritable" 1 "cannot write" "$BIN" train --steps 1 --json "$TMP/no/such/dir/c.json"

if expect_ok "train --help" "$BIN" train --help; then
  if grep -q -- "--stop-at" "$TMP/out" && grep -q -- "--vary" "$TMP/out"; then pass "train --help lists its options"
  else fail "train --help lists its options" "$(cat "$TMP/out")"; fi
fi
if expect_ok "--help mentions train" "$BIN" --help; then
  if grep -q "train \[--task" "$TMP/out"; then pass "--help lists train"; else fail "--help lists train"; fi
fi

finish
