#!/usr/bin/env bash
# Makes the Node binding's npm package, libwebcrypto-<version>.tgz, and prints
# its path.
#
#   tools/pack-node.sh [OUTDIR]      (default: the current directory)
#
# The package is bindings/node's JavaScript, types and package.json, and in
# csrc/ the C sources its install step (bindings/node/install.js) builds the
# addon from with CMake: the top CMakeLists.txt, cmake/, include/, src/, the
# tools/ folders that CMakeLists.txt adds, and the addon's C. They are staged
# in a temporary folder, never copied into bindings/node, and packed there
# with `npm pack` (no network). Files are taken from the working tree: those
# git tracks or would (not ignored) in a checkout, all of them otherwise.
# The package's version must be the library's (include/webcrypto.h's
# WEBCRYPTO_VERSION, CMake's project version): a difference stops the pack.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$PWD}
mkdir -p "$out"
out=$(cd "$out" && pwd)
for tool in npm node tar; do
  command -v "$tool" >/dev/null || { echo "pack-node: $tool is missing" >&2; exit 1; }
done

lib_version=$(sed -n 's/^#define WEBCRYPTO_VERSION "\(.*\)"$/\1/p' "$root/include/webcrypto.h")
pkg_version=$(node -p 'require(process.argv[1]).version' "$root/bindings/node/package.json")
if [ -z "$lib_version" ] || [ "$lib_version" != "$pkg_version" ]; then
  echo "pack-node: bindings/node/package.json has version $pkg_version, the library (include/webcrypto.h) ${lib_version:-none}" >&2
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pack-node.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/package
mkdir -p "$stage/lib" "$stage/csrc"

# list PATH...: the files under PATHs to stage, relative to the root.
list() {
  if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$root" && git ls-files --cached --others --exclude-standard -- "$@" |
      while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done)
  else
    (cd "$root" && find "$@" -type f)
  fi
}
stage_files() { # DEST PATH...
  local dest=$1; shift
  list "$@" | (cd "$root" && tar -cf - -T -) | tar -xf - -C "$dest"
}

# The JavaScript side, at the package's root (its layout in bindings/node).
stage_files "$stage" bindings/node/package.json bindings/node/index.js bindings/node/index.mjs \
  bindings/node/index.d.ts bindings/node/primordials.js bindings/node/install.js \
  bindings/node/README.md bindings/node/lib
mv "$stage"/bindings/node/* "$stage"/
rm -rf "$stage/bindings"
# The C side: what the top CMakeLists.txt configures and the addon builds
# from (tests, the CLI and the binding's tests are not: the install turns them off).
stage_files "$stage/csrc" CMakeLists.txt cmake include src tools/bench tools/soak tools/jca-bench \
  bindings/node/CMakeLists.txt bindings/node/webcrypto_node.c bindings/node/native

(cd "$stage" && npm pack --silent --pack-destination "$out" >"$tmp/pack.out" 2>"$tmp/pack.err") || {
  echo "pack-node: npm pack failed: $(tail -5 "$tmp/pack.err" | tr '\n' ' ')" >&2
  exit 1
}
tgz=$out/$(tail -1 "$tmp/pack.out")
[ -f "$tgz" ] || { echo "pack-node: npm pack made no $tgz" >&2; exit 1; }
echo "$tgz"
