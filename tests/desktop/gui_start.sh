#!/usr/bin/env bash
# gui_start.sh — a first run of the desktop app (no settings or progress in its config folder) opens with the start
# view alone; "Start the first lesson" opens the first lesson with its text in the window's left column, "Explore
# freely" the usual panels, and the next run (progress kept) goes straight to the work. At 1440×900 and 390×844;
# the screenshots stay in OUTDIR (start-*.png, lesson-*.png, explore-*.png).
# usage: gui_start.sh ATTNPLAY OUTDIR
set -euo pipefail
BIN="$1"; OUT="$2"
mkdir -p "$OUT"
failed=0
# run NAME SIZE SCRIPT: the window under Xvfb, its screenshot and where each tracked item was drawn.
run() {
  echo "$3" > "$OUT/$1.json"
  XDG_CONFIG_HOME="$config" xvfb-run -a -s "-screen 0 1440x900x24" "$BIN" gui --input "$OUT/$1.json" --size "$2" \
    --screenshot "$OUT/$1.png" --dump-rects "$OUT/$1.rects.json" > "$OUT/$1.log" 2>&1
}
# expect NAME PYTHON-CONDITION: the condition over `r` (the rects) and `w` (the window's width) must hold.
expect() {
  if python3 -c "import json,sys; r=json.load(open('$OUT/$1.rects.json')); w=$3; sys.exit(0 if ($2) else 1)"; then
    echo "ok   $1: $2"
  else
    echo "FAIL $1: $2 (items: $(python3 -c "import json; print(sorted(json.load(open('$OUT/$1.rects.json')))[:40])"))"
    failed=1
  fi
}
click() { echo "{\"item\":\"$1\"},{\"down\":true},{\"frames\":1},{\"up\":true},{\"frames\":8}"; }
for size in 1440x900 390x844; do
  width="${size%x*}"
  config="$OUT/config-$size"
  rm -rf "$config"
  run "start-$size" "$size" '[{"frames":6}]'
  expect "start-$size" "'start:lesson' in r and 'start:explore' in r and 'd_k' not in r and 'lesson:next' not in r" "$width"
  rm -rf "$config"
  run "lesson-$size" "$size" "[{\"frames\":4},$(click start:lesson)]"
  expect "lesson-$size" "'start:lesson' not in r and 'lesson:text' in r and 'lesson:next' in r" "$width"
  # On a desktop the lesson has the left column to itself; on a phone it is the sheet docked at the bottom.
  [ "$width" -ge 1000 ] && expect "lesson-$size" "r['lesson:text']['x'] + r['lesson:text']['w'] <= w / 2" "$width"
  run "again-$size" "$size" '[{"frames":6}]'
  expect "again-$size" "'start:lesson' not in r" "$width"
  rm -rf "$config"
  run "explore-$size" "$size" "[{\"frames\":4},$(click start:explore)]"
  expect "explore-$size" "'start:explore' not in r and 'd_k' in r" "$width"
done
exit $failed
