#!/usr/bin/env bash
# ctest.sh - CTest's node.wpt.<node>.<backend> (tests/node.cmake): the WPT
# WebCryptoAPI suite on <backend>, compared with the same Node's own webcrypto.
#
# Usage: bash ctest.sh WPT_DIR --node-pinned VERSION | --node-system  ADDON  BACKEND
#   WPT_DIR  a web-platform-tests/wpt checkout; empty or "-": $WEBCRYPTO_WPT_DIR.
# tools/test.sh fetches the snapshot (tools/fetch-wpt.sh) before the tests and
# sets WEBCRYPTO_WPT_DIR, or, when that failed, WEBCRYPTO_WPT_FETCH_STATUS and
# WEBCRYPTO_WPT_FETCH_ERROR (fetch-wpt.sh's exit status and message).
# Exit 77 (a CTest skip, with the reason) when no checkout is named, or the
# download failed (no network: not this project's failure, so also under
# CI=true); 1 when the download's sha256 was not the pinned one. Otherwise
# run.sh picks the Node (and skips, or under CI=true fails, as the other node
# tests do) and runs wpt/run.js --compare-native: it fails on any subtest that
# Node's own webcrypto passes and the binding does not (but for those not
# applicable to a backend that lacks the algorithm: README).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
WPT=${1:-}
shift
[ "$WPT" = - ] && WPT= # "-": as empty (a caller that cannot pass an empty argument)
[ -n "$WPT" ] || WPT=${WEBCRYPTO_WPT_DIR:-}
if [ -z "$WPT" ]; then
    case ${WEBCRYPTO_WPT_FETCH_STATUS:-} in
        '') echo "skipped: WPT checkout not given: set WEBCRYPTO_WPT_DIR (CMake cache variable or environment;" \
                 "tools/fetch-wpt.sh prints one)"
            exit 77 ;;
        1) echo "skipped: the WPT snapshot could not be downloaded (tools/fetch-wpt.sh): ${WEBCRYPTO_WPT_FETCH_ERROR:-}"
           exit 77 ;;
        *) echo "FAIL - tools/fetch-wpt.sh failed (status $WEBCRYPTO_WPT_FETCH_STATUS): ${WEBCRYPTO_WPT_FETCH_ERROR:-}"
           exit 1 ;;
    esac
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
# WEBCRYPTO_WPT_JSON_DIR: each run's full results also as JSON there.
extra=()
if [ -n "${WEBCRYPTO_WPT_JSON_DIR:-}" ]; then
    extra=(--json "$WEBCRYPTO_WPT_JSON_DIR/wpt-${WHICH[0]#--node-}${WHICH[1]:-}-${BACKEND//:/-}.json")
fi
# WEBCRYPTO_WPT_NATIVE_CACHE (CTest sets it to the build's wpt-native/): Node's
# own run, the control, computed once per Node for every backend's run.
if [ -n "${WEBCRYPTO_WPT_NATIVE_CACHE:-}" ]; then
    extra+=(--native-cache "$WEBCRYPTO_WPT_NATIVE_CACHE")
fi
exec bash "$HERE/../run.sh" "${WHICH[@]}" "$ADDON" wpt/run.js --wpt-dir "$WPT" --backend "$BACKEND" \
    --compare-native --timeout-multiplier "${WEBCRYPTO_WPT_TIMEOUT_MULTIPLIER:-3}" "${extra[@]}"
