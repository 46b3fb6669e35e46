#!/usr/bin/env bash
# interop_test.sh - libwebcrypto against Node's crypto.subtle, both ways.
#
# Usage: bash interop_test.sh [--node-pinned VERSION | --node-system] [--binding ADDON]
#                            PATH-TO-interop_peer [BACKEND]
#   --node-pinned VERSION   the Node that tools/fetch-node.sh fetches from npm's
#                           registry (once; later runs reuse its cache)
#   --node-system           the machine's own: $WEBCRYPTO_NODE, else node or
#                           nodejs on PATH (the default)
#   --binding ADDON         the JS side is not Node's crypto.subtle but the
#                           library's Node binding (bindings/node/index.js)
#                           on BACKEND, with the addon ADDON (webcrypto.node,
#                           as $WEBCRYPTO_NODE_ADDON), run by that Node
#   BACKEND                 the library's backend for its side, and the
#                           binding's (default: the default)
#
# Three phases exchange files through a temporary directory:
#   1. node node_peer.js produce   Node's (or the binding's) keys (spki, pkcs8, raw, jwk), signatures,
#                                  RSA-OAEP/AES ciphertexts, HMACs, ECDH/X25519
#                                  secrets and wrapped keys -> node.json
#   2. interop_peer                the library checks all of node.json, then makes
#                                  its own -> c.json
#   3. node node_peer.js consume   Node checks c.json
# Every check prints one line ("ok   - ", "FAIL - ", "skip - ", with the side
# that made it); then judge.js gives the verdict: a failure that a defect
# listed for this Node in known_node_defects.js (with --binding: for the
# binding on BACKEND, in known_binding_defects.js) explains is printed as
# "known ... defect: ..." and counted apart, anything else fails.
# The last line is "N passed, N failed, N known ... defects, N skipped".
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
ADDON=
if [ "${1:-}" = --binding ]; then
    ADDON=${2:-}
    shift 2
fi
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
if [ -n "$ADDON" ] && [ ! -f "$ADDON" ]; then
    echo "FAIL - the Node binding's addon $ADDON was not built"
    echo "0 passed, 1 failed"
    exit 1
fi
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

# The jca tests' LD_PRELOAD (the JDK's signal chaining) is for the library's
# side only, not for Node's crypto.subtle; the binding on jca starts the JVM
# inside node, so there node keeps it (as tests/node.cmake's jca tests do).
PEER_ENV=()
NODE_ENV=()
if [ -n "${LD_PRELOAD:-}" ]; then
    PEER_ENV=(env "LD_PRELOAD=$LD_PRELOAD")
    [ -n "$ADDON" ] && NODE_ENV=(env "LD_PRELOAD=$LD_PRELOAD")
fi
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
JS=("$NODE" "$HERE/node_peer.js")
JUDGE=("$VERSION")
if [ -n "$ADDON" ]; then
    if ! "$NODE" -e 'process.exit(Number(process.versions.napi) >= 8 ? 0 : 1)' >/dev/null 2>&1; then
        unavailable "$NODE v$VERSION lacks Node-API 8, which the binding needs"
    fi
    export WEBCRYPTO_NODE_ADDON=$ADDON
    JSB=${BACKEND:-openssl}
    JS=("${NODE_ENV[@]}" "$NODE" "$HERE/node_peer.js" --binding "$JSB")
    JUDGE=("$VERSION" --binding "$JSB")
    echo "# peer: the Node binding on $JSB ($ADDON), run by node $VERSION ($NODE); the library's backend: ${BACKEND:-the default}"
else
    echo "# peer: node $VERSION ($NODE) crypto.subtle; the library's backend: ${BACKEND:-the default}"
fi

# phase NAME COMMAND...: runs one phase and adds its lines to all.log. A phase
# that dies before its summary line adds one failure more.
phase() {
    local name=$1; shift
    "$@" >"$T/$name.log" 2>"$T/$name.err"
    local rc=$?
    grep -E '^(ok   - |FAIL - |skip - |# )' "$T/$name.log" >>"$T/all.log"
    if ! grep -Eq '^(node|binding|c): [0-9]+ passed, [0-9]+ failed' "$T/$name.log"; then
        echo "FAIL - $name: ended without its summary (exit $rc)" >>"$T/all.log"
        sed 's/^/# stderr: /' "$T/$name.err" | head -20 >>"$T/all.log"
    elif [ "$rc" -ne 0 ] && ! grep -q '^FAIL - ' "$T/$name.log"; then
        echo "FAIL - $name: exit $rc without a failed check" >>"$T/all.log"
        sed 's/^/# stderr: /' "$T/$name.err" | head -20 >>"$T/all.log"
    fi
}

: >"$T/all.log"
phase node-produce "${JS[@]}" produce "$T/node.json"
if [ -s "$T/node.json" ]; then
    phase c-peer "${PEER_ENV[@]}" "$PEER" "$T/node.json" "$T/c.json" ${BACKEND:+"$BACKEND"}
else
    echo "FAIL - the JS side wrote no manifest: nothing for the library to check" >>"$T/all.log"
fi
if [ -s "$T/c.json" ]; then
    phase node-consume "${JS[@]}" consume "$T/c.json" "$T/node.json"
else
    echo "FAIL - the library wrote no manifest: nothing for the JS side to check" >>"$T/all.log"
fi

"$NODE" "$HERE/judge.js" "${JUDGE[@]}" "$T/all.log" >"$T/verdict" 2>&1
rc=$?
cat "$T/verdict"
if ! grep -Eq '^[0-9]+ passed, [0-9]+ failed, ' "$T/verdict"; then
    echo "FAIL - judge.js gave no verdict (exit $rc); the checks were:"
    cat "$T/all.log"
    exit 1
fi
exit "$rc"
