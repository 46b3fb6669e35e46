#!/usr/bin/env bash
# Fetches the Web Platform Tests' WebCryptoAPI suite the node.wpt.* tests run
# (bindings/node/README.md, "Web Platform Tests"), once, and prints the
# directory it is in.
#
#   tools/fetch-wpt.sh
#
# Nothing of WPT is in this repository. Node.js vendors the part of WPT its own
# tests use under test/fixtures/wpt/ (WebCryptoAPI, resources, common,
# interfaces, versions.json naming each directory's WPT commit), and Debian's
# nodejs source package ships it in its .orig tarball, which apt fetches
# (tools/apt-source.sh: a private apt state directory with a deb-src entry
# made from the machine's own apt sources; apt checks the archive's signed
# checksums). The tarballs below are also pinned by sha256 (from this file,
# never from the network at fetch time); the first one that apt can fetch is used:
#   - sid's nodejs 22.22.2: WPT WebCryptoAPI at ff26d9b307b9 (71 test files).
#     A suite drops superseded versions, so this one may vanish one day;
#   - trixie's (Debian 13, stable) nodejs 20.19.2: WPT at 5e042cbc4eca (58).
# Only test/fixtures/wpt/{WebCryptoAPI,resources,common,interfaces,
# versions.json,LICENSE.md} are extracted, into
#   ${WEBCRYPTO_NODE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/libwebcrypto}/wpt-<WebCryptoAPI commit>/
# through a temporary directory renamed into place when complete (a
# half-extracted tree is never used), which later runs reuse without touching
# the network. Parallel callers are serialised with flock.
#
# Exit status: 0 with the directory on stdout; 1 when no tarball could be
# fetched (no network: the caller may skip); 3 when a tarball's sha256 is
# not the pinned one, or the tarball does not hold what it should (never to be
# skipped). The reason goes to stderr.
set -euo pipefail

# suite | nodejs upstream version | sha256 of its .orig.tar.xz | WPT WebCryptoAPI commit
sources=(
  "sid|22.22.2+dfsg+~cs22.19.15|f1a6dfca7ffe7f9f42942274adf9f0a12733977a4744a53f41b20836907c449b|ff26d9b307b981b3f1b88f454268e6bb8933e6c2"
  "trixie|20.19.2+dfsg|5e5559381ad031d245a8efa403458abbb73755f74c3e6380f185a4dd342b7949|5e042cbc4ecab7b2279a5fd411c6daa24ca886c6"
)
parts=(WebCryptoAPI resources common interfaces versions.json LICENSE.md)

cache=${WEBCRYPTO_NODE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/libwebcrypto}
mkdir -p "$cache"

cached_ok() { [ -f "$1/.complete" ] && [ -f "$1/resources/testharness.js" ] && [ -d "$1/WebCryptoAPI" ]; }

# A complete tree already here: no network.
for s in "${sources[@]}"; do
  IFS='|' read -r _ _ _ commit <<<"$s"
  if cached_ok "$cache/wpt-$commit"; then echo "$cache/wpt-$commit"; exit 0; fi
done

exec 9>"$cache/.wpt.lock"
flock 9
for s in "${sources[@]}"; do # another caller fetched one meanwhile
  IFS='|' read -r _ _ _ commit <<<"$s"
  if cached_ok "$cache/wpt-$commit"; then echo "$cache/wpt-$commit"; exit 0; fi
done

for tool in apt-get sha256sum tar xz; do
  command -v "$tool" >/dev/null || { echo "fetch-wpt: $tool is missing (tools/install-deps.sh installs it)" >&2; exit 1; }
done
tmp=$(mktemp -d "$cache/.wpt.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=()
here=$(cd "$(dirname "$0")" && pwd)
for s in "${sources[@]}"; do
  IFS='|' read -r suite upstream sha256 commit <<<"$s"
  name="$suite nodejs $upstream"
  orig=$tmp/dl/nodejs_$upstream.orig.tar.xz
  rm -rf "$tmp/dl"
  bash "$here/apt-source.sh" "$suite" nodejs "$upstream" "$tmp/dl" || true
  if [ ! -f "$orig" ]; then
    echo "fetch-wpt: apt could not fetch $(basename "$orig") ($name)" >&2
    failed+=("$name")
    continue
  fi
  url=$(basename "$orig")
  mv "$orig" "$tmp/src.tar.xz"
  got=$(sha256sum "$tmp/src.tar.xz" | cut -d' ' -f1)
  if [ "$got" != "$sha256" ]; then
    echo "fetch-wpt: $url has sha256 $got, not the pinned $sha256" >&2
    exit 3
  fi
  members=()
  for p in "${parts[@]}"; do members+=("node-v*/test/fixtures/wpt/$p"); done
  mkdir "$tmp/x"
  if ! tar -xJf "$tmp/src.tar.xz" -C "$tmp/x" --no-same-owner --wildcards --no-wildcards-match-slash "${members[@]}"; then
    echo "fetch-wpt: $url does not hold test/fixtures/wpt/{${parts[*]}}" >&2
    exit 3
  fi
  wpt=$(echo "$tmp"/x/node-v*/test/fixtures/wpt)
  # versions.json names the WPT commit of each directory: the pinned one.
  if ! grep -A1 '"WebCryptoAPI"' "$wpt/versions.json" | grep -q "\"commit\": \"$commit\""; then
    echo "fetch-wpt: $url's versions.json does not name WebCryptoAPI commit $commit" >&2
    exit 3
  fi
  touch "$wpt/.complete"
  dest=$cache/wpt-$commit
  rm -rf "$dest"
  mv "$wpt" "$dest"
  echo "fetch-wpt: WPT WebCryptoAPI $commit ($name) in $dest" >&2
  echo "$dest"
  exit 0
done
echo "fetch-wpt: no WPT snapshot could be downloaded (${failed[*]})" >&2
exit 1
