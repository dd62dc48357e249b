# usage.sh — help, version and command-line mistakes (exit 2 with one "error: …" line).
set -u
BIN=$1
DIR=$2
source "$DIR/helpers.bash"

if expect_ok "--help" "$BIN" --help; then
  if grep -q "compute" "$TMP/out" && grep -q "variance" "$TMP/out"; then pass "--help lists the commands"
  else fail "--help lists the commands" "$(cat "$TMP/out")"; fi
fi
if expect_ok "--version" "$BIN" --version; then
  if grep -Eq '^attnplay [0-9]+\.[0-9]+\.[0-9]+$' "$TMP/out"; then pass "--version prints 'attnplay X.Y.Z'"
  else fail "--version prints 'attnplay X.Y.Z'" "$(cat "$TMP/out")"; fi
fi

expect_error "no command" 2 "missing command" "$BIN"
expect_error "unknown command" 2 "unknown command: frobnicate" "$BIN" frobnicate
expect_error "unknown top-level flag" 2 "unknown option: --frob" "$BIN" --frob
expect_error "compute without a file" 2 "needs a scenario file" "$BIN" compute
expect_error "compute with an unknown flag" 2 "unknown option for compute: --fast" "$BIN" compute --fast "$DIR/cases/seed.json"
expect_error "compute with two files" 2 "second" "$BIN" compute "$DIR/cases/seed.json" "$DIR/cases/seed.json"
expect_error "variance without --d-k" 2 "needs --d-k" "$BIN" variance
expect_error "variance --d-k not a number" 2 "--d-k expects an integer" "$BIN" variance --d-k 4,x
expect_error "variance --d-k zero" 2 "--d-k must be between 1 and 4096" "$BIN" variance --d-k 0
expect_error "variance --d-k too large" 2 "--d-k must be between 1 and 4096" "$BIN" variance --d-k 99999999999999999999999
expect_error "variance --d-k empty item" 2 "--d-k needs a number" "$BIN" variance --d-k 4,,16
expect_error "variance --samples negative" 2 "--samples must be between" "$BIN" variance --d-k 4 --samples -5
expect_error "variance --bins missing value" 2 "--bins needs a value" "$BIN" variance --d-k 4 --bins
expect_error "variance --seed not a number" 2 "--seed expects" "$BIN" variance --d-k 4 --seed abc
expect_error "variance unknown flag" 2 "unknown option for variance: --dk" "$BIN" variance --dk 4

finish
