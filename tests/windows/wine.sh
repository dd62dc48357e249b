#!/usr/bin/env bash
# wine.sh — runs a Windows program under Wine in the Windows build's own prefix (build/windows/wine), quietly.
# The windows preset's CMAKE_CROSSCOMPILING_EMULATOR: `tests/windows/wine.sh core_tests.exe ARGS…`.
# Wine maps / to drive Z: and starts the program in the caller's directory, so absolute Unix paths work as arguments.
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
export WINEPREFIX="${WINEPREFIX:-$ROOT/build/windows/wine}"
export WINEDEBUG="${WINEDEBUG:--all}"
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:-mscoree,mshtml=}"  # no Mono/Gecko installer dialogs
export WINEARCH=win64
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  mkdir -p "$WINEPREFIX"
  wine wineboot --init >/dev/null 2>&1
  wineserver -w
fi
exec wine "$@"
