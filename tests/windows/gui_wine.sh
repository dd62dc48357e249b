#!/usr/bin/env bash
# gui_wine.sh — the Windows build's window under Wine, on an X server the caller provides (xvfb-run) with Mesa's
# software GL: (1) a preset drawn for 4 frames, screenshot and item rectangles written, the picture checked
# (not blank, heatmap cells are viridis colours ordered like the weights); (2) an input script (pointer drag on
# the temperature slider, a key, frames) played through ImGui's queue, its last frame's heatmap must differ from
# (1)'s; (3) the window settings the runs saved: where they are (%APPDATA%\attnplay expected).
# usage: gui_wine.sh ATTNPLAY.EXE OUTDIR     prints "gui: N passed, M failed"; exit 1 on any failure
set -u
EXE="$1"; OUT="$2"
HERE="$(cd "$(dirname "$0")" && pwd)"
WINE="$HERE/wine.sh"
export WINEPREFIX="${WINEPREFIX:-$HERE/../../build/windows/wine}"
mkdir -p "$OUT"
PASSED=0; FAILED=0
pass() { PASSED=$((PASSED + 1)); echo "PASS: $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL: $1"; shift; for l in "$@"; do echo "      $l"; done; }
wineserver -k 2>/dev/null  # a server left from another X display would keep its desktop there
APPDATA_DIR="$WINEPREFIX/drive_c/users/$(id -un)/AppData/Roaming"
rm -rf "$APPDATA_DIR/attnplay" "$WINEPREFIX/drive_c/users/$(id -un)/Temp/attnplay"

echo '{"preset": "self-attn-example-1"}' >"$OUT/state.json"
rm -f "$OUT/desktop.png" "$OUT/rects.json"
t=$(date +%s.%N)
if timeout 180 "$WINE" "$EXE" gui "$OUT/state.json" --size 1280x800 --frames 4 --screenshot "$OUT/desktop.png" \
     --dump-rects "$OUT/rects.json" >"$OUT/gui.log" 2>&1; then
  pass "window opened, 4 frames drawn, screenshot written ($(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s)"
else
  fail "window opened, 4 frames drawn, screenshot written" "exit $?: $(tr -d '\r' <"$OUT/gui.log" | tail -5)"
fi
# Self-attention example 1: row 2 ("mat") weights are [0.248, 0.248, 0.503], so cell (2,2) > cell (2,0).
if [ -f "$OUT/desktop.png" ] && python3 "$HERE/check_screenshot.py" "$OUT/desktop.png" "$OUT/rects.json" 2 0,2 3 3 \
     >"$OUT/check.log" 2>&1; then
  pass "screenshot: not blank, heatmap in viridis ordered like the weights"
else
  fail "screenshot: not blank, heatmap in viridis ordered like the weights" "$(tail -4 "$OUT/check.log" 2>/dev/null)"
fi
sed 's/^/      /' "$OUT/check.log" 2>/dev/null | grep -E "screenshot|row" || true

cat >"$OUT/input.json" <<'JSON'
[{"frames": 3},
 {"item": "temperature", "dx": 0.5}, {"down": true}, {"frames": 1},
 {"item": "temperature", "dx": 0.75}, {"frames": 1},
 {"item": "temperature", "dx": 0.99}, {"frames": 1}, {"up": true},
 {"key": "Tab"}, {"frames": 3}]
JSON
rm -f "$OUT/input.png" "$OUT/input-rects.json"
if timeout 180 "$WINE" "$EXE" gui "$OUT/state.json" --size 1280x800 --input "$OUT/input.json" \
     --screenshot "$OUT/input.png" --dump-rects "$OUT/input-rects.json" >"$OUT/input.log" 2>&1 &&
   grep -q "input script: 11 steps" "$OUT/input.log"; then
  pass "input script played ($(tr -d '\r' <"$OUT/input.log" | grep 'input script'))"
else
  fail "input script played" "$(tr -d '\r' <"$OUT/input.log" | tail -5)"
fi
if [ -f "$OUT/input.png" ] && python3 "$HERE/compare_heatmaps.py" "$OUT/desktop.png" "$OUT/rects.json" \
     "$OUT/input.png" "$OUT/input-rects.json" 3 3 >"$OUT/input-check.log" 2>&1; then
  pass "the drag changed the heatmap ($(tail -1 "$OUT/input-check.log"))"
else
  fail "the drag changed the heatmap" "$(tail -3 "$OUT/input-check.log" 2>/dev/null)"
fi

# Settings: ImGui's window settings (imgui.ini) are written when the window closes.
wineserver -w
found="$(cd "$WINEPREFIX/drive_c" && find . -path '*attnplay/imgui.ini' 2>/dev/null | head -1)"
if [ -f "$APPDATA_DIR/attnplay/imgui.ini" ]; then
  pass "settings saved under %APPDATA%\\attnplay (imgui.ini, $(wc -c <"$APPDATA_DIR/attnplay/imgui.ini") bytes)"
elif [ -n "$found" ]; then
  fail "settings saved under %APPDATA%\\attnplay" "they were saved in C:${found#.} instead (desktop.cpp: XDG_CONFIG_HOME, else HOME, else the temp folder)"
else
  fail "settings saved under %APPDATA%\\attnplay" "no attnplay/imgui.ini anywhere on drive C:"
fi
wineserver -k 2>/dev/null
echo "gui: $PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
