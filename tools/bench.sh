#!/usr/bin/env bash
# Builds libwebcrypto in Release mode and runs `webcrypto bench`: every
# backend built here side by side with OpenSSL (and BoringSSL, when that
# backend is built) called directly, on the
# operations people choose a backend for, at sizes 16 B to 1 MiB. Writes
# build/release/bench.json and build/release/bench.svg too.
# Any arguments replace the default selection (see `webcrypto bench --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DWEBCRYPTO_BUILD_TESTS=OFF >/dev/null
cmake --build build/release -j "$(nproc)" >/dev/null
# The build's own modules (boringssl): the library looks only in its install
# location and in $WEBCRYPTO_MODULE_DIR (docs/ENVIRONMENT.md).
export WEBCRYPTO_MODULE_DIR="$PWD/build/release/modules"
args=("$@")
if [ ${#args[@]} -eq 0 ]; then
  args=(--op digest-sha-256,hmac-sha-256-sign,aes-gcm-256-encrypt,aes-gcm-256-decrypt
        --sizes 16,1k,10k,100k,1m)
fi
exec build/release/webcrypto bench "${args[@]}" \
  --json build/release/bench.json --svg build/release/bench.svg
