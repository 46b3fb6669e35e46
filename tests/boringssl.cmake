# boringssl-specific test: in one process that uses both the openssl and the
# boringssl backends (test_differential), no symbol reference of the module
# or of BoringSSL's libcrypto may bind to another libcrypto (OpenSSL's), and
# nothing outside them may bind into BoringSSL. Checked with the dynamic
# loader's own trace (LD_DEBUG=bindings), so it also holds under ASan.
# boringssl_isolation_bench: the same in webcrypto-bench running raw-openssl
# and raw-boringssl (its module webcrypto-bench-raw-boringssl.so) side by side.
get_property(_built GLOBAL PROPERTY WEBCRYPTO_BUILT_BACKENDS)
if(NOT "boringssl" IN_LIST _built OR NOT "openssl" IN_LIST _built)
  return()
endif()
get_filename_component(_bssl_dir ${WEBCRYPTO_BORINGSSL_CRYPTO} DIRECTORY)
get_filename_component(_bssl_dir ${_bssl_dir} REALPATH)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/boringssl_isolation.sh [=[
# $1: a program that loads both backends; $2: BoringSSL's library directory;
# further arguments: the program's. $ISOLATION_ALSO_LOADED: another module
# (file name) that must be loaded.
prog=$1 bssl=$2
shift 2
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
if ! LD_DEBUG=bindings LD_DEBUG_OUTPUT="$d/trace" "$prog" "$@" >"$d/out" 2>&1; then
  cat "$d/out"; echo "FAIL: $prog failed"; exit 1
fi
cat "$d"/trace.* >"$d/all"
ours="webcrypto-boringssl\.so|webcrypto-bench-raw-boringssl\.so|$bssl/libcrypto\.so[.0-9]*"
grep -Eq "binding file [^ ]*webcrypto-boringssl\.so " "$d/all" || { echo "FAIL: the module was not loaded"; exit 1; }
grep -Eq "binding file [^ ]*libcrypto\.so\.3 " "$d/all" || { echo "FAIL: OpenSSL's libcrypto was not loaded"; exit 1; }
if [ -n "${ISOLATION_ALSO_LOADED:-}" ] && ! grep -Fq "/$ISOLATION_ALSO_LOADED [" "$d/all"; then
  echo "FAIL: $ISOLATION_ALSO_LOADED was not loaded"; exit 1
fi
out_bad=$(grep -E "binding file [^ ]*($ours) " "$d/all" | grep -E " to [^ ]*libcrypto\.so[.0-9]* " | grep -Ev " to [^ ]*($ours) ")
in_bad=$(grep -E " to [^ ]*($ours) " "$d/all" | grep -Ev "binding file [^ ]*($ours) ")
n=$(grep -Ec "binding file [^ ]*($ours) " "$d/all")
if [ -n "$out_bad$in_bad" ]; then
  printf '%s\n%s\n' "$out_bad" "$in_bad" | head -20; echo "FAIL: symbols cross between the two libcryptos"; exit 1
fi
echo "ok: $n bindings of the module and BoringSSL, none to or from another libcrypto"
]=])
add_test(NAME boringssl_isolation
         COMMAND sh ${CMAKE_CURRENT_BINARY_DIR}/boringssl_isolation.sh $<TARGET_FILE:test_differential> ${_bssl_dir})
# Only these two backends (no JVM), so that under ASan leak checking stays on.
set_tests_properties(boringssl_isolation PROPERTIES
  ENVIRONMENT "WEBCRYPTO_DIFF_BACKENDS=openssl,boringssl;WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}"
  TIMEOUT 600)
if(TARGET webcrypto-bench-raw-boringssl)
  add_test(NAME boringssl_isolation_bench
           COMMAND sh ${CMAKE_CURRENT_BINARY_DIR}/boringssl_isolation.sh $<TARGET_FILE:webcrypto-bench> ${_bssl_dir}
                   --backend openssl,boringssl,raw-openssl,raw-boringssl --op digest-sha-256,hmac-sha-256-sign,aes-gcm-256-decrypt,aes-cbc-128-encrypt,aes-gcm-siv-128-encrypt
                   --sizes 64 --iterations 2 --warmup 1ms,1x --max-time 20 --quiet)
  set_tests_properties(boringssl_isolation_bench PROPERTIES
    ENVIRONMENT "ISOLATION_ALSO_LOADED=webcrypto-bench-raw-boringssl.so;WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}"
    TIMEOUT 300)
endif()
