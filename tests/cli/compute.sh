# compute.sh — valid runs: the seed example's numbers, null for masked logits, multi-head, variance.
set -u
BIN=$1
DIR=$2
CASES=$DIR/cases
source "$DIR/helpers.bash"

# Seed: scores (2, 0)/√4 → softmax (0.731, 0.269) → output 0.731·[5,0,0] + 0.269·[0,3,0].
if expect_ok "compute seed.json" "$BIN" compute "$CASES/seed.json"; then
  cp "$TMP/out" "$TMP/seed.json"
  json_check "seed output ≈ [3.655, 0.807, 0]" "$TMP/seed.json" '
    const o = j.output;
    if (!Array.isArray(o) || o.length !== 1 || o[0].length !== 3) return "output shape: " + JSON.stringify(o);
    return (near(o[0][0], 3.655, 1e-3) && near(o[0][1], 0.807, 1e-3) && near(o[0][2], 0, 1e-6)) || JSON.stringify(o);'
  json_check "seed intermediates" "$TMP/seed.json" '
    return (j.d_k === 4 && near(j.scores[0][0], 2, 1e-6) && near(j.scores[0][1], 0, 1e-6) &&
            near(j.logits[0][0], 1, 1e-6) && near(j.weights[0][0], 0.7311, 1e-4) &&
            j.entropy.length === 1 && j.max_weight.length === 1 && j.jacobian_norm.length === 1 &&
            Array.isArray(j.fully_masked_rows) && Array.isArray(j.warnings) && j.heads === undefined) ||
           JSON.stringify(j);'
  if [ "$(wc -l <"$TMP/seed.json")" -gt 1 ] && grep -q '^  "' "$TMP/seed.json"; then pass "pretty output, 2-space indent"
  else fail "pretty output, 2-space indent" "$(head -5 "$TMP/seed.json")"; fi
fi

if expect_ok "compute --compact from stdin" sh -c "\"\$0\" compute --compact - <\"\$1\"" "$BIN" "$CASES/seed.json"; then
  if [ "$(wc -l <"$TMP/out")" = 1 ]; then pass "--compact is one line"; else fail "--compact is one line"; fi
  cp "$TMP/out" "$TMP/compact.json"
  json_check "--compact output equals the pretty output" "$TMP/compact.json" "
    const p = JSON.parse(require('fs').readFileSync('$TMP/seed.json', 'utf8'));
    return JSON.stringify(p) === JSON.stringify(j) || 'differs';"
fi

if expect_ok "compute causal.json" "$BIN" compute "$CASES/causal.json"; then
  cp "$TMP/out" "$TMP/causal.json"
  json_check "masked logits print as null" "$TMP/causal.json" '
    const L = j.logits, W = j.weights;
    for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) {
      if (k > i && L[i][k] !== null) return "logits[" + i + "][" + k + "] = " + L[i][k];
      if (k <= i && typeof L[i][k] !== "number") return "logits[" + i + "][" + k + "] = " + L[i][k];
      if (k > i && W[i][k] !== 0) return "weights[" + i + "][" + k + "] = " + W[i][k];
    }
    return near(W[0][0], 1, 1e-6) || JSON.stringify(W);'
  if grep -qiE 'nan|infinity' "$TMP/causal.json"; then fail "no NaN/Infinity in output" "$(cat "$TMP/causal.json")"
  else pass "no NaN/Infinity in output"; fi
fi

if expect_ok "compute multihead.json" "$BIN" compute "$CASES/multihead.json"; then
  cp "$TMP/out" "$TMP/mh.json"
  json_check "multi-head fields" "$TMP/mh.json" '
    return (j.heads.length === 2 && j.heads[0].weights.length === 2 && j.heads[0].output[0].length === 2 &&
            j.concat[0].length === 4 && j.output[0].length === 4 && j.Q[0].length === 4 &&
            "logits" in j.heads[1] && "jacobian_norm" in j.heads[1]) || JSON.stringify(j).slice(0, 300);'
fi

if expect_ok "variance" "$BIN" variance --d-k 4,16,64 --samples 20000 --seed 7 --bins 21; then
  cp "$TMP/out" "$TMP/var.json"
  json_check "variance: var grows with d_k unscaled, ≈1 scaled" "$TMP/var.json" '
    if (j.length !== 3) return "rows: " + j.length;
    for (const r of j) {
      if (r.samples !== 20000) return "samples " + r.samples;
      if (!near(r.var_unscaled / r.d_k, 1, 0.1)) return "var_unscaled " + r.var_unscaled + " at d_k " + r.d_k;
      if (!near(r.var_scaled, 1, 0.1)) return "var_scaled " + r.var_scaled;
      if (r.hist_scaled.counts.length !== 21 || !("lo" in r.hist_unscaled)) return "hist " + JSON.stringify(r.hist_scaled);
    }
    return j.map(r => r.d_k).join() === "4,16,64" || "d_k order";'
  if expect_ok "variance again, same seed" "$BIN" variance --d-k=4,16,64 --samples=20000 --seed=7 --bins=21; then
    if cmp -s "$TMP/out" "$TMP/var.json"; then pass "variance is deterministic for a seed"
    else fail "variance is deterministic for a seed"; fi
  fi
fi

finish
