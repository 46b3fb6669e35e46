# Sourced by the tests that need OpenSSL 3.5 (openssl35_run.sh,
# bench_openssl35.sh): openssl35_find SOURCE_DIR sets OPENSSL35_DIR to
# tools/fetch-openssl.sh's cached build, or ends the test, skipped (77)
# saying why, or failed under CI=true, where the 3.5 tests must run.
openssl35_find() {
  local err why
  # stdout alone: a test's LD_PRELOAD (the JDK's libjsig) may warn on stderr.
  err=$(mktemp) || exit 1
  if ! OPENSSL35_DIR=$(bash "$1/tools/fetch-openssl.sh" --cached 2>"$err"); then
    why=$(grep -v 'OpenJDK VM warning' "$err")
    rm -f "$err"
    if [ "${CI:-}" = true ]; then
      echo "FAIL: $why (CI=true: the OpenSSL 3.5 tests must run)"
      exit 1
    fi
    echo "SKIP: $why"
    exit 77
  fi
  rm -f "$err"
}
