#!/usr/bin/env bash
# pq_interop_test.sh - ML-KEM-768 and ML-DSA-65 between the library (through
# the webcrypto CLI, on BACKEND) and a JS side, both ways: keys in every
# format byte for byte, encapsulations, signatures.
#   bash pq_interop_test.sh [--binding ADDON] NODE PATH-TO-webcrypto BACKEND
#   NODE             a Node release that tools/fetch-node.sh fetches (the
#                    pinned 24), or "system": $WEBCRYPTO_NODE, else node or
#                    nodejs on PATH
#   --binding ADDON  the JS side is not Node's crypto.subtle but the library's
#                    Node binding (bindings/node/index.js) on BACKEND, with the
#                    addon ADDON (as $WEBCRYPTO_NODE_ADDON), run by that Node:
#                    the binding has the algorithms on a Node that lacks them
# The algorithms exchanged are those of ML-KEM-768 and ML-DSA-65 that BACKEND
# lists (the CLI's "backends"; jca:SunJCE has ML-KEM only): the other one is a
# "skip" line. 77 (a CTest skip, with the reason) when the backend has neither
# (a JDK before 24 on jca; OpenSSL 3.0), or that Node cannot be had (except
# under CI=true), or, with --binding, it lacks Node-API 8. Signatures with a
# context string (ML-DSA-65, Ed448) cross both ways where the backend takes
# one (the CLI's "... context: yes": openssl on OpenSSL 3.5; the jca backend
# has no ML-DSA context, docs/JCA.md); elsewhere that is a "skip" line.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ADDON=
if [ "${1:-}" = --binding ]; then
    ADDON=${2:-}
    shift 2
fi
PINNED=${1:-} WC=${2:-} BACKEND=${3:-}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
PASS=0 FAIL=0 SKIP=0
pass() { PASS=$((PASS + 1)); echo "ok   - $1"; }
fail() { FAIL=$((FAIL + 1)); echo "FAIL - $1${2:+: $2}"; }
skip() { SKIP=$((SKIP + 1)); echo "skip - $1"; }
check() { local name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }
unavailable() {
    if [ "${CI:-}" = true ]; then echo "FAIL - $1 (CI=true: the interop test must run)"; exit 1; fi
    echo "skipped: $1"
    exit 77
}

if [ -z "$WC" ] || [ ! -x "$WC" ]; then
    echo "skipped: the webcrypto CLI not found (${WC:-no path given})"
    exit 77
fi
if [ -n "$ADDON" ] && [ ! -f "$ADDON" ]; then
    echo "FAIL - the Node binding's addon $ADDON was not built"
    exit 1
fi
# The jca tests' LD_PRELOAD (the JDK's signal chaining) is for the library's
# side, and for the binding (its JVM runs inside node), not for Node's own.
LIB_ENV=()
JS_ENV=()
if [ -n "${LD_PRELOAD:-}" ]; then
    LIB_ENV=(env "LD_PRELOAD=$LD_PRELOAD")
    [ -n "$ADDON" ] && JS_ENV=(env "LD_PRELOAD=$LD_PRELOAD")
fi
unset LD_PRELOAD
LISTED=$("${LIB_ENV[@]}" "$WC" --backend "$BACKEND" backends 2>&1)
ALGS=
for a in ML-KEM-768 ML-DSA-65; do
    if printf '%s\n' "$LISTED" | grep -Eq "^  algorithms:.* $a( |\$)"; then
        ALGS=${ALGS:+$ALGS,}$a
    fi
done
if [ -z "$ALGS" ]; then
    echo "skipped: backend $BACKEND lacks ML-KEM-768 and ML-DSA-65 ($(printf '%s\n' "$LISTED" | head -n 1))"
    exit 77
fi
HAS() { case ",$ALGS," in *",$1,"*) return 0 ;; esac; return 1; }
# Signatures with a context string, where the backend takes one (the CLI's
# "ML-DSA context: yes", "Ed448 context: yes"; jca has no ML-DSA context).
CTXS=
if HAS ML-DSA-65 && printf '%s\n' "$LISTED" | grep -qx '  ML-DSA context: yes'; then
    CTXS=ML-DSA-65
fi
if printf '%s\n' "$LISTED" | grep -qx '  Ed448 context: yes'; then
    CTXS=${CTXS:+$CTXS,}Ed448
fi
HASCTX() { case ",$CTXS," in *",$1,"*) return 0 ;; esac; return 1; }
if [ "$PINNED" = system ]; then
    NODE=${WEBCRYPTO_NODE:-$(command -v node || command -v nodejs)}
    if [ -z "$NODE" ] || ! command -v "$NODE" >/dev/null 2>&1; then
        unavailable "no node on PATH (install nodejs, or set WEBCRYPTO_NODE)"
    fi
elif ! NODE=$(bash "$HERE/../../tools/fetch-node.sh" "$PINNED" 2>"$T/fetch.err"); then
    unavailable "the pinned node $PINNED could not be fetched: $(tr '\n' ' ' <"$T/fetch.err")"
fi
JS=("$NODE" "$HERE/pq_node_peer.js" --algs "$ALGS" --contexts "$CTXS")
if [ -n "$ADDON" ]; then
    if ! "$NODE" -e 'process.exit(Number(process.versions.napi) >= 8 ? 0 : 1)' >/dev/null 2>&1; then
        unavailable "$NODE $("$NODE" --version) lacks Node-API 8, which the binding needs"
    fi
    export WEBCRYPTO_NODE_ADDON=$ADDON
    JS=("${JS_ENV[@]}" "$NODE" "$HERE/pq_node_peer.js" --binding "$BACKEND" --algs "$ALGS" --contexts "$CTXS")
    SIDE=binding JSN="the binding"
    echo "# peer: the Node binding on $BACKEND ($ADDON), run by node $("$NODE" --version) ($NODE); the library: webcrypto --backend $BACKEND; exchanged: $ALGS; with a context: ${CTXS:-none}"
else
    SIDE=node JSN=Node
    echo "# peer: node $("$NODE" --version) crypto.subtle; the library: webcrypto --backend $BACKEND; exchanged: $ALGS; with a context: ${CTXS:-none}"
fi
HAS ML-KEM-768 || skip "ML-KEM-768: backend $BACKEND does not list it"
HAS ML-DSA-65 || skip "ML-DSA-65: backend $BACKEND does not list it"
HAS ML-DSA-65 && ! HASCTX ML-DSA-65 && skip "ML-DSA-65 with a context: backend $BACKEND has no ML-DSA context"
HASCTX Ed448 || skip "Ed448 with a context: backend $BACKEND has no Ed448 context"
wc() { "${LIB_ENV[@]}" "$WC" --backend "$BACKEND" "$@"; }
printf 'a message for ML-DSA' >"$T/msg"

# 1. the JS side's keys, encapsulation and signature
if ! "${JS[@]}" produce "$T" >"$T/node1.log" 2>&1; then
    cat "$T/node1.log"; echo "FAIL - $SIDE produce"; exit 1
fi
cat "$T/node1.log"
# 2. the library reads them
run_out() { wc "$@" >"$T/out" 2>"$T/err"; }
if HAS ML-KEM-768; then
run_out decapsulate ML-KEM-768 --key "$T/node_kem.jwk" "$T/node_kem.ct"
check "ML-KEM-768: the library decapsulates $JSN's encapsulation with $JSN's JWK key" \
    cmp -s "$T/out" "$T/node_kem.shared"
run_out import --alg ML-KEM-768 --format pkcs8 --out "$T/from_pkcs8.jwk" "$T/node_kem.pkcs8"
run_out export --key "$T/from_pkcs8.jwk" --alg ML-KEM-768 --format pkcs8 --out "$T/back.pkcs8"
check "ML-KEM-768: $JSN's pkcs8 (seed form) imports and exports to the same bytes" \
    cmp -s "$T/back.pkcs8" "$T/node_kem.pkcs8"
run_out export --key "$T/node_kem.jwk" --alg ML-KEM-768 --format raw-seed --out "$T/seed"
check "ML-KEM-768: $JSN's JWK priv is the seed $JSN exports as raw-seed" \
    cmp -s "$T/seed" "$T/node_kem.seed"
run_out export --key "$T/node_kem.pub.jwk" --alg ML-KEM-768 --format spki --out "$T/spki"
check "ML-KEM-768: the library's spki of $JSN's public JWK equals $JSN's spki" \
    cmp -s "$T/spki" "$T/node_kem.spki"
run_out export --key "$T/node_kem.pub.jwk" --alg ML-KEM-768 --format raw-public --out "$T/raw"
check "ML-KEM-768: ... and its raw-public $JSN's" cmp -s "$T/raw" "$T/node_kem.raw"
fi
if HAS ML-DSA-65; then
run_out verify ML-DSA-65 --key "$T/node_dsa.pub.jwk" --signature "$(tr -d '\n' <"$T/node_dsa.sig")" "$T/msg"
check "ML-DSA-65: the library verifies $JSN's signature" grep -qx true "$T/out"
run_out export --key "$T/node_dsa.jwk" --alg ML-DSA-65 --format pkcs8 --out "$T/dsa.pkcs8"
check "ML-DSA-65: the library's pkcs8 of $JSN's JWK equals $JSN's pkcs8" \
    cmp -s "$T/dsa.pkcs8" "$T/node_dsa.pkcs8"
fi
CONTEXT=$(printf 'interop context' | od -An -tx1 | tr -d ' \n') # pq_node_peer.js's CONTEXT
if HASCTX ML-DSA-65; then
run_out verify ML-DSA-65 --key "$T/node_dsa.pub.jwk" --context "$CONTEXT" \
    --signature "$(tr -d '\n' <"$T/node_dsa_ctx.sig")" "$T/msg"
check "ML-DSA-65: the library verifies $JSN's signature with a context" grep -qx true "$T/out"
run_out verify ML-DSA-65 --key "$T/node_dsa.pub.jwk" \
    --signature "$(tr -d '\n' <"$T/node_dsa_ctx.sig")" "$T/msg"
check "ML-DSA-65: ... and not without the context" grep -qx false "$T/out"
fi
if HASCTX Ed448; then
run_out verify Ed448 --key "$T/node_ed448.pub.jwk" --context "$CONTEXT" \
    --signature "$(tr -d '\n' <"$T/node_ed448_ctx.sig")" "$T/msg"
check "Ed448: the library verifies $JSN's signature with a context" grep -qx true "$T/out"
run_out verify Ed448 --key "$T/node_ed448.pub.jwk" \
    --signature "$(tr -d '\n' <"$T/node_ed448_ctx.sig")" "$T/msg"
check "Ed448: ... and not without the context" grep -qx false "$T/out"
fi
# 3. the library's keys, encapsulation and signature, for the JS side
if HAS ML-KEM-768; then
run_out generate-key ML-KEM-768 --out-private "$T/c_kem.jwk" --out-public "$T/c_kem.pub.jwk"
run_out export --key "$T/c_kem.jwk" --alg ML-KEM-768 --format raw-seed --out "$T/c_kem.seed"
run_out export --key "$T/c_kem.jwk" --alg ML-KEM-768 --format pkcs8 --out "$T/c_kem.pkcs8"
run_out export --key "$T/c_kem.pub.jwk" --alg ML-KEM-768 --format spki --out "$T/c_kem.spki"
run_out export --key "$T/c_kem.pub.jwk" --alg ML-KEM-768 --format raw-public --out "$T/c_kem.raw"
wc encapsulate ML-KEM-768 --key "$T/node_kem.pub.jwk" >"$T/c_encaps.txt" 2>"$T/err"
check "ML-KEM-768: the library encapsulates to $JSN's public key" test -s "$T/c_encaps.txt"
fi
if HAS ML-DSA-65; then
run_out generate-key ML-DSA-65 --out-private "$T/c_dsa.jwk" --out-public "$T/c_dsa.pub.jwk"
run_out export --key "$T/c_dsa.jwk" --alg ML-DSA-65 --format pkcs8 --out "$T/c_dsa.pkcs8"
wc sign ML-DSA-65 --key "$T/c_dsa.jwk" "$T/msg" >"$T/c_dsa.sig" 2>"$T/err"
check "ML-DSA-65: the library signs" test -s "$T/c_dsa.sig"
fi
if HASCTX ML-DSA-65; then
wc sign ML-DSA-65 --key "$T/c_dsa.jwk" --context "$CONTEXT" "$T/msg" >"$T/c_dsa_ctx.sig" 2>"$T/err"
check "ML-DSA-65: the library signs with a context" test -s "$T/c_dsa_ctx.sig"
fi
if HASCTX Ed448; then
run_out generate-key Ed448 --out-private "$T/c_ed448.jwk" --out-public "$T/c_ed448.pub.jwk"
wc sign Ed448 --key "$T/c_ed448.jwk" --context "$CONTEXT" "$T/msg" >"$T/c_ed448_ctx.sig" 2>"$T/err"
check "Ed448: the library signs with a context" test -s "$T/c_ed448_ctx.sig"
fi
if "${JS[@]}" consume "$T" >"$T/node2.log" 2>&1; then
    pass "$SIDE consume"
else
    fail "$SIDE consume"
fi
cat "$T/node2.log"
echo "$PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" -eq 0 ]
