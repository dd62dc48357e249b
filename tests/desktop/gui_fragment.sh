#!/usr/bin/env bash
# gui_fragment.sh — the desktop app opens a share link's fragment (`attnplay gui '#s=1.…'`); a garbled one
# opens the defaults with a warning instead of failing. usage: gui_fragment.sh ATTNPLAY CORPUS_DIR
set -euo pipefail
BIN="$1"
CORPUS="$2"
good="$(cat "$CORPUS/link-saturation")"
out="$(xvfb-run -a -s "-screen 0 1024x768x24" "$BIN" gui "$good" --frames 3 2>&1)"
if [ -n "$out" ]; then echo "FAIL: a valid fragment printed: $out"; exit 1; fi
out="$(xvfb-run -a -s "-screen 0 1024x768x24" "$BIN" gui "http://127.0.0.1:8080/index.html$good" --frames 3 2>&1)"
if [ -n "$out" ]; then echo "FAIL: a valid link printed: $out"; exit 1; fi
out="$(xvfb-run -a -s "-screen 0 1024x768x24" "$BIN" gui '#s=1.<img src=x>' --frames 3 2>&1)" || { echo "FAIL: exit status $?"; exit 1; }
case "$out" in
  *"Could not open the shared link"*"Showing the defaults"*) ;;
  *) echo "FAIL: no warning for a garbled fragment: $out"; exit 1 ;;
esac
echo "ok: fragments open on the desktop"
