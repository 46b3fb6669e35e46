#!/usr/bin/env bash
# cli_hostile_test.sh - the webcrypto command under hostile conditions
# (docs/ROBUSTNESS.md): failed key-pair writes, closed standard descriptors,
# --out on special files, symbolic links and existing modes, signals during
# a streamed decryption, oversized key files and lengths, backend variants,
# an output that is an input.
#
# Usage: bash cli_hostile_test.sh PATH-TO-webcrypto
# Device nodes are private copies made with mknod in a temporary directory
# (never the machine's /dev/null or /dev/full); checks that need root, mknod
# or chattr say "skip" when they cannot run. Exits 1 if any check failed,
# 77 if the tool is missing.
set -u

WC=${1:-}
if [ -z "$WC" ] || [ ! -x "$WC" ]; then
    echo "skipped: webcrypto executable not found (${WC:-no path given})"
    exit 77
fi

T=$(mktemp -d) || exit 1
cleanup() {
    chattr -i "$T"/*/pub.jwk "$T"/pub.jwk 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT

PASS=0
FAIL=0
pass() { PASS=$((PASS + 1)); echo "ok   - $1"; }
fail() {
    FAIL=$((FAIL + 1))
    echo "FAIL - $1"
    [ -s "$T/err" ] && sed 's/^/         stderr: /' "$T/err" | head -5
}
skip() { echo "skip - $1"; }
check() {
    local name=$1; shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}
# no_temps DIR: no temporary output file is left in DIR.
no_temps() { ! compgen -G "$1/.*.tmp.*" >/dev/null && ! compgen -G "$1/.*.old.*" >/dev/null; }
# wait_for COND...: polls COND (up to 20 s).
wait_for() {
    local i
    for ((i = 0; i < 400; i++)); do "$@" && return 0; sleep 0.05; done
    return 1
}

IS_ROOT=false
[ "$(id -u)" = 0 ] && IS_ROOT=true
HAVE_JCA=false
"$WC" backends 2>/dev/null | grep -q '^jca: available' && HAVE_JCA=true

printf 'abc' >"$T/abc"
ABC_SHA256=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad

# ---------------------------------------------------------------- 4. key pairs
mkdir -p "$T/p1/sub"
echo OLD-PRIV >"$T/p1/priv.jwk"
echo OLD-PUB >"$T/p1/pub.jwk"
"$WC" generate-key Ed25519 --out-private "$T/p1/priv.jwk" --out-public "$T/p1/sub" 2>"$T/err"
RC=$?
check "key pair: a directory as --out-public fails" [ "$RC" -ne 0 ]
check "key pair: ... and the old private key is intact" \
    eval '[ "$(cat "$T/p1/priv.jwk")" = OLD-PRIV ] && [ "$(cat "$T/p1/pub.jwk")" = OLD-PUB ]'
check "key pair: ... and no temporary file is left" no_temps "$T/p1"

# The second rename fails (an immutable public key file, root only): the
# first is undone.
mkdir -p "$T/p2"
echo OLD-PRIV >"$T/p2/priv.jwk"
echo OLD-PUB >"$T/p2/pub.jwk"
if $IS_ROOT && chattr +i "$T/p2/pub.jwk" 2>/dev/null; then
    "$WC" generate-key Ed25519 --out-private "$T/p2/priv.jwk" --out-public "$T/p2/pub.jwk" 2>"$T/err"
    RC=$?
    check "key pair: a failed public-key rename fails (exit 4)" [ "$RC" -eq 4 ]
    check "key pair: ... and the old private key is restored" \
        eval '[ "$(cat "$T/p2/priv.jwk")" = OLD-PRIV ]'
    rm -f "$T/p2/priv.jwk"
    "$WC" generate-key Ed25519 --out-private "$T/p2/priv.jwk" --out-public "$T/p2/pub.jwk" 2>"$T/err"
    check "key pair: ... and a new private key with no old one is removed" \
        eval '[ ! -e "$T/p2/priv.jwk" ]'
    check "key pair: ... and no temporary file is left" no_temps "$T/p2"
    chattr -i "$T/p2/pub.jwk"
else
    skip "key pair: failed second rename (needs root and chattr +i on $T)"
fi
"$WC" generate-key Ed25519 --out-private "$T/p2/priv.jwk" --out-public "$T/p2/pub.jwk" 2>"$T/err"
check "key pair: written when both destinations work" \
    eval 'grep -q "\"d\"" "$T/p2/priv.jwk" && ! grep -q "\"d\"" "$T/p2/pub.jwk" && no_temps "$T/p2"'

# ---------------------------------------------------------------- 5. closed descriptors
"$WC" digest SHA-256 <&- >"$T/out" 2>"$T/err"
RC=$?
check "closed stdin: digest fails (exit 4) and prints nothing" \
    eval '[ "$RC" -eq 4 ] && [ ! -s "$T/out" ] && grep -q "IOError: cannot read <stdin>" "$T/err"'
mkdir -p "$T/c"
"$WC" digest SHA-256 --out "$T/c/d.hex" <&- 2>"$T/err"
RC=$?
check "closed stdin with --out: fails, no output, no temporary file" \
    eval '[ "$RC" -eq 4 ] && [ ! -e "$T/c/d.hex" ] && no_temps "$T/c"'
if $HAVE_JCA; then
    "$WC" --backend jca digest SHA-256 <&- >"$T/out" 2>"$T/err"
    RC=$?
    check "closed stdin, jca: the JVM's files are not read as input (exit 4)" \
        eval '[ "$RC" -eq 4 ] && [ ! -s "$T/out" ]'
else
    skip "closed stdin on jca (jca unavailable)"
fi
"$WC" digest SHA-256 "$T/abc" >&- 2>"$T/err"
RC=$?
check "closed stdout: the result cannot be written (exit 4)" [ "$RC" -eq 4 ]
"$WC" digest SHA-256 "$T/abc" --out "$T/c/ok.hex" 2>&-
check "closed stderr: a command still works" eval '[ "$(cat "$T/c/ok.hex")" = $ABC_SHA256 ]'

# ---------------------------------------------------------------- 6. what --out writes to
mkdir -p "$T/dev"
if $IS_ROOT && mknod "$T/dev/full" c 1 7 2>/dev/null && mknod "$T/dev/null" c 1 3 2>/dev/null; then
    "$WC" digest SHA-256 "$T/abc" --out "$T/dev/full" 2>"$T/err"
    RC=$?
    check "--out on a full device fails with ENOSPC (exit 4)" \
        eval '[ "$RC" -eq 4 ] && grep -q "No space left" "$T/err"'
    check "... and the device is still a character device" [ -c "$T/dev/full" ]
    "$WC" digest SHA-256 "$T/abc" --out "$T/dev/null" 2>"$T/err"
    RC=$?
    check "--out on a null device succeeds and leaves it a character device" \
        eval '[ "$RC" -eq 0 ] && [ -c "$T/dev/null" ]'
    check "... and no temporary file is left" no_temps "$T/dev"
else
    skip "--out on device nodes (needs root and mknod)"
fi
mkfifo "$T/dev/fifo"
timeout 20 cat "$T/dev/fifo" >"$T/fifo.out" &
CAT=$!
"$WC" digest SHA-256 "$T/abc" --out "$T/dev/fifo" 2>"$T/err"
RC=$?
wait $CAT
check "--out on a FIFO writes through it and leaves it a FIFO" \
    eval '[ "$RC" -eq 0 ] && [ -p "$T/dev/fifo" ] && [ "$(cat "$T/fifo.out")" = $ABC_SHA256 ]'

mkdir -p "$T/l"
echo old >"$T/l/target"
chmod 0644 "$T/l/target"
ln -s target "$T/l/link"
"$WC" digest SHA-256 "$T/abc" --out "$T/l/link" 2>"$T/err"
check "--out on a symbolic link replaces the file it names, not the link" \
    eval '[ -L "$T/l/link" ] && [ "$(cat "$T/l/target")" = $ABC_SHA256 ]'
check "... keeping the file's mode (0644)" eval '[ "$(stat -c %a "$T/l/target")" = 644 ]'
check "... with no temporary file left" no_temps "$T/l"
ln -s missing "$T/l/dangling"
"$WC" digest SHA-256 "$T/abc" --out "$T/l/dangling" 2>"$T/err"
RC=$?
check "--out on a dangling symbolic link fails" \
    eval '[ "$RC" -ne 0 ] && [ -L "$T/l/dangling" ] && [ ! -e "$T/l/missing" ]'
echo old >"$T/l/mode"
chmod 0640 "$T/l/mode"
"$WC" digest SHA-256 "$T/abc" --out "$T/l/mode" 2>"$T/err"
check "--out keeps an existing file's mode (0640)" eval '[ "$(stat -c %a "$T/l/mode")" = 640 ]'
check "--out on a new file creates it 0600" \
    eval '"$WC" digest SHA-256 "$T/abc" --out "$T/l/new" && [ "$(stat -c %a "$T/l/new")" = 600 ]'
if $IS_ROOT; then
    echo old >"$T/l/owned"
    chown 1234:2345 "$T/l/owned"
    "$WC" digest SHA-256 "$T/abc" --out "$T/l/owned" 2>"$T/err"
    check "--out keeps an existing file's owner (as root)" \
        eval '[ "$(stat -c %u:%g "$T/l/owned")" = 1234:2345 ]'
else
    skip "--out keeps the owner (needs root)"
fi
"$WC" digest SHA-256 "$T/abc" --out "$T/l" 2>"$T/err"
RC=$?
check "--out on a directory fails and leaves it alone" eval '[ "$RC" -eq 4 ] && [ -d "$T/l" ]'

# ---------------------------------------------------------------- 7. signals during --out
KEY='{"kty":"oct","k":"AAECAwQFBgcICQoLDA0ODw","alg":"A128CBC","ext":true,"key_ops":["encrypt","decrypt"]}'
printf '%s' "$KEY" >"$T/cbc.jwk"
IV=000102030405060708090a0b0c0d0e0f
head -c 1048576 /dev/zero >"$T/MiB"
for sig in TERM INT; do
    d="$T/sig$sig"
    mkdir -p "$d"
    mkfifo "$d/in"
    # Default dispositions: a background job of a script starts with SIGINT ignored.
    env --default-signal=INT,TERM "$WC" decrypt AES-CBC --key "$T/cbc.jwk" --iv $IV \
        --out "$d/p.bin" "$d/in" 2>"$T/err" &
    PID=$!
    exec 3>"$d/in"
    cat "$T/MiB" >&3 # a slow input: more never comes until the signal
    if wait_for compgen -G "$d/.p.bin.tmp.*" >/dev/null &&
        wait_for eval '[ "$(stat -c %s "$d"/.p.bin.tmp.* 2>/dev/null || echo 0)" -gt 0 ]'; then
        kill -$sig $PID
        wait $PID
        RC=$?
        exec 3>&-
        check "SIG$sig during a streamed decrypt: killed by the signal" \
            eval '[ "$RC" -eq $((128 + $(kill -l $sig))) ]'
        check "SIG$sig during a streamed decrypt: no plaintext file is left" \
            eval 'no_temps "$d" && [ ! -e "$d/p.bin" ]'
    else
        exec 3>&-
        kill $PID 2>/dev/null
        wait $PID
        fail "SIG$sig: the temporary file never appeared"
    fi
done
# Ctrl-C stops a long PBKDF2 (no --out temporary file exists yet): 2^24
# iterations, the library's default limit (seconds of SHA-512).
env --default-signal=INT "$WC" derive-bits PBKDF2 --key-hex 00 --hash SHA-512 --salt 00 \
    --iterations 16777216 --length 256 --out "$T/c/k.hex" 2>"$T/err" &
PID=$!
sleep 0.3
kill -INT $PID
wait $PID
RC=$?
check "SIGINT stops a PBKDF2 of 2^24 iterations" \
    eval '[ "$RC" -eq 130 ] && [ ! -e "$T/c/k.hex" ] && no_temps "$T/c"'
# Over the limit (webcrypto_set_limits' default), 2^32-1 iterations are
# refused before any work.
timeout 20 "$WC" derive-bits PBKDF2 --key-hex 00 --hash SHA-512 --salt 00 \
    --iterations 4294967295 --length 256 --out "$T/c/k.hex" 2>"$T/err"
RC=$?
check "a PBKDF2 of 2^32-1 iterations is NotSupportedError at once (the default limit)" \
    eval '[ "$RC" -eq 3 ] && grep -q "NotSupportedError: .*max_pbkdf2_iterations" "$T/err" && [ ! -e "$T/c/k.hex" ]'

# ---------------------------------------------------------------- 8. bounds
head -c 2000000 /dev/zero >"$T/big.jwk"
"$WC" encrypt AES-GCM --key "$T/big.jwk" --iv 00 "$T/abc" 2>"$T/err"
RC=$?
check "a key file over 1 MiB is a DataError (exit 3)" \
    eval '[ "$RC" -eq 3 ] && grep -q "DataError: .*at most 1048576 bytes" "$T/err"'
timeout 20 "$WC" encrypt AES-GCM --key /dev/zero --iv 00 "$T/abc" 2>"$T/err"
RC=$?
check "--key /dev/zero is a DataError, not a read until memory runs out" \
    eval '[ "$RC" -eq 3 ] && grep -q DataError "$T/err"'
"$WC" import --alg Ed25519 "$T/big.jwk" 2>"$T/err"
RC=$?
check "import of a key file over 1 MiB is a DataError" eval '[ "$RC" -eq 3 ] && grep -q DataError "$T/err"'
# The HKDF output buffer (256 MiB for this length) is never allocated: under a
# 150 MB address-space limit the refusal is still the length's OperationError.
# On a backend without a JVM: a JVM cannot start under such a limit.
if ! "$WC" backends 2>/dev/null | grep -Eq '^openssl( \(default\))?: available'; then
    skip "HKDF --length under ulimit -v (no openssl backend in this build; a JVM cannot start under the limit)"
elif (ulimit -v 150000 && "$WC" --version) >/dev/null 2>&1; then
    (ulimit -v 150000 && exec "$WC" --backend openssl derive-bits HKDF --key-hex 00 --hash SHA-256 --salt "" \
        --info "" --length 2147483648) 2>"$T/err"
    RC=$?
    check "HKDF --length 2^31 is refused before allocating (OperationError)" \
        eval '[ "$RC" -eq 3 ] && grep -q "OperationError: .*at most 65280 bits" "$T/err"'
else
    skip "HKDF --length under ulimit -v (the tool cannot start under it: sanitizer build?)"
fi

# ---------------------------------------------------------------- 9. variants in `backends`
if $HAVE_JCA; then
    for v in jca:BC jca:SunJCE; do
        "$WC" --backend $v backends >"$T/out" 2>"$T/err"
        RC=$?
        check "--backend $v backends lists $v" \
            eval '[ "$RC" -eq 0 ] && grep -q "^$v: " "$T/out"'
    done
else
    skip "backends listing of jca variants (jca unavailable)"
fi

# ---------------------------------------------------------------- 10. an output that is an input
# No output may replace a file the command reads (the key, the data, standard
# input) nor another output, whatever names lead to it (the same inode
# through a symbolic or hard link): a UsageError naming both, before anything
# is read or written. (Before this check, `encrypt --key K --out K` replaced
# the only key by the ciphertext.)
mkdir -p "$T/same"
S=$T/same
"$WC" generate-key AES-GCM --length 256 --usages encrypt,decrypt,wrapKey,unwrapKey >"$S/k.jwk" 2>"$T/err"
"$WC" generate-key HMAC --hash SHA-256 >"$S/mac.jwk" 2>>"$T/err"
"$WC" generate-key AES-CBC --length 128 >"$S/cbc.jwk" 2>>"$T/err"
"$WC" generate-key ECDH --curve P-256 --out-private "$S/ec.jwk" --out-public "$S/ec.pub.jwk" 2>>"$T/err"
printf 'plaintext' >"$S/data"
for f in k.jwk mac.jwk ec.jwk ec.pub.jwk data; do cp "$S/$f" "$S/$f.orig"; done
ln -s k.jwk "$S/k.link"
ln "$S/k.jwk" "$S/k.hard"
IV=000102030405060708090a0b
# refused NAME WANT-IN-STDERR FILE [< STDIN] -- ARGS...: exit 2, UsageError
# naming both options, nothing on stdout, FILE as it was, no temporary file.
refused() {
    local name=$1 want=$2 file=$3 stdin=/dev/null; shift 3
    if [ "$1" = "<" ]; then stdin=$2; shift 2; fi
    shift # --
    "$WC" "$@" <"$stdin" >"$T/out" 2>"$T/err"
    RC=$?
    check "$name" eval '[ "$RC" -eq 2 ] && [ ! -s "$T/out" ] &&
        grep -q "^webcrypto: UsageError: .*$want" "$T/err" &&
        cmp -s "$S/$file" "$S/$file.orig" && no_temps "$S"'
}
refused "encrypt --key K --out K is refused and K is untouched" "--out and --key name the same file" \
    k.jwk -- encrypt AES-GCM --key "$S/k.jwk" --iv $IV --out "$S/k.jwk" "$S/data"
refused "--out ./K for --key K (another name) is refused" "--out and --key" \
    k.jwk -- encrypt AES-GCM --key "$S/k.jwk" --iv $IV --out "$S/./k.jwk" "$S/data"
refused "--out a symbolic link to the --key file is refused" "--out and --key" \
    k.jwk -- encrypt AES-GCM --key "$S/k.jwk" --iv $IV --out "$S/k.link" "$S/data"
refused "--out a hard link to the --key file is refused" "--out and --key" \
    k.jwk -- decrypt AES-GCM --key "$S/k.jwk" --iv $IV --out "$S/k.hard" "$S/data"
refused "--key - read from the --out file is refused" "--out names the file that standard input is (--key -)" \
    k.jwk "<" "$S/k.jwk" -- encrypt AES-GCM --key - --iv $IV --out "$S/k.jwk" "$S/data"
refused "--out FILE for the data FILE is refused" "--out and FILE name the same file" \
    data -- encrypt AES-GCM --key "$S/k.jwk" --iv $IV --out "$S/data" "$S/data"
refused "--out FILE for data read from standard input (FILE) is refused" "standard input" \
    data "<" "$S/data" -- encrypt AES-GCM --key "$S/k.jwk" --iv $IV --out "$S/data"
refused "streamed AES-CBC --out FILE for the data FILE is refused" "--out and FILE" \
    data -- encrypt AES-CBC --key "$S/cbc.jwk" --iv ${IV}00000000 --out "$S/data" "$S/data"
refused "sign HMAC --key K --out K is refused" "--out and --key" \
    mac.jwk -- sign HMAC --key "$S/mac.jwk" --out "$S/mac.jwk" "$S/data"
refused "digest --out FILE FILE is refused" "--out and FILE" \
    data -- digest SHA-256 --out "$S/data" "$S/data"
refused "wrap-key --wrapping-key W --out W is refused" "--out and --wrapping-key" \
    k.jwk -- wrap-key --key "$S/mac.jwk" --alg HMAC --format raw --wrapping-key "$S/k.jwk" \
    --wrap-alg AES-GCM --iv $IV --out "$S/k.jwk"
refused "derive-bits --public-key P --out P is refused" "--out and --public-key" \
    ec.pub.jwk -- derive-bits ECDH --key "$S/ec.jwk" --public-key "$S/ec.pub.jwk" --out "$S/ec.pub.jwk"
refused "export --key K --out K is refused" "--out and --key" \
    ec.jwk -- export --key "$S/ec.jwk" --alg ECDH --format jwk --out "$S/ec.jwk"
refused "import FILE --out FILE is refused" "--out and FILE" \
    ec.jwk -- import --alg ECDH --format jwk "$S/ec.jwk" --out "$S/ec.jwk"
refused "unwrap-key FILE --out FILE is refused" "--out and FILE" \
    data -- unwrap-key --wrapping-key "$S/k.jwk" --wrap-alg AES-GCM --iv $IV --format raw --alg HMAC \
    --hash SHA-256 "$S/data" --out "$S/data"
ln "$S/ec.pub.jwk" "$S/ec.pub.hard"
refused "generate-key --out-public a hard link of --out-private is refused" \
    "--out-private and --out-public name the same file" \
    ec.pub.jwk -- generate-key ECDH --curve P-256 --out-private "$S/ec.pub.jwk" --out-public "$S/ec.pub.hard"
"$WC" encrypt AES-GCM --key "$S/k.jwk" --iv $IV --out "$S/ct" "$S/data" 2>"$T/err"
RC=$?
check "--out a new name beside the inputs still works" eval '[ "$RC" -eq 0 ] && [ -s "$S/ct" ]'
"$WC" encrypt AES-GCM --key "$S/k.jwk" --iv $IV --out "$S/ct" "$S/data" 2>"$T/err"
RC=$?
check "--out an existing file that is no input is replaced as before" eval '[ "$RC" -eq 0 ] && [ -s "$S/ct" ]'

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
