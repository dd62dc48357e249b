#!/usr/bin/env bash
# deps.sh — install what the build and tests need, only when it is missing (Debian bookworm, as root).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SETUP_WHO=deps
. "$ROOT/scripts/lib/setup.sh"

PKGS=(cmake ninja-build g++ clang make pkg-config emscripten libeigen3-dev libglfw3-dev libgl-dev catch2 nlohmann-json3-dev
      chromium xvfb xauth fonts-dejavu-core fonttools dpkg-dev gzip python3 libclang-rt-14-dev libstb-dev zlib1g-dev clang-format
      python3-numpy python3-torch python3-setuptools python3-pip python3-venv unzip libxml2-utils
      jupyter-nbconvert python3-nbconvert python3-ipykernel jupyter-notebook
      orca speech-dispatcher at-spi2-core dbus-x11 xdotool libglib2.0-bin)  # the screen-reader test (tests/a11y/)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js may come from Debian or elsewhere; only ask apt for it when there is none at all.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  step "apt-get update" $SUDO apt-get update
  step "apt-get install (${#missing[@]} packages)" $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

"$ROOT/scripts/fetch_imgui.sh"
"$ROOT/scripts/fetch_zlib.sh"

# Browser tests and the benchmark's peer come from npm (package-lock.json pins them); again whenever the lock
# file is newer than what npm last installed (a pulled change that adds a package).
if [ "${1:-}" = "--npm" ] && { [ ! -f "$ROOT/node_modules/.package-lock.json" ] ||
  [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; }; then
  (cd "$ROOT" && step "npm ci" npm ci --no-audit --no-fund --loglevel=error)
fi
