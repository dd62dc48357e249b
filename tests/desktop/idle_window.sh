#!/usr/bin/env bash
# idle_window.sh — a desktop window nobody touches idles (src/platform/desktop.cpp: it skips frames that would show
# the same pixels and waits for input between them), and a click that comes while it idles is answered. A first run
# (no settings or progress) opens on the start view; after the window has sat untouched, its CPU time over 4 s must
# stay under a quarter of a core (it drew 60 frames a second before: about one core under Xvfb's software GL), and
# a click on "Start the first lesson" must start the lesson, which the window records in progress.json.
# usage: idle_window.sh ATTNPLAY OUTDIR
set -euo pipefail
BIN="$1"; OUT="$2"
for tool in Xvfb xvfb-run xdotool; do
  command -v "$tool" > /dev/null || { echo "FAIL $tool is missing (scripts/deps.sh installs it)"; exit 1; }
done
rm -rf "$OUT"; mkdir -p "$OUT"
SIZE=1280x800
# Where the start view draws its first button, from a scripted run of the same first visit.
echo '[{"frames":6}]' > "$OUT/start.json"
XDG_CONFIG_HOME="$OUT/scripted" xvfb-run -a -s "-screen 0 1440x900x24" "$BIN" gui --input "$OUT/start.json" \
  --size "$SIZE" --dump-rects "$OUT/start.rects.json" > "$OUT/scripted.log" 2>&1
read -r X Y < <(python3 -c "import json; r=json.load(open('$OUT/start.rects.json'))['start:lesson']; print(int(r['x']+r['w']/2), int(r['y']+r['h']/2))")

exec 3> "$OUT/display"
Xvfb -displayfd 3 -screen 0 1440x900x24 -nolisten tcp > "$OUT/xvfb.log" 2>&1 &
XVFB=$!
for _ in $(seq 50); do [ -s "$OUT/display" ] && break; sleep 0.1; done
export DISPLAY=":$(head -1 "$OUT/display")"
XDG_CONFIG_HOME="$OUT/config" "$BIN" gui --size "$SIZE" > "$OUT/window.log" 2>&1 &
APP=$!
trap 'kill $APP $XVFB 2>/dev/null || true' EXIT
sleep 4  # the first view is drawn and the window has sat untouched for more than half a second
ticks() { awk '{print $14 + $15}' "/proc/$APP/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks); sleep 4; t1=$(ticks)
cores=$(python3 -c "print(round(($t1 - $t0) / $hz / 4, 3))")
echo "untouched for 4 s: $cores of a core"
failed=0
if python3 -c "import sys; sys.exit(0 if $cores < 0.25 else 1)"; then
  echo "ok   the untouched window idles ($cores < 0.25 of a core)"
else
  echo "FAIL the untouched window does not idle: $cores of a core over 4 s"
  failed=1
fi
# Without a window manager the window sits at the screen's origin, so its coordinates are the screen's.
xdotool mousemove "$X" "$Y"
sleep 0.5
xdotool click 1
for _ in $(seq 30); do
  [ -s "$OUT/config/attnplay/progress.json" ] && break
  sleep 0.1
done
started() {  # a lesson with a step reached in the kept progress
  python3 -c "import json,sys; d=json.load(open('$OUT/config/attnplay/progress.json'))
sys.exit(0 if any(isinstance(v, dict) and v.get('furthest', 0) >= 1 for v in d.values()) else 1)" 2>/dev/null
}
if started; then
  echo "ok   a click on the idle window's \"Start the first lesson\" started it (progress.json: $(head -c 120 "$OUT/config/attnplay/progress.json"))"
else
  echo "FAIL a click on the idle window's \"Start the first lesson\" at $X,$Y was not answered within 3 s"
  failed=1
fi
kill -0 "$APP" || { echo "FAIL the window is gone"; failed=1; }
exit $failed
