# study.sh — scripts/study.mjs on a small slice of the scaling study: the same grid gives the same runs, an
# interrupted study resumes without redoing finished runs, and the tables hold every configuration.
set -u
BIN=$1
DIR=$2
source "$DIR/helpers.bash"
ROOT=$(cd "$DIR/../.." && pwd)
GRID="$DIR/study-slice.json"
study() { node "$ROOT/scripts/study.mjs" --grid "$GRID" --bin "$BIN" --jobs 2 --nice 0 --out "$@"; }

# Only what a run learned: the timing differs from run to run.
learned() { node -e '
  const fs = require("fs");
  const rows = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse)
    .map(({ cpu_s, wall_s, ...r }) => JSON.stringify(r)).sort();
  console.log(rows.join("\n"));' "$1"; }

if study "$TMP/a" >"$TMP/a.md" 2>"$TMP/a.err" && study "$TMP/b" >"$TMP/b.md" 2>"$TMP/b.err"; then
  if [ "$(wc -l <"$TMP/a/runs.jsonl")" = 8 ] && [ "$(learned "$TMP/a/runs.jsonl")" = "$(learned "$TMP/b/runs.jsonl")" ]; then
    pass "the grid's 8 runs, twice from scratch: the same steps, losses and curves"
  else
    fail "the same grid twice" "$(diff <(learned "$TMP/a/runs.jsonl") <(learned "$TMP/b/runs.jsonl") | head -5)"
  fi
else
  fail "study ran" "$(tail -3 "$TMP/a.err" "$TMP/b.err" 2>/dev/null)"
fi

# An interruption: the last two runs are lost and the line before is cut in half.
head -n 5 "$TMP/a/runs.jsonl" >"$TMP/cut.jsonl"
sed -n 6p "$TMP/a/runs.jsonl" | head -c 40 >>"$TMP/cut.jsonl"
mkdir -p "$TMP/c" && cp "$TMP/cut.jsonl" "$TMP/c/runs.jsonl"
if study "$TMP/c" >"$TMP/c.md" 2>"$TMP/c.err" && grep -q "5 already done, 3 to run" "$TMP/c.err" &&
   [ "$(wc -l <"$TMP/c/runs.jsonl")" = 8 ] && [ "$(learned "$TMP/c/runs.jsonl")" = "$(learned "$TMP/a/runs.jsonl")" ]; then
  pass "an interrupted study resumes: 5 runs kept, the cut one and the 2 missing ones run again, the same results"
else
  fail "resume" "$(head -2 "$TMP/c.err")"
fi

# The tables: one summary row per task × d_k × init × optimiser, every learning rate of each model in cells.csv.
rows=$(grep -c '^| copy |' "$TMP/a/table.md")
cells=$(tail -n +2 "$TMP/a/cells.csv" | wc -l)
if [ "$rows" = 2 ] && [ "$cells" = 8 ] && cmp -s "$TMP/a/table.md" "$TMP/a.md" &&
   grep -q 'per-seed B÷A' "$TMP/a/table.md" && head -1 "$TMP/a/cells.csv" | grep -q '^task,d_k,init,optimizer,lr,model'; then
  pass "table.md: 2 summary rows with spread and per-seed ratios; cells.csv: 8 configurations"
else
  fail "tables" "rows $rows, cells $cells" "$(head -20 "$TMP/a/table.md")"
fi
# Censored runs are never shown as numbers of steps: a model that did not reach 90 % reads ">60".
if awk -F, 'NR > 1 && $8 < $7 && $9 !~ /^>|^[0-9]+$/ { bad = 1 } END { exit bad }' "$TMP/a/cells.csv" &&
   grep -q '>60' "$TMP/a/cells.csv"; then
  pass "censored runs read >60, not a step count"
else
  fail "censoring" "$(cat "$TMP/a/cells.csv")"
fi
finish
