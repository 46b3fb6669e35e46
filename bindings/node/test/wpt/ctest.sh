#!/usr/bin/env bash
# ctest.sh - CTest's node.wpt.<node>.<backend> (tests/node.cmake): the WPT
# WebCryptoAPI suite on <backend>, compared with the same Node's own webcrypto.
#
# Usage: bash ctest.sh WPT_DIR --node-pinned VERSION | --node-system  ADDON  BACKEND
#   WPT_DIR  a web-platform-tests/wpt checkout; empty: $WEBCRYPTO_WPT_DIR.
# Exit 77 (a CTest skip, with the reason) when neither names one - also under
# CI=true: CI has no network, so no WPT checkout. Otherwise run.sh picks the
# Node (and skips, or under CI=true fails, as the other node tests do) and
# runs wpt/run.js --compare-native: it fails on any subtest that Node's own
# webcrypto passes and the binding does not.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
WPT=${1:-}
shift
[ -n "$WPT" ] || WPT=${WEBCRYPTO_WPT_DIR:-}
if [ -z "$WPT" ]; then
    echo "skipped: WPT checkout not given: set WEBCRYPTO_WPT_DIR (CMake cache variable or environment)"
    exit 77
fi
if [ ! -f "$WPT/resources/testharness.js" ] || [ ! -d "$WPT/WebCryptoAPI" ]; then
    echo "FAIL - WEBCRYPTO_WPT_DIR=$WPT is not a WPT checkout (no resources/testharness.js or WebCryptoAPI/)"
    exit 1
fi
case ${1:-} in
    --node-pinned) WHICH=("$1" "$2"); shift 2 ;;
    --node-system) WHICH=("$1"); shift ;;
    *) echo "usage: ctest.sh WPT_DIR --node-pinned VERSION | --node-system ADDON BACKEND" >&2; exit 2 ;;
esac
ADDON=$1
BACKEND=$2
exec bash "$HERE/../run.sh" "${WHICH[@]}" "$ADDON" wpt/run.js --wpt-dir "$WPT" --backend "$BACKEND" \
    --compare-native --timeout-multiplier "${WEBCRYPTO_WPT_TIMEOUT_MULTIPLIER:-3}"
