#!/usr/bin/env bash
# gui_catalog.sh — a translator's catalog shown by the desktop app without rebuilding (`attnplay gui --catalog
# FILE`): its language is listed on the first run's start view beside English and Hinglish and is the one shown
# (its longer "Start the first lesson" wraps onto more lines than English's at 390 px), choosing English there goes
# back to English's words, and a file that is not a catalog, or a language the app already has, is refused with
# a message and exit 1.
# usage: gui_catalog.sh ATTNPLAY OUTDIR
set -euo pipefail
BIN="$1"; OUT="$2"
mkdir -p "$OUT"
failed=0
cat > "$OUT/de.json" <<'JSON'
{
  "_comment": "a few texts: English is shown for the rest",
  "lang.de": "Deutsch",
  "start.lesson": "Mit der ersten Lektion beginnen: warum die Aufmerksamkeit durch die Wurzel aus d_k teilt"
}
JSON
# run NAME SCRIPT [ARGS...]: a first run (an empty config folder) at 390×844, its screenshot and item rectangles.
run() {
  local name="$1" script="$2"; shift 2
  rm -rf "$OUT/config"
  echo "$script" > "$OUT/$name.json"
  XDG_CONFIG_HOME="$OUT/config" xvfb-run -a -s "-screen 0 1440x900x24" "$BIN" gui "$@" --input "$OUT/$name.json" \
    --size 390x844 --screenshot "$OUT/$name.png" --dump-rects "$OUT/$name.rects.json" > "$OUT/$name.log" 2>&1
}
height() { python3 -c "import json; print(json.load(open('$OUT/$1.rects.json'))['start:lesson']['h'])"; }
check() {
  if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; failed=1; fi
}
run english '[{"frames":8}]'
run german '[{"frames":8}]' --catalog "$OUT/de.json"
run back '[{"frames":8},{"item":"start:language:en"},{"down":true},{"frames":1},{"up":true},{"frames":8}]' \
  --catalog "$OUT/de.json"
check "the catalog's language is listed beside English and Hinglish" \
  "python3 -c \"import json,sys; r=json.load(open('$OUT/german.rects.json')); sys.exit(0 if all('start:language:'+t in r for t in ('en','hi-Latn','de')) else 1)\""
check "its words are shown: the start button wraps ($(height german) px against English's $(height english) px)" \
  "[ \"\$(height german)\" != \"\$(height english)\" ] && python3 -c 'import sys; sys.exit(0 if $(height german) > $(height english) else 1)'"
check "choosing English shows English's words again" "[ \"\$(height back)\" = \"\$(height english)\" ]"
echo 'not json' > "$OUT/xx.json"
if "$BIN" gui --catalog "$OUT/xx.json" --frames 1 > "$OUT/bad.log" 2>&1; then rc=0; else rc=$?; fi
check "a file that is not a catalog is refused (exit $rc: $(head -c 120 "$OUT/bad.log"))" "[ $rc = 1 ] && grep -q 'xx.json' '$OUT/bad.log'"
echo '{"lang.en": "English"}' > "$OUT/en.json"
if "$BIN" gui --catalog "$OUT/en.json" --frames 1 > "$OUT/dup.log" 2>&1; then rc=0; else rc=$?; fi
check "a language the app has is refused (exit $rc: $(head -c 120 "$OUT/dup.log"))" "[ $rc = 1 ] && grep -q 'already built in' '$OUT/dup.log'"
exit $failed
