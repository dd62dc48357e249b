# helpers.bash — shared checks for the CLI scripts (sourced, so not *.sh and not a test); `finish` prints "N passed, M failed".

PASSED=0
FAILED=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pass() { PASSED=$((PASSED + 1)); echo "PASS: $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL: $1"; shift; for line in "$@"; do echo "      $line"; done; }

# expect_error NAME CODE PHRASE CMD... — exit CODE, empty stdout, stderr exactly one
# newline-terminated line "error: …" containing PHRASE (case-insensitive).
expect_error() {
  local name=$1 want=$2 phrase=$3
  shift 3
  local rc=0
  "$@" >"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
  local err nl nr
  err=$(cat "$TMP/err")
  nl=$(wc -l <"$TMP/err")
  nr=$(awk 'END { print NR }' "$TMP/err")
  if [ "$rc" != "$want" ]; then
    fail "$name" "exit code $rc, expected $want" "stderr: $err"
  elif [ -s "$TMP/out" ]; then
    fail "$name" "stdout not empty: $(head -c 200 "$TMP/out")"
  elif [ "$nl" != 1 ] || [ "$nr" != 1 ]; then
    fail "$name" "stderr should be exactly one line, got: $err"
  elif [ "${err#error: }" = "$err" ]; then
    fail "$name" "stderr does not start with 'error: ': $err"
  elif ! grep -qiF -- "$phrase" "$TMP/err"; then
    fail "$name" "stderr lacks '$phrase': $err"
  else
    pass "$name ($err)"
  fi
}

# expect_ok NAME CMD... — exit 0, stdout in $TMP/out, stderr empty.
expect_ok() {
  local name=$1
  shift
  local rc=0
  "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
  if [ "$rc" != 0 ]; then
    fail "$name" "exit code $rc" "stderr: $(head -c 300 "$TMP/err")"
    return 1
  elif [ -s "$TMP/err" ]; then
    fail "$name" "stderr not empty: $(head -c 300 "$TMP/err")"
    return 1
  fi
  return 0
}

# json_check NAME FILE JS — runs the JS expression body with `j` = the parsed FILE; it must return
# true (or a string explaining the failure). node is used because the web build needs it anyway.
json_check() {
  local name=$1 file=$2 js=$3 msg
  if ! msg=$(node -e '
    const fs = require("fs");
    let j;
    try { j = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch (e) { console.log("not JSON: " + e.message); process.exit(1); }
    const near = (a, b, tol) => typeof a === "number" && Math.abs(a - b) <= tol;
    const r = (function (j, near) { '"$js"' })(j, near);
    if (r !== true) { console.log(r === false ? "check returned false" : String(r)); process.exit(1); }
  ' "$file" 2>&1); then
    fail "$name" "$msg"
  else
    pass "$name"
  fi
}

finish() {
  echo "$PASSED passed, $FAILED failed"
  [ "$FAILED" = 0 ]
}

# stub_site DIR — a stand-in for the built page in DIR (the package command copies whatever the files hold): the
# scripts, CSS, icon, 200 kB of random "wasm", a catalog part in strings/, an index.html with the page's CSP line,
# and the file list the web build writes (scripts/site_manifest.mjs, the real generator).
stub_site() {
  mkdir -p "$1/strings"
  for f in style.css attnplay-api.js attnplay-embed.js attnplay-lms.js attnplay-a11y.js attnplay.js favicon.svg; do echo "/* $f */" >"$1/$f"; done
  echo '{}' >"$1/strings/en.panels.json"
  head -c 200000 /dev/urandom >"$1/attnplay.wasm"
  cat >"$1/index.html" <<'HTML'
<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'; connect-src 'self'"><meta name="attnplay-build" content="__ATTNPLAY_BUILD__"></head><body></body></html>
HTML
  node "$(dirname "${BASH_SOURCE[0]}")/../../scripts/site_manifest.mjs" "$1" >/dev/null
}
