# install.sh — `cmake --install` gives a working offline install (bin/attnplay only, no libs/headers) and cpack a sane .deb.
set -u
BIN=$1
DIR=$2
source "$DIR/helpers.bash"
abort() { fail "$@"; finish; exit 1; }

# attnplay is built at the top of the build tree, so the build dir is the binary's folder.
BUILD=$(cd "$(dirname "$BIN")" 2>/dev/null && pwd)
[ -f "$BUILD/cmake_install.cmake" ] || abort "build dir" "no cmake_install.cmake in $(dirname "$BIN")"
APP=0
grep -q '^ATTNPLAY_APP:BOOL=ON' "$BUILD/CMakeCache.txt" && APP=1

PREFIX=$TMP/prefix
if cmake --install "$BUILD" --prefix "$PREFIX" >"$TMP/install.log" 2>&1; then pass "cmake --install into a fresh prefix"
else abort "cmake --install into a fresh prefix" "$(tail -5 "$TMP/install.log")"; fi

ATTN=$PREFIX/bin/attnplay
if [ -f "$ATTN" ] && [ -x "$ATTN" ]; then pass "bin/attnplay installed and executable"
else abort "bin/attnplay installed and executable" "$(cd "$PREFIX" && find . -type f)"; fi
if [ "$(ls -A "$PREFIX/bin")" = attnplay ]; then pass "bin/ holds only attnplay (no test binaries)"
else fail "bin/ holds only attnplay (no test binaries)" "$(ls -A "$PREFIX/bin" | tr '\n' ' ')"; fi
stray=$(cd "$PREFIX" && find . \( -name '*.a' -o -name '*.so*' -o -name '*.h' -o -name '*.hpp' -o -path ./include -o -path ./lib \) -print)
if [ -z "$stray" ]; then pass "no static libs, shared libs or headers installed"
else fail "no static libs, shared libs or headers installed" "$stray"; fi
if [ "$APP" = 1 ]; then
  if grep -q '^Exec=attnplay gui' "$PREFIX/share/applications/attnplay.desktop" 2>/dev/null; then pass "share/applications/attnplay.desktop"
  else fail "share/applications/attnplay.desktop" "$(cd "$PREFIX" && find . -type f | tr '\n' ' ')"; fi
fi
if [ -f "$PREFIX/share/doc/attnplay/README.md" ]; then pass "share/doc/attnplay/README.md"
else fail "share/doc/attnplay/README.md"; fi
# Every page the README links to is installed beside it, so its links work offline.
missing=$(grep -o '](docs/[^)#]*' "$DIR/../../README.md" | sed 's/^](//' | sort -u |
  while read -r page; do [ -e "$PREFIX/share/doc/attnplay/$page" ] || [ "$page" = docs/dev/ ] || echo "$page"; done)
if [ -z "$missing" ]; then pass "the README's linked pages are installed beside it"
else fail "the README's linked pages are installed beside it" "missing: $missing"; fi

# The installed binary computes the seed example from stdin: output[0] ≈ [3.655, 0.807, 0].
if expect_ok "installed attnplay compute - <seed.json" sh -c '"$0" compute - <"$1"' "$ATTN" "$DIR/cases/seed.json"; then
  cp "$TMP/out" "$TMP/seed.json"
  json_check "installed compute output ≈ [3.655, 0.807, 0]" "$TMP/seed.json" '
    const o = j.output;
    return (Array.isArray(o) && near(o[0][0], 3.655, 1e-3) && near(o[0][1], 0.807, 1e-3)) || JSON.stringify(o);'
fi
VERSION=$("$ATTN" --version 2>/dev/null | awk '{ print $2 }')

# The installed window renders under Xvfb; settings go to $HOME/.config/attnplay, nothing to the cwd.
# Leak checking is off for the window only: Mesa's software driver is unloaded before the check runs,
# so its own allocations show up as leaks of an "<unknown module>" that no suppression can name.
# Memory errors and undefined behaviour still fail the step.
if [ "$APP" = 1 ] && command -v xvfb-run >/dev/null; then
  mkdir -p "$TMP/home" "$TMP/cwd"
  if (cd "$TMP/cwd" && env -u XDG_CONFIG_HOME HOME="$TMP/home" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" xvfb-run -a -s "-screen 0 1280x800x24" \
        "$ATTN" gui --screenshot "$TMP/s.png" --frames 3 --size 640x480) >"$TMP/gui.log" 2>&1; then
    pass "installed attnplay gui --screenshot under xvfb-run"
  else fail "installed attnplay gui --screenshot under xvfb-run" "$(tail -5 "$TMP/gui.log")"; fi
  size=$(stat -c %s "$TMP/s.png" 2>/dev/null || echo 0)
  if [ "$size" -gt 5000 ] && [ "$(head -c 4 "$TMP/s.png" | tail -c 3)" = PNG ]; then pass "screenshot is a PNG of $size bytes"
  else fail "screenshot is a non-trivial PNG" "size $size"; fi
  if [ -z "$(ls -A "$TMP/cwd")" ]; then pass "gui wrote nothing into the working directory"
  else fail "gui wrote nothing into the working directory" "$(ls -A "$TMP/cwd" | tr '\n' ' ')"; fi
  if [ -f "$TMP/home/.config/attnplay/imgui.ini" ]; then pass "settings saved to \$HOME/.config/attnplay/imgui.ini"
  else fail "settings saved to \$HOME/.config/attnplay/imgui.ini" "$(cd "$TMP/home" && find . | tr '\n' ' ')"; fi
else
  echo "SKIP: gui screenshot (no GUI build or no xvfb-run)"
fi

# The .deb, written to a temp dir (never the source tree).
if command -v cpack >/dev/null && command -v dpkg-deb >/dev/null; then
  if (cd "$BUILD" && cpack -G DEB -B "$TMP/pkg") >"$TMP/cpack.log" 2>&1; then pass "cpack -G DEB"
  else abort "cpack -G DEB" "$(tail -8 "$TMP/cpack.log")"; fi
  deb=$(ls "$TMP"/pkg/*.deb 2>/dev/null | head -1)
  [ -n "$deb" ] || abort "cpack wrote a .deb into -B" "$(ls -A "$TMP/pkg" | tr '\n' ' ')"
  dpkg-deb -c "$deb" | awk '{ print $NF }' >"$TMP/deb.list"
  if grep -qx './usr/bin/attnplay' "$TMP/deb.list"; then pass "$(basename "$deb") contains ./usr/bin/attnplay"
  else fail ".deb contains ./usr/bin/attnplay" "$(cat "$TMP/deb.list")"; fi
  if ! grep -Eq '\.(a|h|hpp)$|/include/' "$TMP/deb.list"; then pass ".deb has no static libs or headers"
  else fail ".deb has no static libs or headers" "$(grep -E '\.(a|h|hpp)$|/include/' "$TMP/deb.list")"; fi
  pkg=$(dpkg-deb -f "$deb" Package); ver=$(dpkg-deb -f "$deb" Version); dep=$(dpkg-deb -f "$deb" Depends)
  if [ "$pkg" = attnplay ] && [ -n "$ver" ] && [ "$ver" = "$VERSION" ]; then pass "Package: $pkg, Version: $ver"
  else fail "Package attnplay, Version = attnplay --version" "Package: $pkg, Version: $ver, binary: $VERSION"; fi
  want="libc6 libstdc++6"
  [ "$APP" = 1 ] && want="$want libglfw3 libgl1"
  missing=""
  echo "$dep" | tr ',|' '\n\n' | awk '{ print $1 }' >"$TMP/deps"
  for d in $want; do grep -qxF "$d" "$TMP/deps" || missing="$missing $d"; done
  if [ -n "$dep" ] && [ -z "$missing" ]; then pass "Depends: $dep"
  else fail "Depends lists$missing" "Depends: $dep"; fi
  if [ -n "$(dpkg-deb -f "$deb" Maintainer)" ] && [ -n "$(dpkg-deb -f "$deb" Description)" ]; then pass "Maintainer and Description set"
  else fail "Maintainer and Description set" "$(dpkg-deb -f "$deb")"; fi
else
  echo "SKIP: .deb (no cpack or dpkg-deb)"
fi

finish
