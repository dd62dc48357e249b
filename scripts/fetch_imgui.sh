#!/usr/bin/env bash
# fetch_imgui.sh — unpack Dear ImGui 1.90.1 from Debian trixie's source package into the git-ignored .cache/imgui.
# Sources only: the entry added for trixie is deb-src, so no trixie binary package can ever be installed.
# Re-fetches when the cached copy is another version (checked through IMGUI_VERSION in imgui.h).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="$ROOT/.cache/imgui"
WANT_VERSION="1.90.1"          # what imgui.h says
DEB_VERSION="1.90.1+ds-1"      # trixie's source package
SUITE="trixie"

cached_version() { sed -n 's/^#define IMGUI_VERSION  *"\([^"]*\)".*/\1/p' "$DEST/imgui.h" 2>/dev/null || true; }
[ -f "$DEST/imgui.cpp" ] && [ "$(cached_version)" = "$WANT_VERSION" ] && exit 0

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
LIST=/etc/apt/sources.list.d/attnplay-imgui-src.sources
if [ ! -f "$LIST" ]; then
  echo "fetch_imgui: adding a deb-src (sources only) entry for $SUITE main"
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$SUITE" | $SUDO tee "$LIST" >/dev/null
  $SUDO apt-get update -qq
fi
if ! apt-cache showsrc "imgui=$DEB_VERSION" 2>/dev/null | grep -q "^Version: $DEB_VERSION\$"; then
  $SUDO apt-get update -qq
fi
command -v dpkg-source >/dev/null || $SUDO apt-get install -y -qq dpkg-dev >/dev/null
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
(cd "$TMP" && apt-get source -qq --download-only "imgui=$DEB_VERSION" >/dev/null && dpkg-source -x --no-check ./*.dsc src >/dev/null)
got="$(sed -n 's/^#define IMGUI_VERSION  *"\([^"]*\)".*/\1/p' "$TMP/src/imgui.h")"
if [ "$got" != "$WANT_VERSION" ]; then
  echo "fetch_imgui: expected Dear ImGui $WANT_VERSION, the package holds $got" >&2
  exit 1
fi
mkdir -p "$ROOT/.cache"
rm -rf "$DEST" && mv "$TMP/src" "$DEST"
echo "fetch_imgui: Dear ImGui $WANT_VERSION sources in $DEST"
