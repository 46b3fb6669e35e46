#!/usr/bin/env bash
# `webcrypto bench` runs the program webcrypto-bench (tools/cli/cmd_bench.c)
# instead of linking the benchmark into the webcrypto command: the command
# has none of the benchmark's code, passes its arguments through unchanged,
# finds the program next to itself before PATH, and says so clearly when it
# finds none.
# usage: bench_cli_test.sh WEBCRYPTO_EXE WEBCRYPTO_BENCH_EXE INSTALL_BINDIR
#   (exit 77: skipped: no nm to read the symbols)
set -uo pipefail
cli=$1 bench=$2 installed=$3
command -v nm >/dev/null || { echo "skip: no nm"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
check() { # name, command...
  local name=$1; shift
  if "$@" >"$T/check.out" 2>&1; then echo "ok   $name"; pass=$((pass + 1))
  else echo "FAIL $name"; sed 's/^/     /' "$T/check.out"; fail=$((fail + 1)); fi
}

# The benchmark is not in the command.
nm "$cli" >"$T/syms" 2>&1
check "the webcrypto command has symbols to read" test -s "$T/syms"
check "the webcrypto command does not link the benchmark (no webcrypto_bench_main)" \
  sh -c "! grep -qw webcrypto_bench_main '$T/syms'"

# The real program, through the command: the same text as run directly,
# under the name "webcrypto bench".
"$cli" bench --help >"$T/via.txt" 2>&1; rc=$?
"$bench" --help 2>&1 | sed '1s/^usage: [^ ]*/usage: webcrypto bench/' >"$T/direct.txt"
check "webcrypto bench --help exits 0 (rc $rc)" test "$rc" -eq 0
check "webcrypto bench --help is webcrypto-bench's, named webcrypto bench" diff "$T/direct.txt" "$T/via.txt"
"$cli" bench --no-such-option >"$T/err.txt" 2>&1; rc=$?
check "a usage error is webcrypto-bench's: exit 2 (rc $rc)" test "$rc" -eq 2
check "... and its message, named webcrypto bench" \
  grep -qx 'webcrypto bench: option --no-such-option needs a value (see --help)' "$T/err.txt"

# A copy of the command alone, with a stand-in webcrypto-bench that prints
# its arguments: found next to the command before PATH; the arguments
# arrive unchanged (spaces, empty, a leading dash).
mkdir -p "$T/alone" "$T/next" "$T/path"
cp "$cli" "$T/alone/webcrypto"
cp "$cli" "$T/next/webcrypto"
printf '#!/bin/sh\necho "next: $#"; printf "[%%s]\\n" "$@"\n' >"$T/next/webcrypto-bench"
printf '#!/bin/sh\necho "path: $#"; printf "[%%s]\\n" "$@"\n' >"$T/path/webcrypto-bench"
chmod +x "$T/next/webcrypto-bench" "$T/path/webcrypto-bench"
printf 'next: 4\n[a b]\n[]\n[--x=1]\n[-]\n' >"$T/want_next"
sed '1s/next/path/' "$T/want_next" >"$T/want_path"
PATH="$T/path:$PATH" "$T/next/webcrypto" bench "a b" "" --x=1 - >"$T/got_next" 2>&1
check "next to the command, before PATH; arguments unchanged" diff "$T/want_next" "$T/got_next"
# Without one installed where the command would look next (its install's
# bin directory), the copy alone finds it on PATH, then nowhere.
if [ -e "$installed/webcrypto-bench" ]; then
  echo "skip the PATH and not-found checks: $installed/webcrypto-bench is installed"
else
  PATH="$T/path" "$T/alone/webcrypto" bench "a b" "" --x=1 - >"$T/got_path" 2>&1
  check "on PATH when not next to the command" diff "$T/want_path" "$T/got_path"
  PATH="$T/empty" "$T/alone/webcrypto" bench --help >"$T/none.out" 2>"$T/none.err"; rc=$?
  check "not found: exit 4 (I/O error; rc $rc)" test "$rc" -eq 4
  check "not found: the message names what was tried" \
    grep -q "^webcrypto: IOError: bench: webcrypto-bench not found (tried $T/alone/webcrypto-bench, .* and PATH)" "$T/none.err"
  check "not found: nothing on stdout" test ! -s "$T/none.out"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
