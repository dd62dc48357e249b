#!/usr/bin/env bash
# fetch_zlib.sh — unpack Debian bookworm's zlib source package into the git-ignored .cache/zlib (once), for the
# WebAssembly build (Emscripten's own zlib port would need a download; native builds use zlib1g-dev).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SETUP_WHO=fetch_zlib
. "$ROOT/scripts/lib/setup.sh"
DEST="${ATTNPLAY_CACHE:-$ROOT/.cache}/zlib"
[ -f "$DEST/inflate.c" ] && exit 0

ensure_deb_src bookworm
fetch_source "zlib/bookworm" "$DEST"
[ -f "$DEST/inflate.c" ] || { echo "fetch_zlib: step \"check sources\" failed: no inflate.c in the package" >&2; exit 1; }
echo "fetch_zlib: zlib sources in $DEST"
