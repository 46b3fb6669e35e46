#!/usr/bin/env bash
# Runs one test on OpenSSL 3.5's libcrypto instead of the system's 3.0: the
# same libwebcrypto build, the other library loaded through LD_LIBRARY_PATH
# (issue #27: one build, any OpenSSL 3.x at run time; capabilities probed).
#   openssl35_run.sh SOURCE_DIR WEBCRYPTO_CLI COMMAND [ARGS...]
# The OpenSSL is tools/fetch-openssl.sh's cached build (tools/test.sh fetches
# it before the tests). Without it the test is skipped (77) saying why, and
# fails under CI=true. Before COMMAND runs, the CLI must report the openssl
# backend on OpenSSL 3.5: a test meant for 3.5 never passes on another.
set -u
src=$1 cli=$2
shift 2
. "$src/tests/openssl35_find.sh"
openssl35_find "$src"
dir=$OPENSSL35_DIR
export LD_LIBRARY_PATH=$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
first=$("$cli" --backend openssl backends 2>&1 | grep -m1 "^openssl")
case "$first" in
  *"available - OpenSSL 3.5."*) echo "openssl35_run: $first" ;;
  *) echo "FAIL: with LD_LIBRARY_PATH=$dir/lib the openssl backend is not on OpenSSL 3.5: $first"
     exit 1 ;;
esac
exec "$@"
