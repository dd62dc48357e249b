#!/usr/bin/env bash
# attnplay-wine.sh — `attnplay` for the CLI test scripts (tests/cli/*.sh take the program as $1): the Windows
# build's attnplay.exe under Wine. The C runtime writes text-mode stdout and stderr with CR LF; the CRs are dropped
# here so the scripts compare lines as they do natively (ATTNPLAY_WINE_RAW=1 keeps them). Stderr is passed on after
# the program ends. The exit status is the program's.
HERE="$(cd "$(dirname "$0")" && pwd)"
EXE="${ATTNPLAY_EXE:-$HERE/../../build/windows/attnplay.exe}"
if [ -n "${ATTNPLAY_WINE_RAW:-}" ]; then exec "$HERE/wine.sh" "$EXE" "$@"; fi
err="$(mktemp)"
"$HERE/wine.sh" "$EXE" "$@" 2>"$err" | tr -d '\r'
rc=${PIPESTATUS[0]}
tr -d '\r' <"$err" >&2
rm -f "$err"
exit "$rc"
