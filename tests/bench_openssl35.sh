#!/usr/bin/env bash
# Smoke test of webcrypto-bench's openssl@3.5 target (issue #27 item 6): the
# openssl backend on OpenSSL 3.5 measured in the same run as on this
# process's OpenSSL (3.0), by a worker process on 3.5's libcrypto.
#   bench_openssl35.sh SOURCE_DIR BENCH_EXE
# The OpenSSL 3.5 is tools/fetch-openssl.sh's cached build; without it the
# test is skipped (77) saying why, and fails under CI=true (as
# tests/openssl35_run.sh).
set -u
src=$1 BENCH=$2
. "$src/tests/openssl35_find.sh"
openssl35_find "$src"
dir=$OPENSSL35_DIR
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   - $1"; }
ko() { fail=$((fail + 1)); echo "FAIL - $1"; }
check() { # check DESCRIPTION COMMAND...
  local d=$1
  shift
  if "$@"; then ok "$d"; else ko "$d"; fi
}
unset WEBCRYPTO_BENCH_OPENSSL_3_5
TINY=(--iterations 3 --warmup 1ms,1x --max-time 20)
# openssl@3.5 first: its worker generates the ECDSA pair, which this process
# then imports (the keys travel both ways); ML-KEM and ML-DSA, which the
# backend offers on 3.5 and not on 3.0.
OPS=digest-sha-256,aes-gcm-256-encrypt,ecdsa-p256-sign,ml-kem-768-decapsulate,ml-dsa-65-verify
"$BENCH" --backend openssl@3.5,raw-openssl@3.5,openssl,raw-openssl --openssl-dir "3.5=$dir" \
  --op $OPS --sizes 64,1k "${TINY[@]}" --json "$T/run.json" --markdown "$T/run.md" \
  >"$T/run.txt" 2>"$T/run.err"
rc=$?
check "run exits 0 (rc $rc; 1 if a cell failed or an output differed)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/#   /' "$T/run.err" | tail -10
name=$(sed -n 's/^target:   \(openssl@[0-9.]*\) .*/\1/p' "$T/run.txt")
echo "# $(grep '^target:   openssl@' "$T/run.txt")"
loaded=${name#openssl@}
check "the target is named after the OpenSSL the worker loaded, a 3.5 ($name)" \
  bash -c "case '$loaded' in 3.5.*) exit 0;; *) exit 1;; esac"
check "its description is that OpenSSL's own (OpenSSL_version)" \
  grep -q "^target:   $name OpenSSL $loaded " "$T/run.txt"
check "the in-process openssl is not 3.5 (a second OpenSSL in one run)" \
  bash -c "! grep -q '^target:   openssl  *OpenSSL 3\.5\.' '$T/run.txt'"
for op in digest-sha-256 aes-gcm-256-encrypt; do
  for sz in '64 B' '1 KiB'; do
    check "$op $sz: a figure for $name and raw-openssl@$loaded" bash -c \
      "grep -Eq '^$op +$sz $name +[0-9]+x[0-9]+ +[0-9.]+ [nuµm]?s' '$T/run.txt' &&
       grep -Eq '^$op +$sz raw-openssl@$loaded +[0-9]+x[0-9]+ +[0-9.]+ [nuµm]?s' '$T/run.txt'"
  done
done
check "ecdsa-p256-sign: a figure for $name" \
  grep -Eq "^ecdsa-p256-sign +- $name +[0-9]+x[0-9]+ +[0-9.]+ [nuµm]?s" "$T/run.txt"
check "the ECDSA pair came from the worker (keys travel back)" \
  grep -q "^keys: .*p-256 ($name)" "$T/run.txt"
check "outputs compared across both OpenSSLs, none differs" bash -c \
  "grep -Eq '^outputs: [1-9][0-9]* deterministic cells compared.*; [1-9][0-9]* checks of randomized outputs .*, 0 failed' '$T/run.txt' &&
   ! grep -q 'give different outputs\|does not check' '$T/run.err'"
check "ovh/raw: $name over raw-openssl@$loaded, never over 3.0's" \
  grep -Eq "^ovh/raw: .*[:;] $name over raw-openssl@$loaded(;|$)" "$T/run.txt"
check "JSON and Markdown name the target $name" bash -c \
  "grep -q '\"backend\": \"$name\", \"ok\": true' '$T/run.json' && grep -q '| $name |' '$T/run.md'"
check "Markdown: $name over openssl (3.0 in this process), a column of ratios" bash -c \
  "grep -q ' $name / openssl | raw-openssl@$loaded / raw-openssl |$' '$T/run.md' &&
   grep -Eq '^\\| aes-gcm-256-encrypt \\| 1 KiB \\|.* [0-9.]+x \\| [0-9.]+x \\|$' '$T/run.md'"
for op in ml-kem-768-decapsulate ml-dsa-65-verify; do
  check "$op: a figure for $name, none for 3.0's openssl" bash -c \
    "grep -Eq '^$op +- $name +[0-9]+x[0-9]+ +[0-9.]+ [nuµm]?s' '$T/run.txt' &&
     ! grep -Eq '^$op +- openssl ' '$T/run.txt'"
done

# The directory from the environment; openssl@<this process's version>
# without a directory is this process's backend, named after its version.
sys=$(sed -n 's/^target:   openssl  *OpenSSL \([0-9][0-9.]*\) .*/\1/p' "$T/run.txt")
WEBCRYPTO_BENCH_OPENSSL_3_5=$dir "$BENCH" --backend "openssl@3.5,openssl@${sys%.*}" \
  --op digest-sha-256 --sizes 64 "${TINY[@]}" >"$T/env.txt" 2>"$T/env.err"
rc=$?
check "WEBCRYPTO_BENCH_OPENSSL_3_5 and openssl@${sys%.*} in-process (rc $rc)" bash -c \
  "[ $rc -eq 0 ] && grep -q '^target:   $name ' '$T/env.txt' &&
   grep -q '^target:   openssl@$sys OpenSSL $sys ' '$T/env.txt'"

# +VAR=VALUE: a worker's environment (WEBCRYPTO_VAR), so that two
# implementations the backend chooses between at init are measured in one
# run: AES-GCM-SIV's construction and OpenSSL 3.5's own cipher, same bytes.
"$BENCH" --backend "openssl@3.5+OPENSSL_GCM_SIV=ours,openssl@3.5+OPENSSL_GCM_SIV=openssl" \
  --openssl-dir "3.5=$dir" --op aes-gcm-siv-256-encrypt --sizes 64,1k "${TINY[@]}" \
  >"$T/gs.txt" 2>"$T/gs.err"
rc=$?
check "+OPENSSL_GCM_SIV=ours and =openssl in one run (rc $rc)" test $rc -eq 0
for impl in ours openssl; do
  check "$name+OPENSSL_GCM_SIV=$impl: named, its worker given WEBCRYPTO_OPENSSL_GCM_SIV=$impl, figures" bash -c \
    "grep -q '^target:   $name+OPENSSL_GCM_SIV=$impl OpenSSL $loaded .*, WEBCRYPTO_OPENSSL_GCM_SIV=$impl)$' '$T/gs.txt' &&
     grep -Eq '^aes-gcm-siv-256-encrypt +1 KiB $name\+OPENSSL_GCM_SIV=$impl +[0-9]+x[0-9]+ +[0-9.]+ [nuµm]?s' '$T/gs.txt'"
done
check "the two implementations gave the same bytes" \
  grep -q '^outputs: 4 deterministic cells compared' "$T/gs.txt"

# Errors name the target and the reason.
expect_error() { # DESCRIPTION PATTERN ARGS...
  local d=$1 pat=$2
  shift 2
  "$BENCH" "$@" --op digest-sha-256 --sizes 64 "${TINY[@]}" >"$T/e.txt" 2>"$T/e.err"
  local rc=$?
  check "$d (rc $rc)" bash -c "[ $rc -eq 2 ] && grep -q \"$pat\" '$T/e.err'"
  [ $rc -eq 2 ] || sed 's/^/#   /' "$T/e.err" | head -5
}
expect_error "no directory: a clear error" \
  "target openssl@3.5 is not available: no OpenSSL 3.5 directory (--openssl-dir 3.5=DIR or WEBCRYPTO_BENCH_OPENSSL_3_5" \
  --backend openssl@3.5
expect_error "a directory without libcrypto.so.3" \
  "target openssl@3.5 is not available: $T/none/lib/libcrypto.so.3: No such file" \
  --backend openssl@3.5 --openssl-dir "3.5=$T/none"
expect_error "the version loaded is checked, not assumed" \
  "target openssl@3.4 is not available: $dir/lib gave OpenSSL $loaded, not 3.4" \
  --backend openssl@3.4 --openssl-dir "3.4=$dir"
expect_error "a bad --openssl-dir" "expected VERSION=DIR" --openssl-dir "$dir"
expect_error "a bad +VAR=VALUE" "then any +VAR=VALUE for WEBCRYPTO_VAR" \
  --backend "openssl@3.5+lower=x" --openssl-dir "3.5=$dir"

echo "# $pass passed, $fail failed"
[ $fail -eq 0 ]
