#!/usr/bin/env bash
# fetch_zlib.sh — unpack Debian's zlib source package into the git-ignored .cache/zlib (once), for the
# WebAssembly build (Emscripten's own zlib port would need a download; native builds use zlib1g-dev).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="$ROOT/.cache/zlib"
[ -f "$DEST/inflate.c" ] && exit 0

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
if ! grep -rqs "^Types:.*deb-src" /etc/apt/sources.list.d/ && ! grep -qs "^deb-src" /etc/apt/sources.list; then
  echo "fetch_zlib: adding a deb-src entry for bookworm main"
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    | $SUDO tee /etc/apt/sources.list.d/attnplay-src.sources >/dev/null
  $SUDO apt-get update -qq
fi
command -v dpkg-source >/dev/null || $SUDO apt-get install -y -qq dpkg-dev >/dev/null
TMP="$(mktemp -d)"
(cd "$TMP" && apt-get source -qq --download-only zlib/bookworm >/dev/null 2>&1 && dpkg-source -x --no-check ./*.dsc src >/dev/null)
mkdir -p "$ROOT/.cache"
rm -rf "$DEST" && mv "$TMP/src" "$DEST"
rm -rf "$TMP"
echo "fetch_zlib: zlib sources in $DEST"
