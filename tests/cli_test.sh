#!/usr/bin/env bash
# cli_test.sh - end-to-end tests of the webcrypto command-line tool.
#
# Usage: bash cli_test.sh PATH-TO-webcrypto
# Prints one line per check and a final "N passed, N failed"; exits 1 if any
# check failed, 77 (skipped) if the tool is missing.
#
# Known answers are typed in from the standards (FIPS 180-4, NIST SP 800-38A,
# the GCM specification, RFC 4231, RFC 5869, RFC 6070, RFC 7914); where the
# openssl or node tools exist, the typed values are cross-checked with them too.
set -u

WC=${1:-}
if [ -z "$WC" ] || [ ! -x "$WC" ]; then
    echo "skipped: webcrypto executable not found (${WC:-no path given})"
    exit 77
fi

T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

PASS=0
FAIL=0
RC=0
HAVE_OPENSSL=false
command -v openssl >/dev/null 2>&1 && HAVE_OPENSSL=true
HAVE_NODE=false
command -v node >/dev/null 2>&1 && HAVE_NODE=true
HAVE_PYTHON=false
command -v python3 >/dev/null 2>&1 && python3 -c 'import json' >/dev/null 2>&1 && HAVE_PYTHON=true

pass() { PASS=$((PASS + 1)); echo "ok   - $1"; }
fail() {
    FAIL=$((FAIL + 1))
    echo "FAIL - $1${2:+ ($2)}"
    if [ -s "$T/err" ]; then sed 's/^/         stderr: /' "$T/err" | head -5; fi
}
skip() { echo "skip - $1"; }

# run ARGS...: the tool with stdin from /dev/null; stdout, stderr and exit
# status land in $T/out, $T/err and $RC.
run() { "$WC" "$@" </dev/null >"$T/out" 2>"$T/err"; RC=$?; }
# run_in FILE ARGS...: the same with stdin from FILE.
run_in() { local f=$1; shift; "$WC" "$@" <"$f" >"$T/out" 2>"$T/err"; RC=$?; }

hex() { od -An -v -tx1 "$1" | tr -d ' \n'; }
unhex() { printf '%b' "$(printf '%s' "$1" | sed 's/../\\x&/g')"; }
b64url() { unhex "$1" | base64 | tr -d '\n=' | tr '+/' '-_'; }
out_text() { cat "$T/out"; }

# check NAME CONDITION...: one check from a shell condition.
check() {
    local name=$1; shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}
# rc0 CONDITION...: the last run exited 0 and CONDITION holds.
rc0() { [ "$RC" -eq 0 ] && "$@"; }
matches() { [[ $1 =~ $2 ]]; }
same_nonempty() { [ -s "$1" ] && cmp -s "$1" "$2"; }
# is_hex STRING N: exactly N lowercase hex digits (regex counts stop at 255).
is_hex() { [ "${#1}" -eq "$2" ] && ! [[ $1 =~ [^0-9a-f] ]]; }

# expect_out NAME EXPECTED ARGS...: exit 0, stdout exactly EXPECTED + newline.
expect_out() {
    local name=$1 want=$2; shift 2
    run "$@"
    if [ "$RC" -ne 0 ]; then fail "$name" "exit $RC"; return; fi
    if printf '%s\n' "$want" | cmp -s - "$T/out"; then pass "$name"
    else fail "$name" "got '$(head -c 300 "$T/out")', want '$want'"; fi
}

# expect_err NAME KIND CODE ARGS...: exit CODE, nothing on stdout, and stderr
# "webcrypto: KIND: <non-empty message>".
expect_err_result() {
    local name=$1 kind=$2 code=$3
    if [ "$RC" -ne "$code" ]; then fail "$name" "exit $RC, want $code"; return; fi
    if [ -s "$T/out" ]; then fail "$name" "stdout not empty"; return; fi
    if ! head -n 1 "$T/err" | grep -Eq "^webcrypto: $kind: .+"; then
        fail "$name" "stderr lacks 'webcrypto: $kind: ...'"; return
    fi
    pass "$name"
}
expect_err() {
    local name=$1 kind=$2 code=$3; shift 3
    run "$@"
    expect_err_result "$name" "$kind" "$code"
}

# json_check FILE KTY ALG KEY_BYTES OPS: the JWK's members, OPS being the
# sorted key_ops joined with commas.
json_check() {
    local f=$1 kty=$2 alg=$3 len=$4 ops=$5
    if $HAVE_NODE; then
        node -e '
            const [f, kty, alg, len, ops] = process.argv.slice(1);
            let j;
            try { j = JSON.parse(require("fs").readFileSync(f, "utf8")); } catch (e) { process.exit(1); }
            const ok = j !== null && typeof j === "object" && j.kty === kty && j.alg === alg && j.ext === true &&
                typeof j.k === "string" && /^[A-Za-z0-9_-]+$/.test(j.k) &&
                Buffer.from(j.k, "base64url").length === Number(len) &&
                Array.isArray(j.key_ops) && [...j.key_ops].sort().join(",") === ops;
            process.exit(ok ? 0 : 1);' "$f" "$kty" "$alg" "$len" "$ops"
    elif $HAVE_PYTHON; then
        python3 -c '
import base64, json, re, sys
f, kty, alg, n, ops = sys.argv[1:]
j = json.load(open(f))
k = j.get("k", "")
ok = (j.get("kty") == kty and j.get("alg") == alg and j.get("ext") is True
      and isinstance(k, str) and re.fullmatch(r"[A-Za-z0-9_-]+", k) is not None
      and len(base64.urlsafe_b64decode(k + "=" * (-len(k) % 4))) == int(n)
      and ",".join(sorted(j.get("key_ops", []))) == ops)
sys.exit(0 if ok else 1)' "$f" "$kty" "$alg" "$len" "$ops" 2>/dev/null
    else
        # No JSON parser: the members must at least be there, textually.
        grep -q "\"kty\": *\"$kty\"" "$f" && grep -q "\"alg\": *\"$alg\"" "$f" &&
            grep -q '"ext": *true' "$f" && grep -q '"k": *"[A-Za-z0-9_-]*"' "$f"
    fi
}

printf 'abc' >"$T/abc"
: >"$T/empty"
head -c 1060003 /dev/urandom >"$T/big"   # not a multiple of the tool's 64 KiB chunks
head -c 100003 /dev/urandom >"$T/data"

# ---------------------------------------------------------------- digest
SHA1_ABC=a9993e364706816aba3e25717850c26c9cd0d89d
SHA256_ABC=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
SHA384_ABC=cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7
SHA512_ABC=ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f
SHA256_EMPTY=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855

expect_out "digest SHA-1 abc (FIPS 180-4)" $SHA1_ABC digest SHA-1 "$T/abc"
expect_out "digest SHA-256 abc (FIPS 180-4)" $SHA256_ABC digest SHA-256 "$T/abc"
expect_out "digest SHA-384 abc (FIPS 180-4)" $SHA384_ABC digest SHA-384 "$T/abc"
expect_out "digest SHA-512 abc (FIPS 180-4)" $SHA512_ABC digest SHA-512 "$T/abc"
if $HAVE_OPENSSL; then
    for pair in "sha1 $SHA1_ABC" "sha256 $SHA256_ABC" "sha384 $SHA384_ABC" "sha512 $SHA512_ABC"; do
        set -- $pair
        check "typed $1(abc) vector agrees with openssl dgst" \
            [ "$(openssl dgst -"$1" -r <"$T/abc" | cut -d' ' -f1)" = "$2" ]
    done
else
    skip "vector cross-check with openssl dgst (no openssl)"
fi
run_in "$T/abc" digest SHA-256
check "digest from stdin equals the FIPS value" [ "$RC" -eq 0 -a "$(out_text)" = $SHA256_ABC ]
run_in "$T/abc" digest SHA-256 -
check "digest from '-' (stdin) equals the FIPS value" [ "$RC" -eq 0 -a "$(out_text)" = $SHA256_ABC ]
expect_out "digest of empty input" $SHA256_EMPTY digest SHA-256 "$T/empty"
expect_out "digest algorithm name is case-insensitive" $SHA256_ABC digest sha-256 "$T/abc"
expect_out "digest SHA-256 of 1 MB streams (vs sha256sum)" \
    "$(sha256sum "$T/big" | cut -d' ' -f1)" digest SHA-256 "$T/big"
run_in "$T/big" digest SHA-512
check "digest SHA-512 of 1 MB from stdin (vs sha512sum)" \
    [ "$RC" -eq 0 -a "$(out_text)" = "$(sha512sum "$T/big" | cut -d' ' -f1)" ]
expect_err "digest with HMAC is NotSupportedError" NotSupportedError 3 digest HMAC "$T/abc"
expect_err "digest with an unknown algorithm is NotSupportedError" NotSupportedError 3 \
    digest SHA-3 "$T/abc"
expect_err "digest of a missing file is an IOError" IOError 4 digest SHA-256 "$T/nosuch"

# ---------------------------------------------------------------- generate-key
gen_check() { # NAME KTY ALG BYTES OPS ARGS...
    local name=$1 kty=$2 alg=$3 len=$4 ops=$5; shift 5
    run generate-key "$@"
    if [ "$RC" -ne 0 ]; then fail "$name" "exit $RC"; return; fi
    cp "$T/out" "$T/gen.jwk"
    check "$name" json_check "$T/gen.jwk" "$kty" "$alg" "$len" "$ops"
}
gen_check "generate-key AES-GCM 256 is a JWK A256GCM" oct A256GCM 32 decrypt,encrypt \
    AES-GCM --length 256
gen_check "generate-key AES-CBC 128 is a JWK A128CBC" oct A128CBC 16 decrypt,encrypt \
    AES-CBC --length 128
gen_check "generate-key AES-CTR 192 is a JWK A192CTR" oct A192CTR 24 decrypt,encrypt \
    AES-CTR --length 192
gen_check "generate-key HMAC SHA-256 is HS256 of 512 bits" oct HS256 64 sign,verify \
    HMAC --hash SHA-256
gen_check "generate-key HMAC SHA-512 is HS512 of 1024 bits" oct HS512 128 sign,verify \
    HMAC --hash SHA-512
gen_check "generate-key HMAC SHA-1 --length 256 is HS1 of 256 bits" oct HS1 32 sign,verify \
    HMAC --hash SHA-1 --length 256
run generate-key AES-GCM --length 128; K1=$(out_text)
run generate-key AES-GCM --length 128; K2=$(out_text)
check "two generated keys differ" [ -n "$K1" -a "$K1" != "$K2" ]
expect_err "generate-key AES-GCM --length 100 is OperationError" OperationError 3 \
    generate-key AES-GCM --length 100
expect_err "generate-key HMAC without --hash is a usage error" UsageError 2 generate-key HMAC
expect_err "generate-key SHA-256 is NotSupportedError" NotSupportedError 3 \
    generate-key SHA-256 --length 256

# ---------------------------------------------------------------- encrypt / decrypt
"$WC" generate-key AES-GCM --length 256 >"$T/gcm.jwk"
"$WC" generate-key AES-CBC --length 256 >"$T/cbc.jwk"
"$WC" generate-key AES-CTR --length 128 >"$T/ctr.jwk"
IV12=000102030405060708090a0b
IV16=000102030405060708090a0b0c0d0e0f
AAD=feedfacedeadbeef

# AES-GCM round trip with AAD and a 96-bit tag.
run encrypt AES-GCM --key "$T/gcm.jwk" --iv $IV12 --aad $AAD --tag-length 96 "$T/data"
cp "$T/out" "$T/gcm.ct"
check "AES-GCM encrypt: ciphertext is data + 12-byte tag" \
    [ "$RC" -eq 0 -a "$(wc -c <"$T/gcm.ct")" -eq 100015 ]
run decrypt AES-GCM --key "$T/gcm.jwk" --iv $IV12 --aad $AAD --tag-length 96 "$T/gcm.ct"
check "AES-GCM round trip with --aad and --tag-length" rc0 cmp -s "$T/out" "$T/data"
expect_err "AES-GCM decrypt with other AAD is OperationError" OperationError 3 \
    decrypt AES-GCM --key "$T/gcm.jwk" --iv $IV12 --aad feedfacedeadbeee --tag-length 96 "$T/gcm.ct"
expect_err "AES-GCM decrypt with another tag length is OperationError" OperationError 3 \
    decrypt AES-GCM --key "$T/gcm.jwk" --iv $IV12 --aad $AAD "$T/gcm.ct"
# Flip one bit of the first ciphertext byte.
CT_HEX=$(hex "$T/gcm.ct")
FIRST=$(printf '%02x' $(( 0x${CT_HEX:0:2} ^ 1 )))
unhex "$FIRST${CT_HEX:2}" >"$T/gcm.bad"
check "flipped ciphertext really differs" eval '[ -s "$T/gcm.ct" ] && ! cmp -s "$T/gcm.ct" "$T/gcm.bad"'
expect_err "AES-GCM decrypt of a flipped byte: OperationError, nothing on stdout" OperationError 3 \
    decrypt AES-GCM --key "$T/gcm.jwk" --iv $IV12 --aad $AAD --tag-length 96 "$T/gcm.bad"
expect_err "AES-GCM --tag-length 33 is OperationError" OperationError 3 \
    encrypt AES-GCM --key "$T/gcm.jwk" --iv $IV12 --tag-length 33 "$T/abc"
expect_err "AES-GCM empty --iv is OperationError" OperationError 3 \
    encrypt AES-GCM --key "$T/gcm.jwk" --iv "" "$T/abc"
expect_err "decrypt input shorter than the tag is OperationError" OperationError 3 \
    decrypt AES-GCM --key "$T/gcm.jwk" --iv $IV12 "$T/abc"
run_in "$T/data" encrypt AES-GCM --key "$T/gcm.jwk" --iv $IV12 --aad $AAD --tag-length 96
check "AES-GCM encrypt from stdin equals encrypt from the file" rc0 same_nonempty "$T/out" "$T/gcm.ct"

# GCM known answers (GCM specification test cases 2 and 4, AES-128).
printf '{"kty":"oct","k":"%s","alg":"A128GCM"}' "$(b64url 00000000000000000000000000000000)" \
    >"$T/gcm-tc2.jwk"
unhex 00000000000000000000000000000000 >"$T/tc2.pt"
run encrypt AES-GCM --key "$T/gcm-tc2.jwk" --iv 000000000000000000000000 "$T/tc2.pt"
check "AES-GCM test case 2 known answer (C || T)" \
    [ "$RC" -eq 0 -a "$(hex "$T/out")" = 0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf ]
TC4_K=feffe9928665731c6d6a8f9467308308
TC4_P=d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39
TC4_A=feedfacedeadbeeffeedfacedeadbeefabaddad2
TC4_IV=cafebabefacedbaddecaf888
TC4_CT=42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e0915bc94fbc3221a5db94fae95ae7121a47
printf '{"kty":"oct","k":"%s","alg":"A128GCM","key_ops":["encrypt","decrypt"]}' "$(b64url $TC4_K)" \
    >"$T/gcm-tc4.jwk"
unhex $TC4_P >"$T/tc4.pt"
unhex $TC4_CT >"$T/tc4.ct"
run encrypt AES-GCM --key "$T/gcm-tc4.jwk" --iv $TC4_IV --aad $TC4_A "$T/tc4.pt"
check "AES-GCM test case 4 known answer (with AAD)" [ "$RC" -eq 0 -a "$(hex "$T/out")" = $TC4_CT ]
run decrypt AES-GCM --key "$T/gcm-tc4.jwk" --iv $TC4_IV --aad $TC4_A "$T/tc4.ct"
check "AES-GCM test case 4 decrypts to P" [ "$RC" -eq 0 -a "$(hex "$T/out")" = $TC4_P ]
if $HAVE_NODE; then
    check "typed GCM test case 4 agrees with node crypto" [ "$(node -e '
        const c = require("crypto"), h = (x) => Buffer.from(x, "hex");
        const [k, iv, a, p] = process.argv.slice(1);
        const e = c.createCipheriv("aes-128-gcm", h(k), h(iv)); e.setAAD(h(a));
        const o = Buffer.concat([e.update(h(p)), e.final(), e.getAuthTag()]);
        console.log(o.toString("hex"));' $TC4_K $TC4_IV $TC4_A $TC4_P)" = $TC4_CT ]
else
    skip "GCM vector cross-check with node (no node)"
fi

# AES-CBC round trip and NIST SP 800-38A F.2.1 (CBC-AES128.Encrypt).
run encrypt AES-CBC --key "$T/cbc.jwk" --iv $IV16 "$T/data"
cp "$T/out" "$T/cbc.ct"
check "AES-CBC encrypt pads to the next 16-byte block" \
    [ "$RC" -eq 0 -a "$(wc -c <"$T/cbc.ct")" -eq 100016 ]
run decrypt AES-CBC --key "$T/cbc.jwk" --iv $IV16 "$T/cbc.ct"
check "AES-CBC round trip" rc0 cmp -s "$T/out" "$T/data"
NIST_K=2b7e151628aed2a6abf7158809cf4f3c
NIST_P=6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710
CBC_C=7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7
printf '{"kty":"oct","k":"%s","alg":"A128CBC"}' "$(b64url $NIST_K)" >"$T/nist-cbc.jwk"
unhex $NIST_P >"$T/nist.pt"
run encrypt AES-CBC --key "$T/nist-cbc.jwk" --iv $IV16 "$T/nist.pt"
OUT_HEX=$(hex "$T/out")
check "AES-CBC SP 800-38A F.2.1 known answer (4 blocks + padding block)" \
    [ "$RC" -eq 0 -a "${OUT_HEX:0:128}" = $CBC_C -a ${#OUT_HEX} -eq 160 ]
cp "$T/out" "$T/nist-cbc.ct"
run decrypt AES-CBC --key "$T/nist-cbc.jwk" --iv $IV16 "$T/nist-cbc.ct"
check "AES-CBC SP 800-38A decrypts to the plaintext" [ "$RC" -eq 0 -a "$(hex "$T/out")" = $NIST_P ]
if $HAVE_OPENSSL; then
    check "typed CBC vector agrees with openssl enc" [ "$(openssl enc -aes-128-cbc -K $NIST_K \
        -iv $IV16 -nopad <"$T/nist.pt" | od -An -v -tx1 | tr -d ' \n')" = $CBC_C ]
    # A block whose last byte is 0 is never valid PKCS#7 padding.
    unhex 000102030405060708090a0b0c0d0e00 |
        openssl enc -aes-128-cbc -K $NIST_K -iv $IV16 -nopad >"$T/badpad.ct"
    expect_err "AES-CBC decrypt with bad padding is OperationError" OperationError 3 \
        decrypt AES-CBC --key "$T/nist-cbc.jwk" --iv $IV16 "$T/badpad.ct"
else
    skip "CBC cross-check and bad padding (no openssl)"
fi
expect_err "AES-CBC 8-byte iv is OperationError" OperationError 3 \
    encrypt AES-CBC --key "$T/nist-cbc.jwk" --iv 0001020304050607 "$T/abc"
expect_err "AES-CBC ciphertext not a multiple of 16 is OperationError" OperationError 3 \
    decrypt AES-CBC --key "$T/nist-cbc.jwk" --iv $IV16 "$T/abc"

# AES-CTR round trip and NIST SP 800-38A F.5.1 (CTR-AES128.Encrypt, block 1).
run encrypt AES-CTR --key "$T/ctr.jwk" --counter $IV16 --length 64 "$T/data"
cp "$T/out" "$T/ctr.ct"
check "AES-CTR ciphertext has the data's length" \
    [ "$RC" -eq 0 -a "$(wc -c <"$T/ctr.ct")" -eq 100003 ]
run decrypt AES-CTR --key "$T/ctr.jwk" --counter $IV16 --length 64 "$T/ctr.ct"
check "AES-CTR round trip" rc0 cmp -s "$T/out" "$T/data"
printf '{"kty":"oct","k":"%s","alg":"A128CTR"}' "$(b64url $NIST_K)" >"$T/nist-ctr.jwk"
unhex 6bc1bee22e409f96e93d7e117393172a >"$T/nist1.pt"
run encrypt AES-CTR --key "$T/nist-ctr.jwk" --counter f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff --length 128 \
    "$T/nist1.pt"
check "AES-CTR SP 800-38A F.5.1 known answer (block 1)" \
    [ "$RC" -eq 0 -a "$(hex "$T/out")" = 874d6191b620e3261bef6864990db6ce ]
if $HAVE_OPENSSL; then
    # With an 8-bit counter ...0eff, block 2 uses ...0e00: only the low 8 bits
    # count, unlike a 128-bit increment (...0f00). openssl computes each block.
    unhex "${NIST_P:0:64}" >"$T/two.pt"
    B1=$(unhex "${NIST_P:0:32}" | openssl enc -aes-128-ctr -K $NIST_K -iv 000102030405060708090a0b0c0d0eff |
        od -An -v -tx1 | tr -d ' \n')
    B2=$(unhex "${NIST_P:32:32}" | openssl enc -aes-128-ctr -K $NIST_K -iv 000102030405060708090a0b0c0d0e00 |
        od -An -v -tx1 | tr -d ' \n')
    run encrypt AES-CTR --key "$T/nist-ctr.jwk" --counter 000102030405060708090a0b0c0d0eff --length 8 \
        "$T/two.pt"
    check "AES-CTR counter wraps within --length bits (vs openssl per block)" \
        [ "$RC" -eq 0 -a "$(hex "$T/out")" = "$B1$B2" ]
    check "typed CTR vector agrees with openssl enc" [ "$(openssl enc -aes-128-ctr -K $NIST_K \
        -iv f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff <"$T/nist1.pt" | od -An -v -tx1 | tr -d ' \n')" = \
        874d6191b620e3261bef6864990db6ce ]
else
    skip "CTR counter wrap and cross-check (no openssl)"
fi
head -c 48 "$T/data" >"$T/48"
expect_err "AES-CTR 3 blocks with a 1-bit counter is OperationError" OperationError 3 \
    encrypt AES-CTR --key "$T/ctr.jwk" --counter $IV16 --length 1 "$T/48"
expect_err "AES-CTR --length 0 is OperationError" OperationError 3 \
    encrypt AES-CTR --key "$T/ctr.jwk" --counter $IV16 --length 0 "$T/abc"

# --out: streaming (CBC, CTR) equals one-shot; failures leave nothing behind.
mkdir "$T/o"
for alg in CBC CTR; do
    if [ $alg = CBC ]; then P=(--iv $IV16); else P=(--counter $IV16 --length 32); fi
    key="$T/$(echo $alg | tr A-Z a-z).jwk"
    run encrypt AES-$alg --key "$key" "${P[@]}" "$T/big"
    cp "$T/out" "$T/big.$alg.oneshot"
    run encrypt AES-$alg --key "$key" "${P[@]}" --out "$T/o/big.$alg.ct" "$T/big"
    check "AES-$alg --out: exit 0 and nothing on stdout" [ "$RC" -eq 0 -a ! -s "$T/out" ]
    check "AES-$alg streamed --out ciphertext equals one-shot stdout" \
        cmp -s "$T/o/big.$alg.ct" "$T/big.$alg.oneshot"
    run decrypt AES-$alg --key "$key" "${P[@]}" --out "$T/o/big.$alg.pt" "$T/o/big.$alg.ct"
    check "AES-$alg streamed --out decrypt gives the data back" cmp -s "$T/o/big.$alg.pt" "$T/big"
done
run encrypt AES-GCM --key "$T/gcm.jwk" --iv $IV12 --aad $AAD --tag-length 96 --out "$T/o/gcm.ct" "$T/data"
check "AES-GCM --out writes the same ciphertext" rc0 cmp -s "$T/o/gcm.ct" "$T/gcm.ct"
run decrypt AES-GCM --key "$T/gcm.jwk" --iv $IV12 --aad $AAD --tag-length 96 --out "$T/o/new.pt" "$T/gcm.bad"
expect_err_result "AES-GCM --out with a bad tag: OperationError" OperationError 3
check "AES-GCM --out with a bad tag creates no file" [ ! -e "$T/o/new.pt" ]
echo "old content" >"$T/o/keep.pt"
run decrypt AES-GCM --key "$T/gcm.jwk" --iv $IV12 --aad $AAD --tag-length 96 --out "$T/o/keep.pt" "$T/gcm.bad"
check "AES-GCM --out with a bad tag keeps the old file" [ "$RC" -eq 3 -a "$(cat "$T/o/keep.pt")" = "old content" ]
# Streaming failure at the very end: a big CBC ciphertext whose last block is
# bad padding (the bad-padding block appended to a valid stream of blocks).
if $HAVE_OPENSSL; then
    # 1 MiB of valid blocks, then a block whose plaintext ends in byte 0.
    head -c 1048576 "$T/big" | openssl enc -aes-128-cbc -K $NIST_K -iv $IV16 -nopad >"$T/bigbad.ct"
    LASTIV=$(tail -c 16 "$T/bigbad.ct" | od -An -v -tx1 | tr -d ' \n')
    unhex 000102030405060708090a0b0c0d0e00 |
        openssl enc -aes-128-cbc -K $NIST_K -iv "$LASTIV" -nopad >>"$T/bigbad.ct"
    run decrypt AES-CBC --key "$T/nist-cbc.jwk" --iv $IV16 --out "$T/o/stream.pt" "$T/bigbad.ct"
    expect_err_result "streamed AES-CBC --out with bad final padding: OperationError" OperationError 3
    check "streamed AES-CBC failure creates no file" [ ! -e "$T/o/stream.pt" ]
    run decrypt AES-CBC --key "$T/nist-cbc.jwk" --iv $IV16 --out "$T/o/keep.pt" "$T/bigbad.ct"
    check "streamed AES-CBC failure keeps the old file" \
        [ "$RC" -eq 3 -a "$(cat "$T/o/keep.pt")" = "old content" ]
    run decrypt AES-CBC --key "$T/nist-cbc.jwk" --iv $IV16 "$T/bigbad.ct"
    expect_err_result "one-shot AES-CBC with bad final padding: nothing on stdout" OperationError 3
fi
check "no temporary files are left in the --out directory" \
    [ "$(ls -A "$T/o" | sort | tr '\n' ' ')" = \
      "big.CBC.ct big.CBC.pt big.CTR.ct big.CTR.pt gcm.ct keep.pt " ]
expect_err "--out into a missing directory is an IOError" IOError 4 \
    encrypt AES-GCM --key "$T/gcm.jwk" --iv $IV12 --out "$T/nodir/x" "$T/abc"

# Keys: JWK checks are the library's (DataError).
expect_err "AES-CBC with an A128GCM JWK is DataError" DataError 3 \
    encrypt AES-CBC --key "$T/gcm-tc2.jwk" --iv $IV16 "$T/abc"
printf '{"kty":"oct","k":"%s","alg":"A128GCM","key_ops":["encrypt"]}' "$(b64url $TC4_K)" >"$T/enc-only.jwk"
expect_err "decrypt with a JWK whose key_ops lacks decrypt is DataError" DataError 3 \
    decrypt AES-GCM --key "$T/enc-only.jwk" --iv $TC4_IV "$T/tc4.ct"
expect_err "encrypt with HMAC is NotSupportedError" NotSupportedError 3 \
    encrypt HMAC --key "$T/gcm.jwk" "$T/abc"
expect_err "encrypt with an unknown algorithm is NotSupportedError" NotSupportedError 3 \
    encrypt AES-XTS --key "$T/gcm.jwk" --iv $IV16 "$T/abc"
expect_err "odd-length hex is a usage error" UsageError 2 \
    encrypt AES-GCM --key "$T/gcm.jwk" --iv 0001020 "$T/abc"
expect_err "non-hex --iv is a usage error" UsageError 2 \
    encrypt AES-GCM --key "$T/gcm.jwk" --iv 00010g "$T/abc"
expect_err "missing --iv is a usage error" UsageError 2 encrypt AES-CBC --key "$T/cbc.jwk" "$T/abc"
expect_err "--aad with AES-CBC is a usage error" UsageError 2 \
    encrypt AES-CBC --key "$T/cbc.jwk" --iv $IV16 --aad 00 "$T/abc"
expect_err "a missing key file is an IOError" IOError 4 \
    encrypt AES-GCM --key "$T/nosuch.jwk" --iv $IV12 "$T/abc"

# ---------------------------------------------------------------- sign / verify
"$WC" generate-key HMAC --hash SHA-256 >"$T/hmac.jwk"
run sign HMAC --key "$T/hmac.jwk" "$T/data"
SIG=$(out_text)
check "sign prints a 64-digit hex HMAC-SHA-256" rc0 matches "$SIG" '^[0-9a-f]{64}$'
expect_out "verify with the right signature prints true" true \
    verify HMAC --key "$T/hmac.jwk" --signature "$SIG" "$T/data"
BADSIG=${SIG:0:63}$(printf '%x' $(( (0x${SIG:63:1} + 1) % 16 )))
run verify HMAC --key "$T/hmac.jwk" --signature "$BADSIG" "$T/data"
check "verify with a wrong signature prints false and exits 1" [ "$RC" -eq 1 -a "$(out_text)" = false ]
run verify HMAC --key "$T/hmac.jwk" --signature "$SIG" "$T/abc"
check "verify of other data prints false and exits 1" [ "$RC" -eq 1 -a "$(out_text)" = false ]
run verify HMAC --key "$T/hmac.jwk" --signature "${SIG:0:62}" "$T/data"
check "verify with a truncated signature prints false and exits 1" [ "$RC" -eq 1 -a "$(out_text)" = false ]
run_in "$T/data" sign HMAC --key "$T/hmac.jwk"
check "sign from stdin equals sign of the file" [ "$RC" -eq 0 -a -n "$SIG" -a "$(out_text)" = "$SIG" ]

# RFC 4231 test cases 1 and 2 through hand-made JWKs.
RFC4231_2_256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843
RFC4231_2_512=164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737
RFC4231_1_256=b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7
printf 'what do ya want for nothing?' >"$T/jefe.txt"
printf 'Hi There' >"$T/hithere.txt"
printf '{"kty":"oct","k":"%s","alg":"HS256"}' "$(b64url 4a656665)" >"$T/jefe256.jwk"
printf '{"kty":"oct","k":"%s","alg":"HS512"}' "$(b64url 4a656665)" >"$T/jefe512.jwk"
printf '{"kty":"oct","k":"%s"}' "$(b64url 4a656665)" >"$T/jefe-noalg.jwk"
printf '{"kty":"oct","k":"%s","alg":"HS256"}' "$(b64url 0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b)" >"$T/tc1.jwk"
printf '{"kty":"oct","k":"%s","alg":"HS256","key_ops":["sign"]}' "$(b64url 4a656665)" >"$T/sign-only.jwk"
expect_out "RFC 4231 test case 2 HMAC-SHA-256" $RFC4231_2_256 sign HMAC --key "$T/jefe256.jwk" "$T/jefe.txt"
expect_out "RFC 4231 test case 2 HMAC-SHA-512" $RFC4231_2_512 sign HMAC --key "$T/jefe512.jwk" "$T/jefe.txt"
expect_out "RFC 4231 test case 1 HMAC-SHA-256" $RFC4231_1_256 sign HMAC --key "$T/tc1.jwk" "$T/hithere.txt"
expect_out "RFC 4231 test case 2 verifies" true \
    verify HMAC --key "$T/jefe256.jwk" --signature $RFC4231_2_256 "$T/jefe.txt"
expect_out "JWK without alg takes the hash from --hash" $RFC4231_2_256 \
    sign HMAC --key "$T/jefe-noalg.jwk" --hash SHA-256 "$T/jefe.txt"
expect_err "JWK without alg and no --hash is a usage error" UsageError 2 \
    sign HMAC --key "$T/jefe-noalg.jwk" "$T/jefe.txt"
expect_err "--hash contradicting the JWK's alg is DataError" DataError 3 \
    sign HMAC --key "$T/jefe256.jwk" --hash SHA-384 "$T/jefe.txt"
expect_err "verify with a JWK whose key_ops is [\"sign\"] is DataError" DataError 3 \
    verify HMAC --key "$T/sign-only.jwk" --signature $RFC4231_2_256 "$T/jefe.txt"
if $HAVE_OPENSSL; then
    for pair in "sha256 $RFC4231_2_256" "sha512 $RFC4231_2_512"; do
        set -- $pair
        check "typed RFC 4231 $1 vector agrees with openssl" [ "$(openssl dgst -"$1" -mac HMAC \
            -macopt hexkey:4a656665 -r <"$T/jefe.txt" | cut -d' ' -f1)" = "$2" ]
    done
    expect_out "streamed sign of 1 MB equals openssl HMAC" \
        "$(openssl dgst -sha256 -mac HMAC -macopt hexkey:4a656665 -r <"$T/big" | cut -d' ' -f1)" \
        sign HMAC --key "$T/jefe256.jwk" "$T/big"
else
    skip "HMAC cross-checks (no openssl)"
fi
printf 'not json' >"$T/bad1.jwk"
printf '{"kty":"oct","k":"SmVm!Q","alg":"HS256"}' >"$T/bad2.jwk"
printf '{"kty":"oct","k":"SmVmZQ==","alg":"HS256"}' >"$T/bad3.jwk"
printf '{"kty":"RSA","k":"SmVmZQ","alg":"HS256"}' >"$T/bad4.jwk"
expect_err "a JWK that is not JSON is DataError" DataError 3 sign HMAC --key "$T/bad1.jwk" --hash SHA-256 "$T/abc"
expect_err "a JWK that is not JSON is DataError (hash from nowhere)" DataError 3 sign HMAC --key "$T/bad1.jwk" "$T/abc"
expect_err "a JWK with a non-base64url k is DataError" DataError 3 sign HMAC --key "$T/bad2.jwk" "$T/abc"
expect_err "a JWK with padded k is DataError" DataError 3 sign HMAC --key "$T/bad3.jwk" "$T/abc"
expect_err "a JWK with kty RSA is DataError" DataError 3 sign HMAC --key "$T/bad4.jwk" "$T/abc"
expect_err "an AES JWK that is not JSON is DataError" DataError 3 \
    encrypt AES-GCM --key "$T/bad1.jwk" --iv $IV12 "$T/abc"
expect_err "sign with AES-GCM is NotSupportedError" NotSupportedError 3 \
    sign AES-GCM --key "$T/gcm.jwk" "$T/abc"
expect_err "non-hex --signature is a usage error" UsageError 2 \
    verify HMAC --key "$T/jefe256.jwk" --signature xyz0 "$T/jefe.txt"

# ---------------------------------------------------------------- derive-bits
HKDF_OKM=3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865
PBKDF2_1=0c60c80f961f0e71f3a9b524af6012062fe037a6
PBKDF2_2=ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957
PBKDF2_7914=55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783
IKM=0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b
expect_out "HKDF RFC 5869 test case 1" $HKDF_OKM derive-bits HKDF --key-hex $IKM --hash SHA-256 \
    --salt 000102030405060708090a0b0c --info f0f1f2f3f4f5f6f7f8f9 --length 336
expect_out "HKDF --length 0 gives empty output" "" derive-bits HKDF --key-hex $IKM --hash SHA-256 \
    --salt 00 --info "" --length 0
expect_err "HKDF --length 12 is OperationError" OperationError 3 derive-bits HKDF --key-hex $IKM \
    --hash SHA-256 --salt 00 --info 00 --length 12
expect_err "HKDF over 255 * hash length is OperationError" OperationError 3 derive-bits HKDF \
    --key-hex $IKM --hash SHA-256 --salt 00 --info 00 --length 65288
expect_out "PBKDF2 RFC 6070 test case 1 (SHA-1, c=1)" $PBKDF2_1 derive-bits PBKDF2 \
    --key-hex 70617373776f7264 --hash SHA-1 --salt 73616c74 --iterations 1 --length 160
expect_out "PBKDF2 RFC 6070 test case 2 (SHA-1, c=2)" $PBKDF2_2 derive-bits PBKDF2 \
    --key-hex 70617373776f7264 --hash SHA-1 --salt 73616c74 --iterations 2 --length 160
expect_out "PBKDF2-HMAC-SHA-256 RFC 7914 section 11" $PBKDF2_7914 derive-bits PBKDF2 \
    --key-hex 706173737764 --hash SHA-256 --salt 73616c74 --iterations 1 --length 512
expect_err "PBKDF2 --iterations 0 is OperationError" OperationError 3 derive-bits PBKDF2 \
    --key-hex 70617373776f7264 --hash SHA-1 --salt 73616c74 --iterations 0 --length 160
expect_err "PBKDF2 --length 0 is OperationError" OperationError 3 derive-bits PBKDF2 \
    --key-hex 70617373776f7264 --hash SHA-1 --salt 73616c74 --iterations 1 --length 0
expect_err "derive-bits with a non-SHA hash is NotSupportedError" NotSupportedError 3 \
    derive-bits HKDF --key-hex $IKM --hash AES-GCM --salt 00 --info 00 --length 128
expect_err "derive-bits without --hash is a usage error" UsageError 2 \
    derive-bits HKDF --key-hex $IKM --salt 00 --info 00 --length 128
expect_err "derive-bits with AES-GCM is NotSupportedError" NotSupportedError 3 \
    derive-bits AES-GCM --key-hex $IKM --hash SHA-256 --salt 00 --length 128
if $HAVE_OPENSSL; then
    check "typed HKDF vector agrees with openssl kdf" [ "$(openssl kdf -keylen 42 -kdfopt digest:SHA256 \
        -kdfopt hexkey:$IKM -kdfopt hexsalt:000102030405060708090a0b0c -kdfopt hexinfo:f0f1f2f3f4f5f6f7f8f9 \
        HKDF | tr -d ':\n' | tr A-F a-f)" = $HKDF_OKM ]
    check "typed PBKDF2 vector agrees with openssl kdf" [ "$(openssl kdf -keylen 20 -kdfopt digest:SHA1 \
        -kdfopt pass:password -kdfopt salt:salt -kdfopt iter:1 PBKDF2 | tr -d ':\n' | tr A-F a-f)" = $PBKDF2_1 ]
else
    skip "KDF cross-checks (no openssl)"
fi

# ---------------------------------------------------------------- random, uuid, backends
run random 16
R1=$(out_text)
check "random 16 gives 32 hex digits" rc0 matches "$R1" '^[0-9a-f]{32}$'
run random 16
check "two random 16 differ" [ "$RC" -eq 0 -a "$(out_text)" != "$R1" ]
run random 65536
check "random 65536 gives 131072 hex digits" rc0 is_hex "$(out_text)" 131072
expect_err "random 65537 is QuotaExceededError" QuotaExceededError 3 random 65537
expect_err "random of a non-number is a usage error" UsageError 2 random 12x
UUID_RE='^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'
run uuid
U1=$(out_text)
check "uuid is a lowercase version 4 UUID" rc0 matches "$U1" "$UUID_RE"
run uuid
check "two uuids differ" [ "$RC" -eq 0 -a "$(out_text)" != "$U1" ]
run backends
check "backends lists openssl as available" rc0 grep -Eq '^openssl( \(default\))?: available' "$T/out"
check "backends lists openssl's algorithms" grep -Eq '^  algorithms:.* SHA-256 .*AES-GCM' "$T/out"
expect_out "--backend openssl before the command" $SHA256_ABC --backend openssl digest SHA-256 "$T/abc"
expect_out "--backend=openssl after the command" $SHA256_ABC digest SHA-256 "$T/abc" --backend=openssl
expect_err "--backend nosuch is NotSupportedError" NotSupportedError 3 --backend nosuch digest SHA-256 "$T/abc"
expect_err "--backend nosuch after the command is NotSupportedError" NotSupportedError 3 \
    random 16 --backend nosuch
expect_err "backends --backend nosuch is NotSupportedError" NotSupportedError 3 backends --backend nosuch

# ---------------------------------------------------------------- usages, extractability
run generate-key HMAC --hash SHA-384 --usages sign
check "generate-key --usages sign gives key_ops [sign]" rc0 grep -q '"key_ops":\["sign"\]' "$T/out"
expect_err "generate-key AES-GCM --usages sign is SyntaxError" SyntaxError 3 \
    generate-key AES-GCM --length 128 --usages sign
expect_err "generate-key with empty --usages is SyntaxError" SyntaxError 3 \
    generate-key AES-GCM --length 128 --usages ''
expect_err "generate-key with an unknown usage is TypeError" TypeError 3 \
    generate-key HMAC --hash SHA-256 --usages sign,frobnicate
expect_err "generate-key --extractable false cannot print the key: InvalidAccessError" \
    InvalidAccessError 3 generate-key AES-GCM --length 256 --extractable false
expect_err "generate-key --extractable maybe is a usage error" UsageError 2 \
    generate-key AES-GCM --length 256 --extractable maybe

# ---------------------------------------------------------------- usage, help, I/O errors
run --help
check "--help prints the usage and exits 0" rc0 grep -q '^Usage: webcrypto' "$T/out"
run help
check "help prints the usage and exits 0" rc0 grep -q '^Usage: webcrypto' "$T/out"
run --version
check "--version prints the version" rc0 grep -Eq '^webcrypto [0-9]+\.[0-9]+\.[0-9]+$' "$T/out"
expect_err "no command is a usage error" UsageError 2
expect_err "an unknown command is a usage error" UsageError 2 frobnicate
expect_err "an unknown option is a usage error" UsageError 2 digest SHA-256 --frob "$T/abc"
expect_err "an option without its value is a usage error" UsageError 2 digest SHA-256 "$T/abc" --out
if [ -w /dev/full ]; then
    "$WC" digest SHA-256 "$T/abc" >/dev/full 2>"$T/err"; RC=$?
    check "digest to /dev/full fails (exit 4, IOError)" eval '[ "$RC" -eq 4 ] && grep -q "^webcrypto: IOError: " "$T/err"'
    "$WC" encrypt AES-CTR --key "$T/ctr.jwk" --counter $IV16 --length 64 "$T/data" >/dev/full 2>"$T/err"; RC=$?
    check "encrypt to /dev/full fails" eval '[ "$RC" -ne 0 ] && grep -q "^webcrypto: IOError: " "$T/err"'
    "$WC" --help >/dev/full 2>"$T/err"; RC=$?
    check "--help to /dev/full fails" eval '[ "$RC" -ne 0 ] && grep -q "^webcrypto: IOError: " "$T/err"'
    "$WC" generate-key AES-GCM --length 256 >/dev/full 2>"$T/err"; RC=$?
    check "generate-key to /dev/full fails" eval '[ "$RC" -ne 0 ] && grep -q "^webcrypto: IOError: " "$T/err"'
else
    skip "/dev/full checks (no /dev/full)"
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
