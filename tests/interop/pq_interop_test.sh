#!/usr/bin/env bash
# pq_interop_test.sh - ML-KEM-768 and ML-DSA-65 between the library (through
# the webcrypto CLI, on BACKEND) and the pinned Node 24's crypto.subtle, both
# ways: keys in every format byte for byte, encapsulations, signatures.
#   bash pq_interop_test.sh NODE_VERSION PATH-TO-webcrypto BACKEND
# 77 (a CTest skip, with the reason) when that Node cannot be had or the
# backend lacks ML-KEM-768 / ML-DSA-65 (a JDK before 24 on jca; OpenSSL 3.0),
# except under CI=true for the Node. Node 24 signs ML-DSA with a context too;
# the jca backend cannot (docs/JCA.md), so only the empty context is crossed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PINNED=$1 WC=$2 BACKEND=$3
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
PASS=0 FAIL=0
pass() { PASS=$((PASS + 1)); echo "ok   - $1"; }
fail() { FAIL=$((FAIL + 1)); echo "FAIL - $1${2:+: $2}"; }
check() { local name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }

if ! "$WC" --backend "$BACKEND" backends 2>/dev/null | grep -Eq '^  algorithms:.* ML-KEM-768 .*ML-DSA-65( |$)'; then
    echo "skipped: backend $BACKEND lacks ML-KEM-768 or ML-DSA-65 ($("$WC" --backend "$BACKEND" backends 2>&1 | head -n 1))"
    exit 77
fi
# The jca tests' LD_PRELOAD is for the library's side only.
LIB_ENV=()
[ -n "${LD_PRELOAD:-}" ] && LIB_ENV=(env "LD_PRELOAD=$LD_PRELOAD")
unset LD_PRELOAD
if ! NODE=$(bash "$HERE/../../tools/fetch-node.sh" "$PINNED" 2>"$T/fetch.err"); then
    if [ "${CI:-}" = true ]; then echo "FAIL - the pinned node $PINNED could not be fetched"; exit 1; fi
    echo "skipped: the pinned node $PINNED could not be fetched: $(tr '\n' ' ' <"$T/fetch.err")"
    exit 77
fi
echo "# peer: node $("$NODE" --version) crypto.subtle; the library: webcrypto --backend $BACKEND"
wc() { "${LIB_ENV[@]}" "$WC" --backend "$BACKEND" "$@"; }
printf 'a message for ML-DSA' >"$T/msg"

# 1. Node's keys, encapsulation and signature
if ! "$NODE" "$HERE/pq_node_peer.js" produce "$T" >"$T/node1.log" 2>&1; then
    cat "$T/node1.log"; echo "FAIL - node produce"; exit 1
fi
cat "$T/node1.log"
# 2. the library reads them
run_out() { wc "$@" >"$T/out" 2>"$T/err"; }
run_out decapsulate ML-KEM-768 --key "$T/node_kem.jwk" "$T/node_kem.ct"
check "ML-KEM-768: the library decapsulates Node's encapsulation with Node's JWK key" \
    cmp -s "$T/out" "$T/node_kem.shared"
run_out import --alg ML-KEM-768 --format pkcs8 --out "$T/from_pkcs8.jwk" "$T/node_kem.pkcs8"
run_out export --key "$T/from_pkcs8.jwk" --alg ML-KEM-768 --format pkcs8 --out "$T/back.pkcs8"
check "ML-KEM-768: Node's pkcs8 (seed form) imports and exports to the same bytes" \
    cmp -s "$T/back.pkcs8" "$T/node_kem.pkcs8"
run_out export --key "$T/node_kem.jwk" --alg ML-KEM-768 --format raw-seed --out "$T/seed"
check "ML-KEM-768: Node's JWK priv is the seed Node exports as raw-seed" \
    cmp -s "$T/seed" "$T/node_kem.seed"
run_out export --key "$T/node_kem.pub.jwk" --alg ML-KEM-768 --format spki --out "$T/spki"
check "ML-KEM-768: the library's spki of Node's public JWK equals Node's spki" \
    cmp -s "$T/spki" "$T/node_kem.spki"
run_out export --key "$T/node_kem.pub.jwk" --alg ML-KEM-768 --format raw-public --out "$T/raw"
check "ML-KEM-768: ... and its raw-public Node's" cmp -s "$T/raw" "$T/node_kem.raw"
run_out verify ML-DSA-65 --key "$T/node_dsa.pub.jwk" --signature "$(tr -d '\n' <"$T/node_dsa.sig")" "$T/msg"
check "ML-DSA-65: the library verifies Node's signature" grep -qx true "$T/out"
run_out export --key "$T/node_dsa.jwk" --alg ML-DSA-65 --format pkcs8 --out "$T/dsa.pkcs8"
check "ML-DSA-65: the library's pkcs8 of Node's JWK equals Node's pkcs8" \
    cmp -s "$T/dsa.pkcs8" "$T/node_dsa.pkcs8"
# 3. the library's keys, encapsulation and signature, for Node
run_out generate-key ML-KEM-768 --out-private "$T/c_kem.jwk" --out-public "$T/c_kem.pub.jwk"
run_out export --key "$T/c_kem.jwk" --alg ML-KEM-768 --format raw-seed --out "$T/c_kem.seed"
run_out export --key "$T/c_kem.jwk" --alg ML-KEM-768 --format pkcs8 --out "$T/c_kem.pkcs8"
run_out export --key "$T/c_kem.pub.jwk" --alg ML-KEM-768 --format spki --out "$T/c_kem.spki"
run_out export --key "$T/c_kem.pub.jwk" --alg ML-KEM-768 --format raw-public --out "$T/c_kem.raw"
wc encapsulate ML-KEM-768 --key "$T/node_kem.pub.jwk" >"$T/c_encaps.txt" 2>"$T/err"
check "ML-KEM-768: the library encapsulates to Node's public key" test -s "$T/c_encaps.txt"
run_out generate-key ML-DSA-65 --out-private "$T/c_dsa.jwk" --out-public "$T/c_dsa.pub.jwk"
run_out export --key "$T/c_dsa.jwk" --alg ML-DSA-65 --format pkcs8 --out "$T/c_dsa.pkcs8"
wc sign ML-DSA-65 --key "$T/c_dsa.jwk" "$T/msg" >"$T/c_dsa.sig" 2>"$T/err"
check "ML-DSA-65: the library signs" test -s "$T/c_dsa.sig"
if "$NODE" "$HERE/pq_node_peer.js" consume "$T" >"$T/node2.log" 2>&1; then
    pass "node consume"
else
    fail "node consume"
fi
cat "$T/node2.log"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
