#!/usr/bin/env bash
# gui_fit.sh — no control, button or label runs past its panel's edge: every panel open, and the lesson whose
# choices are the longest sentences, in each language, at desktop, tablet and phone sizes (attnplay gui
# --check-fit exits 3 and names what was cut); and the start view of a first visit (no settings or progress yet).
# The languages: English, Hinglish and the pseudo-locale (en-XA: every text about 40 % longer), or a translator's
# catalog given as CATALOG (data/strings/<tag>.json, shown with `gui --catalog` without rebuilding). Then every step
# of every lesson, answered wrong and right, in the pseudo-locale (or that catalog), at 1440×900, 390×844 and 800×600.
# usage: gui_fit.sh ATTNPLAY OUTDIR [CATALOG]
set -euo pipefail
BIN="$1"; OUT="$2"; CATALOG="${3:-}"
LANGS="en hi-Latn en-XA"
EXTRA=()
if [ -n "$CATALOG" ]; then
  LANGS="$(basename "$CATALOG" .json)"
  EXTRA=(--catalog "$CATALOG")
fi
mkdir -p "$OUT"
# The panels' runs are a returning learner's (kept progress: no start view, src/app/start_view.h); the start view's
# runs have a config folder of their own, emptied before each.
export XDG_CONFIG_HOME="$OUT/config"
mkdir -p "$XDG_CONFIG_HOME/attnplay"
echo '{}' > "$XDG_CONFIG_HOME/attnplay/progress.json"
ALL='"controls":true,"embeddings":true,"pipeline":true,"heatmap":true,"saturation":true,"variance":true,"explain":true,"share":true,"masks":true,"heads":true,"positional":true,"numerics":true,"cross":true,"lesson":true,"help":true,"worksheet":true,"learn":true'
failed=0
for lang in $LANGS; do
  for size in 1440x900 1024x768 800x600 390x844; do
    for view in all lesson start; do
      config="$XDG_CONFIG_HOME"
      if [ "$view" = start ]; then
        config="$OUT/first-visit"
        rm -rf "$config"
        state="{\"lang\":\"$lang\"}"
      elif [ "$view" = all ]; then
        state="{\"lang\":\"$lang\",\"panels\":{$ALL},\"learn\":{\"playing\":true,\"speed\":5}}"
      else
        state="{\"lang\":\"$lang\",\"lesson\":{\"id\":\"not-explanation\",\"step\":3}}"
      fi
      echo "[{\"state\":$state},{\"frames\":8}]" > "$OUT/fit-$view.json"
      if ! XDG_CONFIG_HOME="$config" xvfb-run -a -s "-screen 0 1440x900x24" "$BIN" gui "${EXTRA[@]}" --input "$OUT/fit-$view.json" --check-fit \
           --size "$size" > "$OUT/fit.log" 2>&1; then
        echo "FAIL $lang $size $view: $(grep -a 'cut at' "$OUT/fit.log" || tail -3 "$OUT/fit.log")"
        failed=1
      else
        echo "ok   $lang $size $view"
      fi
    done
  done
done
# wcag: 1.4.10 — on a phone and at 800 × 600 no step of any lesson cuts a control or label at its panel's edge
# Every step of every lesson as it opens, after a wrong answer and after the right one (tests/desktop/lesson_walk.py),
# in the pseudo-locale (or the catalog given) at 1440×900, on a phone and at the smallest desktop size: the longest
# texts in the least room.
STEPS_LANG="en-XA"
[ -n "$CATALOG" ] && STEPS_LANG="$LANGS"
python3 "$(dirname "$0")/lesson_walk.py" "$STEPS_LANG" > "$OUT/fit-steps.json"
for size in 1440x900 390x844 800x600; do
  if ! xvfb-run -a -s "-screen 0 1440x900x24" "$BIN" gui "${EXTRA[@]}" --input "$OUT/fit-steps.json" --check-fit \
       --size "$size" > "$OUT/fit.log" 2>&1; then
    echo "FAIL $STEPS_LANG $size every lesson step: $(grep -a 'cut at' "$OUT/fit.log" || tail -3 "$OUT/fit.log")"
    failed=1
  else
    echo "ok   $STEPS_LANG $size every lesson step ($(grep -a 'input script' "$OUT/fit.log"))"
  fi
done
exit $failed
