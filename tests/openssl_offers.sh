#!/usr/bin/env bash
# Runs COMMAND only if the openssl backend offers every ALGORITHM named, and
# fails otherwise: for a test run through an implementation forced by an
# environment variable (WEBCRYPTO_OPENSSL_GCM_SIV, WEBCRYPTO_OPENSSL_ARGON2),
# which offers nothing when it is missing or fails its probe; the test itself
# would then skip, and a skip must not stand in for that path.
#   openssl_offers.sh WEBCRYPTO_CLI ALGORITHM... -- COMMAND [ARGS...]
set -u
cli=$1
shift
algs=$("$cli" --backend openssl backends 2>&1 | sed -n 's/^  algorithms: //p' | head -n 1)
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case " $algs " in
    *" $1 "*) ;;
    *) echo "FAIL: the openssl backend does not offer $1 here (its algorithms: $algs)"
       exit 1 ;;
  esac
  shift
done
shift
exec "$@"
