#!/usr/bin/env bash
# Fetches and builds OpenSSL 3.5, the second OpenSSL the openssl backend is
# tested against (issue #27; Debian 12's own is 3.0), once, and prints the
# directory it is installed in (include/, lib/libcrypto.so.3, lib/pkgconfig/).
#
#   tools/fetch-openssl.sh            fetch and build it unless it is cached
#   tools/fetch-openssl.sh --cached   only the cached build (no network, no build)
#
# The source is Debian 13's (trixie) `openssl` source package, fetched by apt
# (tools/apt-source.sh: a private apt state directory whose deb-src entries
# reuse the machine's own apt URIs; apt checks each file against the suite's
# signed index). Whichever 3.5.x the archive serves is taken; only the
# upstream tarball is built (Debian's packaging patches are not applied):
# its libraries alone (libcrypto, libssl, their headers and pkg-config
# files; no `openssl` program, no loadable modules: the tests load
# libcrypto, whose default provider is built in), shared, without docs or
# tests, into
#   ${WEBCRYPTO_NODE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/libwebcrypto}/openssl-<version>/
# through a temporary directory renamed into place when the install is
# complete, which later runs reuse without touching the network. Parallel
# callers are serialised with flock. A build takes some minutes on two cores.
#
# The build's time goes to stderr (a cold CI run pays it once).
#
# Exit status: 0 with the directory on stdout; 1 when the source could not be
# fetched (no network: the caller may skip), the build failed, or (--cached)
# there is no complete build in the cache. The reason
# goes to stderr.
set -euo pipefail

cache=${WEBCRYPTO_NODE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/libwebcrypto}
mkdir -p "$cache"

# The newest complete 3.5 build here: no network.
cached() {
  local d
  for d in $(ls -d "$cache"/openssl-3.5.* 2>/dev/null | sort -V -r); do
    [ -f "$d/.complete" ] && [ -f "$d/lib/libcrypto.so.3" ] && { echo "$d"; return 0; }
  done
  return 1
}
cached && exit 0
if [ "${1:-}" = --cached ]; then
  echo "fetch-openssl: OpenSSL 3.5 is not built in $cache (run tools/fetch-openssl.sh)" >&2
  exit 1
fi

exec 9>"$cache/.openssl.lock"
flock 9
cached && exit 0 # another caller built it meanwhile

for tool in apt-get tar make perl cc; do
  command -v "$tool" >/dev/null || { echo "fetch-openssl: $tool is missing (tools/install-deps.sh installs it)" >&2; exit 1; }
done
tmp=$(mktemp -d "$cache/.openssl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/apt-source.sh" trixie openssl '3.5.*' "$tmp/dl" || true
orig=$(ls "$tmp"/dl/openssl_3.5.*.orig.tar.gz 2>/dev/null | head -1)
if [ -z "$orig" ]; then
  echo "fetch-openssl: apt could not fetch OpenSSL 3.5's source (Debian 13's openssl source package)" >&2
  exit 1
fi
version=$(basename "$orig" .orig.tar.gz)
version=${version#openssl_}
echo "fetch-openssl: building OpenSSL $version (once; into $cache/openssl-$version)" >&2
started=$SECONDS
mkdir "$tmp/src"
tar -xzf "$orig" -C "$tmp/src" --strip-components=1
dest=$cache/openssl-$version
stage=$tmp/install
# --prefix is where the library looks for its modules and configuration at
# run time, so it is the final directory; the files go through DESTDIR into
# the stage, which is moved there whole. install_dev installs the libraries,
# headers and pkg-config files; the default configuration file is copied
# (install_ssldirs would want the programs built too).
if ! (cd "$tmp/src" &&
  ./Configure --prefix="$dest" --libdir=lib --openssldir="$dest/ssl" shared no-docs no-tests \
    no-module no-legacy linux-x86_64 >"$tmp/build.log" 2>&1 &&
  make -j "$(nproc)" build_libs >>"$tmp/build.log" 2>&1 &&
  make DESTDIR="$stage" install_dev >>"$tmp/build.log" 2>&1 &&
  mkdir -p "$stage$dest/ssl" && cp apps/openssl.cnf "$stage$dest/ssl/openssl.cnf"); then
  tail -20 "$tmp/build.log" >&2
  echo "fetch-openssl: building OpenSSL $version failed" >&2
  exit 1
fi
rm -rf "$dest"
mv "$stage$dest" "$dest"
# The version the library itself reports (a program built against it).
printf '#include <stdio.h>\n#include <openssl/crypto.h>\nint main(void) { puts(OpenSSL_version(OPENSSL_VERSION)); return 0; }\n' >"$tmp/v.c"
got=$(cc -I"$dest/include" "$tmp/v.c" -L"$dest/lib" -lcrypto -o "$tmp/v" 2>&1 &&
  LD_LIBRARY_PATH=$dest/lib "$tmp/v" | awk '{print $2}')
if [ "$got" != "$version" ]; then
  echo "fetch-openssl: the build says it is OpenSSL $got, not $version" >&2
  rm -rf "$dest"
  exit 1
fi
touch "$dest/.complete"
echo "fetch-openssl: OpenSSL $version built in $((SECONDS - started)) s" >&2
echo "$dest"
