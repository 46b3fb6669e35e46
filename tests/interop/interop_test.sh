#!/usr/bin/env bash
# interop_test.sh - libwebcrypto against Node's crypto.subtle, both ways.
#
# Usage: bash interop_test.sh PATH-TO-interop_peer
#
# Three phases exchange files through a temporary directory:
#   1. node node_peer.js produce   Node's keys (spki, pkcs8, raw, jwk), signatures,
#                                  RSA-OAEP/AES ciphertexts, HMACs, ECDH/X25519
#                                  secrets and wrapped keys -> node.json
#   2. interop_peer                the library checks all of node.json, then makes
#                                  its own -> c.json
#   3. node node_peer.js consume   Node checks c.json
# Every check prints one line ("ok   - ", "FAIL - ", "skip - ", with the side
# that made it); the last line is "N passed, N failed". Exit 1 if a check
# failed; 77 (a CTest skip) without node or without crypto.subtle.
# $WEBCRYPTO_NODE names another node executable.
set -u

PEER=${1:-}
HERE=$(cd "$(dirname "$0")" && pwd)
NODE=${WEBCRYPTO_NODE:-node}

if [ -z "$PEER" ] || [ ! -x "$PEER" ]; then
    echo "skipped: interop_peer executable not found (${PEER:-no path given})"
    exit 77
fi
if ! command -v "$NODE" >/dev/null 2>&1; then
    echo "skipped: node not found (install nodejs, or set WEBCRYPTO_NODE): no interop test with Node's crypto.subtle"
    exit 77
fi
if ! "$NODE" -e 'process.exit(require("crypto").webcrypto && require("crypto").webcrypto.subtle ? 0 : 1)' \
        >/dev/null 2>&1; then
    echo "skipped: $("$NODE" --version 2>/dev/null) has no crypto.webcrypto.subtle"
    exit 77
fi
echo "# peer: node $("$NODE" --version) crypto.subtle"

T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

PASS=0
FAIL=0
SKIP=0
# phase NAME COMMAND...: runs one phase, shows its lines, adds its counts.
# A phase that dies before its summary line counts as one failure more.
phase() {
    local name=$1; shift
    "$@" >"$T/$name.log" 2>"$T/$name.err"
    local rc=$?
    grep -E '^(ok   - |FAIL - |skip - |# )' "$T/$name.log"
    local p f s
    p=$(grep -c '^ok   - ' "$T/$name.log")
    f=$(grep -c '^FAIL - ' "$T/$name.log")
    s=$(grep -c '^skip - ' "$T/$name.log")
    PASS=$((PASS + p)); FAIL=$((FAIL + f)); SKIP=$((SKIP + s))
    if ! grep -Eq '^(node|c): [0-9]+ passed, [0-9]+ failed' "$T/$name.log"; then
        FAIL=$((FAIL + 1))
        echo "FAIL - $name: ended without its summary (exit $rc)"
        sed 's/^/         stderr: /' "$T/$name.err" | head -20
    elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        FAIL=$((FAIL + 1))
        echo "FAIL - $name: exit $rc without a failed check"
        sed 's/^/         stderr: /' "$T/$name.err" | head -20
    fi
}

phase node-produce "$NODE" "$HERE/node_peer.js" produce "$T/node.json"
if [ -s "$T/node.json" ]; then
    phase c-peer "$PEER" "$T/node.json" "$T/c.json"
else
    FAIL=$((FAIL + 1)); echo "FAIL - node wrote no manifest: nothing for the library to check"
fi
if [ -s "$T/c.json" ]; then
    phase node-consume "$NODE" "$HERE/node_peer.js" consume "$T/c.json" "$T/node.json"
else
    FAIL=$((FAIL + 1)); echo "FAIL - the library wrote no manifest: nothing for node to check"
fi

[ "$SKIP" -gt 0 ] && echo "# $SKIP skipped (algorithms this Node lacks)"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
