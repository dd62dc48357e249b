#!/usr/bin/env bash
# windows.sh — the Windows build: attnplay.exe (CLI + desktop window) cross-compiled by mingw-w64, with GLFW and
# zlib built from Debian's source packages by the same toolchain, packaged as a zip, then tested under Wine:
# the core unit tests and the CLI tests, and the window under Xvfb (software GL), its screenshot, an input
# script and the settings it saves under %APPDATA%. Not part of scripts/test (CI); run it by hand.
# usage: scripts/windows.sh [--no-test] [-jN]     (compiles at nice 10; -j2 unless told)
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
SETUP_WHO=windows
. "$ROOT/scripts/lib/setup.sh"
JOBS=2; RUN_TESTS=1
for a in "$@"; do
  case "$a" in
    --no-test) RUN_TESTS=0 ;;
    -j*) JOBS="${a#-j}" ;;
    *) echo "usage: scripts/windows.sh [--no-test] [-jN]" >&2; exit 2 ;;
  esac
done
TRIPLE=x86_64-w64-mingw32
BUILD="$ROOT/build/windows"            # the cmake tree (preset "windows")
DEPS="$ROOT/build/windows-deps"        # GLFW and zlib built for Windows (prefix the toolchain searches)
CACHE="${ATTNPLAY_CACHE:-$ROOT/.cache}"
OUT="$ROOT/test-artifacts/windows"
t0=$(date +%s)

echo "== set-up: mingw-w64 (posix threads), Wine, Xvfb; GLFW, zlib, Dear ImGui sources =="
PKGS=(g++-mingw-w64-x86-64-posix gcc-mingw-w64-x86-64-posix wine wine64 xvfb xauth cmake ninja-build dpkg-dev
      libeigen3-dev nlohmann-json3-dev catch2 libstb-dev fonts-dejavu-core fonttools unzip python3)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "windows: installing ${missing[*]}"
  step "apt-get update" $SUDO apt-get update
  step "apt-get install (${#missing[@]} packages)" $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi
"$ROOT/scripts/fetch_imgui.sh" || exit 1
"$ROOT/scripts/fetch_zlib.sh" || exit 1
if [ ! -f "$CACHE/glfw/src/win32_init.c" ]; then
  ensure_deb_src bookworm
  fetch_source "glfw3/bookworm" "$CACHE/glfw"
  echo "windows: GLFW sources in $CACHE/glfw"
fi

echo "== GLFW and zlib for Windows (into $DEPS) =="
mkdir -p "$DEPS/lib" "$DEPS/include"
# stb (libstb-dev, header-only: the PNG writer and reader) is target-independent, but the cross compiler does not
# search /usr/include: it is linked into the prefix's include folder, which the toolchain adds (cmake/mingw-w64.cmake).
ln -sfn /usr/include/stb "$DEPS/include/stb"
if [ ! -f "$DEPS/lib/libz.a" ]; then
  # zlib's own CMakeLists renames zconf.h in the source tree (which the WebAssembly build reads): compile the
  # library's C files directly instead.
  zb="$ROOT/build/windows-deps-build/zlib"; rm -rf "$zb"; mkdir -p "$zb"
  for f in adler32 compress crc32 deflate gzclose gzlib gzread gzwrite infback inffast inflate inftrees trees uncompr zutil; do
    nice -n 10 $TRIPLE-gcc-posix -O2 -w -I"$CACHE/zlib" -c "$CACHE/zlib/$f.c" -o "$zb/$f.o" || exit 1
  done
  $TRIPLE-gcc-ar-posix rcs "$DEPS/lib/libz.a" "$zb"/*.o
  cp "$CACHE/zlib/zlib.h" "$CACHE/zlib/zconf.h" "$DEPS/include/"
fi
if [ ! -f "$DEPS/lib/cmake/glfw3/glfw3Config.cmake" ]; then
  gb="$ROOT/build/windows-deps-build/glfw"; rm -rf "$gb"
  step "configure GLFW" cmake -S "$CACHE/glfw" -B "$gb" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/mingw-w64.cmake" \
    -DATTNPLAY_WIN_DEPS="$DEPS" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$DEPS" -DBUILD_SHARED_LIBS=OFF \
    -DGLFW_BUILD_EXAMPLES=OFF -DGLFW_BUILD_TESTS=OFF -DGLFW_BUILD_DOCS=OFF
  nice -n 10 cmake --build "$gb" -j"$JOBS" || exit 1
  step "install GLFW" cmake --install "$gb"
fi

echo "== attnplay.exe and core_tests.exe (preset windows, -j$JOBS, nice 10) =="
step "cmake --preset windows" cmake --preset windows
tb=$(date +%s)
nice -n 10 cmake --build --preset windows -j"$JOBS" ||
  { echo "windows: step \"cmake --build --preset windows\" failed (the compiler's errors are above)" >&2; exit 1; }
echo "windows: built in $(( $(date +%s) - tb )) s"

echo "== package =="
VERSION="$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")"
NAME="attnplay-${VERSION:-0.0.0}-windows-x86_64"
STAGE="$BUILD/package/$NAME"
rm -rf "$BUILD/package"; mkdir -p "$STAGE/licenses"
# What the Linux package ships beside the program (cmake/AttnplayNative.cmake's install rules; fonts and shaders are
# compiled into the binary), the .desktop entry aside, plus the notices of what the .exe links statically.
$TRIPLE-strip -o "$STAGE/attnplay.exe" "$BUILD/attnplay.exe"
cp README.md "$STAGE/README.md"
mkdir -p "$STAGE/docs" && cp -r docs/*.md docs/images "$STAGE/docs/"
cp LICENSE "$STAGE/LICENSE.txt"
cp "$CACHE/imgui/LICENSE.txt" "$STAGE/licenses/LICENSE.imgui.txt"
cp /usr/share/doc/fonts-dejavu-core/copyright "$STAGE/licenses/copyright.dejavu-fonts.txt"
cp "$CACHE/glfw/LICENSE.md" "$STAGE/licenses/LICENSE.glfw.txt"
cp "$CACHE/zlib/LICENSE" "$STAGE/licenses/LICENSE.zlib.txt"
cp /usr/share/doc/mingw-w64-x86-64-dev/copyright "$STAGE/licenses/copyright.mingw-w64-runtime.txt"
ZIP="$BUILD/package/$NAME.zip"
(cd "$BUILD/package" && cmake -E tar cf "$ZIP" --format=zip "$NAME")
echo "windows: $ZIP ($(stat -c %s "$ZIP") bytes):"
unzip -l "$ZIP" | sed 's/^/  /'
echo "windows: DLLs attnplay.exe imports: $($TRIPLE-objdump -p "$STAGE/attnplay.exe" | sed -n 's/^\tDLL Name: //p' | tr '\n' ' ')"
echo "windows: build and package took $(( $(date +%s) - t0 )) s"
[ "$RUN_TESTS" = 1 ] || exit 0

status=0
# The CLI and the window are tested as shipped: the .exe unpacked from the zip.
mkdir -p "$OUT"
rm -rf "$OUT/unzipped" && unzip -q "$ZIP" -d "$OUT/unzipped" || exit 1
EXE="$OUT/unzipped/$NAME/attnplay.exe"
echo "== core unit tests under Wine (ctest --preset windows: CMAKE_CROSSCOMPILING_EMULATOR tests/windows/wine.sh) =="
tt=$(date +%s)
ctest --preset windows -V >"$OUT/core_tests.log" 2>&1 || status=1
tr -d '\r' <"$OUT/core_tests.log" | grep -E "test cases|assertions|tests passed|tests failed|Total Test time" | sed 's/^[0-9]*: //' | awk '!seen[$0]++'
echo "windows: core tests took $(( $(date +%s) - tt )) s"

echo "== CLI tests under Wine (tests/cli/*.sh with tests/windows/attnplay-wine.sh running the zip's attnplay.exe) =="
# install.sh checks the Linux install tree and the .deb (not built for Windows).
cli_pass=0; cli_fail=0; scripts_failed=()
tt=$(date +%s)
for s in tests/cli/*.sh; do
  name="$(basename "$s" .sh)"
  [ "$name" = install ] && { echo "  cli_$name: not run (Linux install tree and .deb)"; continue; }
  ATTNPLAY_EXE="$EXE" timeout 900 bash "$s" "$ROOT/tests/windows/attnplay-wine.sh" "$ROOT/tests/cli" >"$OUT/cli_$name.log" 2>&1
  rc=$?
  p=$(grep -c '^PASS' "$OUT/cli_$name.log"); f=$(grep -c '^FAIL' "$OUT/cli_$name.log")
  cli_pass=$((cli_pass + p)); cli_fail=$((cli_fail + f))
  echo "  cli_$name: exit $rc, $p passed, $f failed"
  [ "$rc" = 0 ] || { scripts_failed+=("$name"); status=1; }
done
echo "windows: CLI checks: $cli_pass passed, $cli_fail failed; scripts failing: ${scripts_failed[*]:-none} ($(( $(date +%s) - tt )) s)"

echo "== the window under Wine + Xvfb (Mesa software GL) =="
xvfb-run -a -s "-screen 0 1280x800x24" bash "$ROOT/tests/windows/gui_wine.sh" "$EXE" "$OUT" || status=1
echo "windows: screenshot $OUT/desktop.png, after the input script $OUT/input.png; logs in $OUT"
echo "windows: all took $(( $(date +%s) - t0 )) s"
exit $status
