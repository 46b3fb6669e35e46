#!/usr/bin/env bash
# Builds libwebcrypto from clean and runs the whole test suite with CTest.
#   tools/test.sh             release build (build/test)
#   tools/test.sh --sanitize  AddressSanitizer + UndefinedBehaviorSanitizer build (build/sanitize)
#   tools/test.sh --tsan      ThreadSanitizer: the shared-key thread test on the openssl
#                             backend only, on both its paths (provider calls, EVP: build/tsan;
#                             on OpenSSL 3.0 and 3.5;
#                             also the fork and exit tests, test_process, on openssl;
#                             docs/ENVIRONMENT.md); OpenSSL itself is not instrumented,
#                             the JVM is too noisy for TSan, and TSan refuses the
#                             RTLD_DEEPBIND the boringssl module is loaded with
#   tools/test.sh --jca-only  the jca backend alone (build/jcaonly), as an Android app
#                             ships it: no C crypto library linked; the suite on jca
#   tools/test.sh --fuzz-replay the fuzz targets built with clang (build/fuzz), and
#                             their corpora replayed once: the generated seeds and
#                             the committed regression inputs, no fuzzing
#                             (docs/FUZZING.md)
# The interop tests fetch their pinned Node once (tools/fetch-node.sh), into
# ~/.cache/libwebcrypto (and the *.openssl35 tests OpenSSL 3.5: tools/fetch-openssl.sh), and also run against the node on PATH; the node.wpt
# tests the WPT WebCryptoAPI snapshot (tools/fetch-wpt.sh), into the same cache.
# Wycheproof vectors are read from $WEBCRYPTO_WYCHEPROOF_DIR, else ../shared/wycheproof.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
mode=test
cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEBCRYPTO_WERROR=ON)
if [ "${1:-}" = "--sanitize" ]; then
  mode=sanitize
  cmake_args=(-DCMAKE_BUILD_TYPE=Debug -DWEBCRYPTO_SANITIZE=ON -DWEBCRYPTO_WERROR=ON)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
elif [ "${1:-}" = "--tsan" ]; then
  tsan=-fsanitize=thread
  rm -rf build/tsan
  cmake -S . -B build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEBCRYPTO_WERROR=ON \
    -DCMAKE_C_FLAGS="$tsan" -DCMAKE_EXE_LINKER_FLAGS="$tsan" \
    -DCMAKE_SHARED_LINKER_FLAGS="$tsan" -DCMAKE_MODULE_LINKER_FLAGS="$tsan"
  cmake --build build/tsan -j "$(nproc)" --target test_threads test_process webcrypto_cli
  # and test_threads on OpenSSL 3.5 too (tests/openssl35.cmake; fetched here)
  bash tools/fetch-openssl.sh >/dev/null || echo "could not fetch OpenSSL 3.5: see test_threads.openssl35" >&2
  TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build/tsan --output-on-failure \
    -R '^(test_threads\.openssl(35)?(-evp)?|test_process_(fork|exit)\.openssl)$'
  exit 0
elif [ "${1:-}" = "--jca-only" ]; then
  # What an Android app ships: the jca backend alone, no C crypto library
  # linked (docs/ANDROID.md); the whole suite on the jca variants.
  rm -rf build/jcaonly
  cmake -S . -B build/jcaonly -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEBCRYPTO_WERROR=ON \
    -DWEBCRYPTO_BACKEND_OPENSSL=OFF -DWEBCRYPTO_BACKEND_BORINGSSL=OFF
  cmake --build build/jcaonly -j "$(nproc)"
  if readelf -d build/jcaonly/libwebcrypto.so | grep -E 'NEEDED.*lib(crypto|ssl)\.'; then
    echo "FAIL: the jca-only libwebcrypto.so links a C crypto library" >&2
    exit 1
  fi
  echo "libwebcrypto.so (jca only) needs: $(readelf -d build/jcaonly/libwebcrypto.so |
    sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
  ctest --test-dir build/jcaonly --output-on-failure -j "$(nproc)"
  exit 0
elif [ "${1:-}" = "--fuzz-replay" ]; then
  bash tools/install-deps.sh --fuzz
  rm -rf build/fuzz
  cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEBCRYPTO_WERROR=ON \
    -DWEBCRYPTO_FUZZ=ON -DCMAKE_C_COMPILER=clang-14
  cmake --build build/fuzz -j "$(nproc)" --target fuzz_import fuzz_unwrap fuzz_der fuzz_decrypt
  ctest --test-dir build/fuzz --output-on-failure --no-tests=error -L fuzz
  exit 0
fi
# Fetched here, before the tests start, so that a download is not timed as a
# test; if it fails, the interop.node24 tests say why (and fail under CI=true).
bash tools/fetch-node.sh >/dev/null || echo "could not fetch the pinned Node: see the interop.node24 tests" >&2
# The same for OpenSSL 3.5, which the *.openssl35 tests load instead of the
# system's libcrypto (tests/openssl35.cmake): built once into the same cache
# (some minutes on two cores the first time); they skip, or fail under
# CI=true, saying why, without it.
bash tools/fetch-openssl.sh >/dev/null || echo "could not fetch OpenSSL 3.5: see the *.openssl35 tests" >&2
# The same for the WPT WebCryptoAPI snapshot the node.wpt.* tests run: they
# skip, saying why, when it could not be downloaded, and fail when its sha256
# was not the pinned one (bindings/node/test/wpt/ctest.sh).
wpt_err=$(mktemp)
if wpt_dir=$(bash tools/fetch-wpt.sh 2>"$wpt_err"); then
  export WEBCRYPTO_WPT_DIR=$wpt_dir
else
  export WEBCRYPTO_WPT_FETCH_STATUS=$?
  WEBCRYPTO_WPT_FETCH_ERROR=$(tr '\n' ' ' <"$wpt_err")
  export WEBCRYPTO_WPT_FETCH_ERROR
  echo "could not fetch the WPT snapshot: $WEBCRYPTO_WPT_FETCH_ERROR (see the node.wpt tests)" >&2
fi
rm -f "$wpt_err"
rm -rf "build/$mode"
cmake -S . -B "build/$mode" "${cmake_args[@]}"
cmake --build "build/$mode" -j "$(nproc)"
ctest --test-dir "build/$mode" --output-on-failure -j "$(nproc)"
# The Wycheproof counts per file (or the reason it skipped), from the log.
echo "Wycheproof results:"
grep -E '^(Wycheproof|[a-z0-9_]+_test\.json: |TOTAL: |wycheproof: |SKIP: )' \
  "build/$mode/Testing/Temporary/LastTest.log" | sed 's/^/  /' || echo "  (no Wycheproof output found)"
