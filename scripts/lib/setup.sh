# setup.sh — sourced by the set-up scripts: named steps that report their own failure, and apt source
# entries added per suite. apt honours APT_CONFIG, so a test can point every apt call here (and the
# place new entries are written) at a throw-away configuration.

SETUP_WHO="${SETUP_WHO:-setup}"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"

# step NAME CMD...: runs CMD with its output kept aside; on failure prints the output's tail, then one
# line "WHO: step NAME failed (exit N): REASON" with apt's own error as the reason, and exits N.
step() {
  local name="$1"; shift
  local log; log="$(mktemp)"
  "$@" >"$log" 2>&1 && { rm -f "$log"; return 0; }
  local rc=$?
  tail -n 20 "$log" >&2
  local why; why="$(grep -E '^(E|Err|error|fatal):|[Ee]rror' "$log" | head -n 1)"
  [ -n "$why" ] || why="$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)"
  rm -f "$log"
  echo "$SETUP_WHO: step \"$name\" failed (exit $rc): ${why:-no output}" >&2
  exit "$rc"
}

# apt_dir KEY: a directory or file apt is configured with (Dir::Etc::sourceparts/d, Dir::Etc::sourcelist/f).
apt_dir() { local v=""; eval "$(apt-config shell v "$1")"; echo "${v%/}"; }

# has_deb_src SUITE: some enabled deb-src entry (one-line or deb822) names exactly SUITE for Debian main.
has_deb_src() {
  local suite="$1" parts list
  parts="$(apt_dir Dir::Etc::sourceparts/d)"; list="$(apt_dir Dir::Etc::sourcelist/f)"
  local f
  for f in "$list" "$parts"/*.list; do
    [ -f "$f" ] || continue
    awk -v s="$suite" '$1=="deb-src" { i=2; if ($2 ~ /^\[/) { while (i<=NF && $i !~ /\]$/) i++; i++ }
                                       if ($(i+1)==s) found=1 } END { exit !found }' "$f" && return 0
  done
  for f in "$parts"/*.sources; do
    [ -f "$f" ] || continue
    awk -v s="$suite" 'function flush() { if (t && u && !off) found=1; t=u=off=0 }
      /^[[:space:]]*$/ { flush(); next }
      tolower($1)=="types:"   { for (i=2;i<=NF;i++) if ($i=="deb-src") t=1 }
      tolower($1)=="suites:"  { for (i=2;i<=NF;i++) if ($i==s) u=1 }
      tolower($1)=="enabled:" { if (tolower($2)=="no") off=1 }
      END { flush(); exit !found }' "$f" && return 0
  done
  return 1
}

# ensure_deb_src SUITE: add a sources-only entry for SUITE main (unless one exists), then refresh the lists.
ensure_deb_src() {
  local suite="$1" parts
  has_deb_src "$suite" && return 0
  parts="$(apt_dir Dir::Etc::sourceparts/d)"
  echo "$SETUP_WHO: adding a deb-src (sources only) entry for $suite main in $parts"
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$suite" | $SUDO tee "$parts/attnplay-$suite-src.sources" >/dev/null
  step "apt-get update (after adding $suite deb-src)" $SUDO apt-get update
}

# fetch_source SPEC DEST: download and unpack a Debian source package into DEST (replacing it).
fetch_source() {
  local spec="$1" dest="$2" tmp
  command -v dpkg-source >/dev/null ||
    step "apt-get install dpkg-dev" $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends dpkg-dev
  tmp="$(mktemp -d)"
  # Lists older than the entry (or than the wanted version) know nothing of it yet: refresh them once.
  (cd "$tmp" && apt-get source --print-uris "$spec" >/dev/null 2>&1) ||
    step "apt-get update (no source record for $spec)" $SUDO apt-get update
  (cd "$tmp" && step "apt-get source $spec" apt-get source --download-only "$spec")
  (cd "$tmp" && step "dpkg-source -x $spec" dpkg-source -x --no-check ./*.dsc src)
  mkdir -p "$(dirname "$dest")"
  rm -rf "$dest" && mv "$tmp/src" "$dest"
  rm -rf "$tmp"
}
