#!/usr/bin/env bash
# gui_screenshot.sh — the desktop app under Xvfb (Mesa) renders a preset; the picture must not be
# blank and the heatmap must colour the larger weight brighter.
# usage: gui_screenshot.sh ATTNPLAY CHECKER OUTDIR
set -euo pipefail
BIN="$1"; CHECK="$2"; OUT="$3"
mkdir -p "$OUT"
cat > "$OUT/state.json" <<'JSON'
{"preset": "self-attn-example-1"}
JSON
# Self-attention example 1: row 2 ("mat") weights are [0.248, 0.248, 0.503], so cell (2,2) > cell (2,0).
xvfb-run -a -s "-screen 0 1280x800x24" "$BIN" gui "$OUT/state.json" --frames 4 \
  --screenshot "$OUT/desktop.png" --dump-rects "$OUT/rects.json"
"$CHECK" "$OUT/desktop.png" "$OUT/rects.json" 2 0,2 3 3
