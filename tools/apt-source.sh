#!/usr/bin/env bash
# Downloads the files of a Debian source package from another Debian release
# than the machine's, through apt, without touching the machine's own apt
# state: a private state directory whose sources list holds one `deb-src`
# entry per Debian archive URI the machine's apt already uses (found with
# `apt-get indextargets`, so no host is written here), for the suite asked.
# apt checks every file it downloads against the suite's signed index
# (InRelease, verified with Debian's archive keyring).
#
#   tools/apt-source.sh SUITE PACKAGE UPSTREAM_VERSION DESTDIR
#
# Takes the newest version of PACKAGE in SUITE whose upstream part (the
# version without its Debian revision) is UPSTREAM_VERSION (or, for an
# UPSTREAM_VERSION ending in `*`, starts with what precedes it: `3.5.*`), and runs
# `apt-get source --download-only PACKAGE=VERSION` in DESTDIR. Callers check
# the file they need by its pinned hash: apt's exit status is reported but a
# mirror that lacks a file the caller does not need (the .dsc, the Debian
# patches) is not a failure here.
#
# The private state lives in ${WEBCRYPTO_NODE_CACHE:-~/.cache/libwebcrypto}/apt
# and is refreshed (apt-get update) at most once an hour; parallel callers are
# serialised with flock. Exit status 0 when apt-get source succeeded, 2 when
# it ran but reported errors (some files may be there), 1 when the package
# version is not in SUITE or apt could not be run (no network); reasons go to
# stderr.
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 SUITE PACKAGE UPSTREAM_VERSION DESTDIR" >&2; exit 1; }
suite=$1 pkg=$2 upstream=$3 destdir=$4
command -v apt-get >/dev/null || { echo "apt-source: apt-get is missing (not a Debian machine?)" >&2; exit 1; }

cache=${WEBCRYPTO_NODE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/libwebcrypto}
state=$cache/apt
mkdir -p "$state/lists/partial" "$state/archives/partial" "$state/etc/sources.list.d" \
  "$state/etc/preferences.d"
exec 8>"$state/.lock"
flock 8

# The machine's Debian archive URIs (not debian-security, not third-party).
mapfile -t uris < <(apt-get indextargets --format '$(REPO_URI)' 'Origin: Debian' 'Label: Debian' | sort -u)
if [ ${#uris[@]} -eq 0 ]; then
  echo "apt-source: the machine's apt lists no Debian archive (run apt-get update first)" >&2
  exit 1
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
list=$state/etc/sources.list
want=$(for u in "${uris[@]}"; do echo "deb-src [signed-by=$keyring] $u $suite main"; done)
# One suite's entries at a time; a change of suite or URIs forces an update.
if [ ! -f "$list" ] || [ "$(cat "$list")" != "$want" ]; then
  printf '%s\n' "$want" >"$list"
  rm -f "$state/.updated"
fi
opts=(-o "Dir::State=$state" -o "Dir::State::status=/var/lib/dpkg/status"
  -o "Dir::Cache=$state" -o "Dir::Cache::archives=$state/archives"
  -o "Dir::Etc::SourceList=$list" -o "Dir::Etc::SourceParts=$state/etc/sources.list.d"
  -o "Dir::Etc::Preferences=$state/etc/preferences" -o "Dir::Etc::PreferencesParts=$state/etc/preferences.d"
  -o "APT::Sandbox::User=root" -q)
if [ -z "$(find "$state/.updated" -mmin -60 2>/dev/null)" ]; then
  if ! apt-get "${opts[@]}" update >"$state/update.log" 2>&1; then
    echo "apt-source: apt-get update for $suite failed: $(grep -E '^(E|W):' "$state/update.log" | head -3 | tr '\n' ' ')" >&2
    exit 1
  fi
  touch "$state/.updated"
fi

# The newest Debian revision of the pinned upstream version; for a pattern,
# every matching version, newest first, tried in turn (a mirror may list a
# version in its index before it serves the files: the next one is taken).
versions=$(apt-cache "${opts[@]}" showsrc "$pkg" 2>/dev/null | sed -n 's/^Version: //p' |
  awk -v up="$upstream" '{ v = $0; sub(/^[0-9]+:/, "", v); sub(/-[^-]*$/, "", v)
    if (up ~ /\*$/ ? index(v, substr(up, 1, length(up) - 1)) == 1 : v == up) print $0 }' |
  sort -uV -r)
case $upstream in *'*') ;; *) versions=$(head -1 <<<"$versions") ;; esac
if [ -z "$versions" ]; then
  echo "apt-source: $suite has no $pkg $upstream (it has: $(apt-cache "${opts[@]}" showsrc "$pkg" 2>/dev/null |
    sed -n 's/^Version: //p' | tr '\n' ' '))" >&2
  exit 1
fi
mkdir -p "$destdir"
for version in $versions; do
  echo "apt-source: apt-get source --download-only $pkg=$version ($suite)" >&2
  if (cd "$destdir" && apt-get "${opts[@]}" source --download-only "$pkg=$version" >"$state/source.log" 2>&1); then
    exit 0
  fi
  echo "apt-source: apt-get source could not fetch every file of $pkg $version ($(grep -c '^E:' "$state/source.log") errors: $state/source.log)" >&2
  # A pattern's next candidate starts clean; an exact version keeps what came.
  case $upstream in *'*') [ "$version" = "$(tail -1 <<<"$versions")" ] || rm -f "$destdir/${pkg}"_* ;; esac
done
exit 2
