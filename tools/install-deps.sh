#!/usr/bin/env bash
# Installs the Debian 12 packages libwebcrypto needs to build and test.
#   tools/install-deps.sh          the build and the test suite (npm, unless the
#                                  installed nodejs brings its own: tools/fetch-node.sh
#                                  fetches the pinned Node of the interop tests with
#                                  `npm pack`; xz-utils: tools/fetch-wpt.sh unpacks the
#                                  WPT snapshot that apt fetches;
#                                  valgrind, with valgrind/memcheck.h: the
#                                  constant-time tests, tests/ct.cmake)
#   tools/install-deps.sh --fuzz   also clang and libFuzzer's runtime (tests/fuzz.cmake)
# Uses sudo when not run as root. Skips apt entirely when all are present.
set -euo pipefail
packages=(build-essential cmake pkg-config libssl-dev libargon2-dev libjansson-dev libcmocka-dev
  android-libboringssl-dev openjdk-17-jdk-headless libbcprov-java nodejs ca-certificates xz-utils
  valgrind)
# clang-14 only recommends libclang-rt-14-dev, which holds libclang_rt.fuzzer.
[ "${1:-}" = "--fuzz" ] && packages+=(clang-14 libclang-rt-14-dev)
# Debian's nodejs has npm as a package of its own; a nodejs that ships npm
# (and conflicts with Debian's) is left alone. Checked after nodejs is there.
npm_missing() { ! command -v npm >/dev/null; }
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && ! npm_missing && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing: ${missing[*]}" >&2
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
if npm_missing; then
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends npm
fi
