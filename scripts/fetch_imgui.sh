#!/usr/bin/env bash
# fetch_imgui.sh — unpack Dear ImGui 1.90.1 from Debian trixie's source package into the git-ignored .cache/imgui.
# Sources only: the entry added for trixie is deb-src, so no trixie binary package can ever be installed.
# Re-fetches when the cached copy is another version (checked through IMGUI_VERSION in imgui.h).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SETUP_WHO=fetch_imgui
. "$ROOT/scripts/lib/setup.sh"
DEST="${ATTNPLAY_CACHE:-$ROOT/.cache}/imgui"
WANT_VERSION="1.90.1"          # what imgui.h says
DEB_VERSION="1.90.1+ds-1"      # trixie's source package

header_version() { sed -n 's/^#define IMGUI_VERSION  *"\([^"]*\)".*/\1/p' "$1/imgui.h" 2>/dev/null || true; }
[ -f "$DEST/imgui.cpp" ] && [ "$(header_version "$DEST")" = "$WANT_VERSION" ] && exit 0

ensure_deb_src trixie
fetch_source "imgui=$DEB_VERSION" "$DEST"
got="$(header_version "$DEST")"
if [ "$got" != "$WANT_VERSION" ]; then
  echo "fetch_imgui: step \"check version\" failed: expected Dear ImGui $WANT_VERSION, the package holds ${got:-none}" >&2
  rm -rf "$DEST"
  exit 1
fi
echo "fetch_imgui: Dear ImGui $WANT_VERSION sources in $DEST"
