#!/usr/bin/env bash
# run.sh - runs one of the binding's test scripts on a given Node.
#
# Usage: bash run.sh --node-pinned VERSION | --node-system  ADDON  SCRIPT [ARGS...]
#   --node-pinned VERSION   the Node that tools/fetch-node.sh fetches from npm's
#                           registry once (later runs reuse its cache)
#   --node-system           the machine's own: $WEBCRYPTO_NODE, else node or
#                           nodejs on PATH
#   ADDON                   the webcrypto.node CMake built ($WEBCRYPTO_NODE_ADDON)
#   SCRIPT                  bindings/node/test/<SCRIPT> (differential.js, load.js)
# Exit 77 (a CTest skip, saying why) when that Node cannot be had, is older
# than Node-API 8 or has no crypto.subtle to compare with - except under
# CI=true, where that fails.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
case ${1:-} in
    --node-pinned) MODE=pinned; PINNED=${2:-}; shift 2 ;;
    --node-system) MODE=system; shift ;;
    *) echo "usage: run.sh --node-pinned VERSION | --node-system ADDON SCRIPT [ARGS...]" >&2; exit 2 ;;
esac
ADDON=${1:-}
SCRIPT=${2:-}
shift 2 || true

unavailable() {
    if [ "${CI:-}" = true ]; then
        echo "FAIL - $1 (CI=true: the Node binding's tests must run)"
        exit 1
    fi
    echo "skipped: $1"
    exit 77
}

if [ -z "$ADDON" ] || [ ! -f "$ADDON" ]; then
    echo "FAIL - the addon ${ADDON:-(no path given)} was not built"
    exit 1
fi
if [ "$MODE" = pinned ]; then
    err=$(mktemp)
    if ! NODE=$(bash "$HERE/../../../tools/fetch-node.sh" "$PINNED" 2>"$err"); then
        msg=$(tr '\n' ' ' <"$err"); rm -f "$err"
        unavailable "the pinned node $PINNED could not be fetched: $msg"
    fi
    rm -f "$err"
else
    NODE=${WEBCRYPTO_NODE:-$(command -v node || command -v nodejs)}
    if [ -z "$NODE" ] || ! command -v "$NODE" >/dev/null 2>&1; then
        unavailable "no node on PATH (install nodejs, or set WEBCRYPTO_NODE)"
    fi
fi
if ! "$NODE" -e 'process.exit(Number(process.versions.napi) >= 8 && require("crypto").webcrypto && require("crypto").webcrypto.subtle ? 0 : 1)' \
        >/dev/null 2>&1; then
    unavailable "$NODE $("$NODE" --version 2>/dev/null) lacks Node-API 8 or crypto.webcrypto.subtle"
fi
echo "# node $("$NODE" --version) ($NODE), addon $ADDON"
export WEBCRYPTO_NODE_ADDON=$ADDON
exec "$NODE" --expose-gc "$HERE/$SCRIPT" "$@"
