#!/usr/bin/env bash
# Runs a constant-time program (tests/ct.cmake) under valgrind's memcheck.
#   run.sh clean PROGRAM        passes when memcheck reports nothing and the
#                               program's checks pass (it prints "all checks passed")
#   run.sh leak FUNC PROGRAM    the self-test: passes only when memcheck reports a
#                               branch on a secret in FUNC, and nothing else fails
#   run.sh missing REASON       what a build without valgrind/memcheck.h registers
# Without valgrind: exit 77 (a skip, with the reason), or 1 under CI=true.
set -uo pipefail

skip() {
  echo "SKIP: $1" >&2
  if [ "${CI:-}" = "true" ]; then
    echo "FAIL: CI=true, where the constant-time checks must run" >&2
    exit 1
  fi
  exit 77
}

mode=$1
shift
case "$mode" in
  missing) skip "$1" ;;
  clean) func="" ;;
  leak) func=$1; shift ;;
  *) echo "usage: run.sh clean|leak FUNC|missing ..." >&2; exit 2 ;;
esac
command -v valgrind >/dev/null 2>&1 || skip "valgrind is not installed (Debian: apt-get install valgrind)"

log=$(mktemp)
out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT
# --error-exitcode: any memcheck report fails the run. The programs exit 0,
# or 3 when one of their own checks fails, or 77 to skip. Leak checking is
# off: this is about secrets steering branches and addresses, not about
# memory not freed at exit (OpenSSL's globals).
# tests/ct/libcrypto.supp: where our code ends and OpenSSL's begins.
valgrind --tool=memcheck --error-exitcode=1 --track-origins=yes --leak-check=no \
  --num-callers=30 --suppressions="$(dirname "$0")/libcrypto.supp" --log-file="$log" \
  "$@" >"$out" 2>&1
rc=$?
cat "$out"
cat "$log" >&2
[ $rc -eq 77 ] && exit 77

if [ "$mode" = clean ]; then
  if [ $rc -ne 0 ]; then
    if grep -q "uninitialised" "$log"; then
      echo "FAIL: memcheck reports a branch or an address that depends on a secret (above)" >&2
    else
      echo "FAIL: exit status $rc" >&2
    fi
    exit 1
  fi
  grep -q "all checks passed" "$out" || { echo "FAIL: the program did not finish its checks" >&2; exit 1; }
  exit 0
fi

# leak: memcheck must have failed the run for a branch inside $func, and the
# program must otherwise have finished.
if [ $rc -ne 1 ]; then
  echo "FAIL: expected memcheck to report the deliberate leak (exit 1), got exit status $rc" >&2
  exit 1
fi
if ! grep -A1 "Conditional jump or move depends on uninitialised value" "$log" | grep -q "at 0x[0-9A-F]*: $func "; then
  echo "FAIL: memcheck failed the run, but not with a branch on a secret in $func" >&2
  exit 1
fi
grep -q "all checks passed" "$out" || { echo "FAIL: the leaky program did not finish its checks" >&2; exit 1; }
echo "memcheck caught the deliberate leak in $func: the constant-time check works"
exit 0
