#!/usr/bin/env bash
# interop_test.sh - libwebcrypto against Node's crypto.subtle, both ways.
#
# Usage: bash interop_test.sh [--node-pinned VERSION | --node-system] PATH-TO-interop_peer [BACKEND]
#   --node-pinned VERSION   the Node that tools/fetch-node.sh fetches from npm's
#                           registry (once; later runs reuse its cache)
#   --node-system           the machine's own: $WEBCRYPTO_NODE, else node or
#                           nodejs on PATH (the default)
#   BACKEND                 the library's backend for its side (default: the default)
#
# Three phases exchange files through a temporary directory:
#   1. node node_peer.js produce   Node's keys (spki, pkcs8, raw, jwk), signatures,
#                                  RSA-OAEP/AES ciphertexts, HMACs, ECDH/X25519
#                                  secrets and wrapped keys -> node.json
#   2. interop_peer                the library checks all of node.json, then makes
#                                  its own -> c.json
#   3. node node_peer.js consume   Node checks c.json
# Every check prints one line ("ok   - ", "FAIL - ", "skip - ", with the side
# that made it); then judge.js gives the verdict: a failure that a defect
# listed for this Node in known_node_defects.js explains is printed as
# "known Node <version> defect: ..." and counted apart, anything else fails.
# The last line is "N passed, N failed, N known Node <version> defects, N skipped".
# Exit 1 if a check failed; 77 (a CTest skip, with the reason) without that
# Node or without crypto.subtle, except under CI=true, where that fails too.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
MODE=system
PINNED=
case ${1:-} in
    --node-pinned) MODE=pinned; PINNED=${2:-}; shift 2 ;;
    --node-system) shift ;;
esac
PEER=${1:-}
BACKEND=${2:-}

# unavailable REASON: the test cannot run here. CI must run it, so there it fails.
unavailable() {
    if [ "${CI:-}" = true ]; then
        echo "FAIL - $1 (CI=true: the interop test must run)"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "skipped: $1"
    exit 77
}

if [ -z "$PEER" ] || [ ! -x "$PEER" ]; then
    echo "skipped: interop_peer executable not found (${PEER:-no path given})"
    exit 77
fi
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

# The jca tests' LD_PRELOAD (the JDK's signal chaining) is for the library's
# side only, not for node.
PEER_ENV=()
[ -n "${LD_PRELOAD:-}" ] && PEER_ENV=(env "LD_PRELOAD=$LD_PRELOAD")
unset LD_PRELOAD

if [ "$MODE" = pinned ]; then
    if ! NODE=$(bash "$HERE/../../tools/fetch-node.sh" "$PINNED" 2>"$T/fetch.err"); then
        unavailable "the pinned node $PINNED could not be fetched: $(tr '\n' ' ' <"$T/fetch.err")"
    fi
else
    NODE=${WEBCRYPTO_NODE:-$(command -v node || command -v nodejs)}
    if [ -z "$NODE" ] || ! command -v "$NODE" >/dev/null 2>&1; then
        unavailable "no node on PATH (install nodejs, or set WEBCRYPTO_NODE): no interop test with the system's Node"
    fi
fi
if ! "$NODE" -e 'process.exit(require("crypto").webcrypto && require("crypto").webcrypto.subtle ? 0 : 1)' \
        >/dev/null 2>&1; then
    unavailable "$NODE $("$NODE" --version 2>/dev/null) has no crypto.webcrypto.subtle"
fi
VERSION=$("$NODE" --version)
VERSION=${VERSION#v}
echo "# peer: node $VERSION ($NODE) crypto.subtle; the library's backend: ${BACKEND:-the default}"

# phase NAME COMMAND...: runs one phase and adds its lines to all.log. A phase
# that dies before its summary line adds one failure more.
phase() {
    local name=$1; shift
    "$@" >"$T/$name.log" 2>"$T/$name.err"
    local rc=$?
    grep -E '^(ok   - |FAIL - |skip - |# )' "$T/$name.log" >>"$T/all.log"
    if ! grep -Eq '^(node|c): [0-9]+ passed, [0-9]+ failed' "$T/$name.log"; then
        echo "FAIL - $name: ended without its summary (exit $rc)" >>"$T/all.log"
        sed 's/^/# stderr: /' "$T/$name.err" | head -20 >>"$T/all.log"
    elif [ "$rc" -ne 0 ] && ! grep -q '^FAIL - ' "$T/$name.log"; then
        echo "FAIL - $name: exit $rc without a failed check" >>"$T/all.log"
        sed 's/^/# stderr: /' "$T/$name.err" | head -20 >>"$T/all.log"
    fi
}

: >"$T/all.log"
phase node-produce "$NODE" "$HERE/node_peer.js" produce "$T/node.json"
if [ -s "$T/node.json" ]; then
    phase c-peer "${PEER_ENV[@]}" "$PEER" "$T/node.json" "$T/c.json" ${BACKEND:+"$BACKEND"}
else
    echo "FAIL - node wrote no manifest: nothing for the library to check" >>"$T/all.log"
fi
if [ -s "$T/c.json" ]; then
    phase node-consume "$NODE" "$HERE/node_peer.js" consume "$T/c.json" "$T/node.json"
else
    echo "FAIL - the library wrote no manifest: nothing for node to check" >>"$T/all.log"
fi

"$NODE" "$HERE/judge.js" "$VERSION" "$T/all.log" >"$T/verdict" 2>&1
rc=$?
cat "$T/verdict"
if ! grep -Eq '^[0-9]+ passed, [0-9]+ failed, ' "$T/verdict"; then
    echo "FAIL - judge.js gave no verdict (exit $rc); the checks were:"
    cat "$T/all.log"
    exit 1
fi
exit "$rc"
