#!/usr/bin/env bash
# apt_sources_test.sh — the dependency steps on a machine as Debian bookworm ships it. Each case builds a
# throw-away apt configuration (APT_CONFIG: its own sources, lists and cache) holding the stock bookworm
# `deb` entry plus the case's deb-src entries, and an empty cache folder, then runs fetch_imgui.sh and
# fetch_zlib.sh and checks: the ImGui and zlib sources arrive, each suite has exactly one deb-src entry,
# a re-run calls no apt at all, and a failing apt step names itself and its error in one line.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
passed=0; failed=0
ok()   { echo "  ok: $1"; passed=$((passed + 1)); }
fail() { echo "  FAIL: $1"; failed=$((failed + 1)); }

STOCK='Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
'
src_entry() { printf 'deb-src http://deb.debian.org/debian %s main\n' "$1"; }

# make_config DIR: an apt configuration of its own under DIR; prints the APT_CONFIG file.
make_config() {
  local d="$1"
  mkdir -p "$d/sources.list.d" "$d/lists/partial" "$d/cache/archives/partial" "$d/cache.project"
  printf '%s' "$STOCK" >"$d/sources.list.d/debian.sources"
  : >"$d/sources.list"
  cat >"$d/apt.conf" <<CONF
Dir::Etc::sourcelist "$d/sources.list";
Dir::Etc::sourceparts "$d/sources.list.d";
Dir::State::Lists "$d/lists";
Dir::Cache "$d/cache";
CONF
}

# count_src DIR SUITE: deb-src entries naming SUITE in the configuration (one-line and deb822).
count_src() {
  local n=0 f
  for f in "$1/sources.list" "$1"/sources.list.d/*; do
    [ -f "$f" ] || continue
    n=$((n + $(awk -v s="$2" '$1=="deb-src" && $3==s {c++}
      tolower($1)=="types:" {t=/deb-src/} tolower($1)=="suites:" && t {for(i=2;i<=NF;i++) if($i==s) c++}
      END {print c+0}' "$f")))
  done
  echo "$n"
}

run_fetches() {  # DIR: both fetch steps against DIR's configuration and cache
  APT_CONFIG="$1/apt.conf" ATTNPLAY_CACHE="$1/cache.project" "$ROOT/scripts/fetch_imgui.sh" &&
    APT_CONFIG="$1/apt.conf" ATTNPLAY_CACHE="$1/cache.project" "$ROOT/scripts/fetch_zlib.sh"
}

check_case() {  # NAME SUITES...: the stock config plus a deb-src entry per named suite
  local name="$1"; shift
  local d="$WORK/$name" s
  make_config "$d"
  for s in "$@"; do src_entry "$s" >>"$d/sources.list"; done
  echo "case $name (deb-src: ${*:-none})"
  if run_fetches "$d" >"$d/log" 2>&1; then ok "$name: fetch steps exit 0"; else fail "$name: fetch steps failed:"; sed 's/^/    /' "$d/log"; return; fi
  [ -f "$d/cache.project/imgui/imgui.cpp" ] && grep -q '"1.90.1"' "$d/cache.project/imgui/imgui.h" &&
    ok "$name: Dear ImGui 1.90.1 sources arrived" || fail "$name: no ImGui 1.90.1 sources"
  [ -f "$d/cache.project/zlib/inflate.c" ] && ok "$name: zlib sources arrived" || fail "$name: no zlib sources"
  for s in trixie bookworm; do
    [ "$(count_src "$d" "$s")" = 1 ] && ok "$name: one deb-src entry for $s" ||
      fail "$name: $(count_src "$d" "$s") deb-src entries for $s"
  done
  if [ "$name" = stock ]; then check_rerun "$d"; fi
}

# check_rerun DIR: after a success, a re-run makes no network call: apt-get, apt-cache and npm all fail.
check_rerun() {
  local d="$1" bin="$1/noapt" before after
  mkdir -p "$bin"
  for c in apt-get apt-cache npm; do printf '#!/bin/sh\necho "$0 called" >>"%s/called"; exit 1\n' "$d" >"$bin/$c"; chmod +x "$bin/$c"; done
  before="$(cd "$d" && find sources.list* cache.project -type f | sort | xargs md5sum | md5sum)"
  PATH="$bin:$PATH" run_fetches "$d" >"$d/log2" 2>&1 && [ ! -f "$d/called" ] &&
    ok "stock: a re-run calls no apt" || fail "stock: a re-run called $(cat "$d/called" 2>/dev/null) ($(tail -n1 "$d/log2"))"
  after="$(cd "$d" && find sources.list* cache.project -type f | sort | xargs md5sum | md5sum)"
  [ "$before" = "$after" ] && ok "stock: a re-run changes no file" || fail "stock: a re-run changed files"
}

# check_failure: an apt step that fails is named, with apt's error, on one line, and the exit is non-zero.
check_failure() {
  local d="$WORK/broken"
  make_config "$d"
  printf 'Types: deb-src\nURIs: file:%s/no-such-mirror\nSuites: bookworm\nComponents: main\nTrusted: yes\n' "$d" \
    >"$d/sources.list.d/broken.sources"
  echo "case broken (a deb-src mirror that is not there)"
  APT_CONFIG="$d/apt.conf" ATTNPLAY_CACHE="$d/cache.project" "$ROOT/scripts/fetch_zlib.sh" >"$d/log" 2>&1
  local rc=$? line
  line="$(grep '^fetch_zlib: step "' "$d/log" | tail -n 1)"
  [ "$rc" -ne 0 ] && ok "broken: exits non-zero ($rc)" || fail "broken: exit 0"
  if [ -n "$line" ] && echo "$line" | grep -q 'failed (exit [0-9]*): .*\(E:\|Err\|rror\)'; then
    ok "broken: one line names the step and apt's error: $line"
  else fail "broken: no step line with apt's error:"; sed 's/^/    /' "$d/log"; fi
}

check_case stock
check_case trixie-only trixie
check_case bookworm-only bookworm
check_case both trixie bookworm
check_failure
echo "apt sources: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
