# The asymmetric algorithms (RSA, EC, Ed25519, X25519): known answers, format
# round trips, and every error kind through the public API.
webcrypto_backend_test(test_pkey test_pkey.c)
target_link_libraries(test_pkey PRIVATE PkgConfig::JANSSON)
webcrypto_backend_test(test_pkey_errors test_pkey_errors.c)
target_link_libraries(test_pkey_errors PRIVATE PkgConfig::JANSSON)
# Multi-prime RSA keys: refused or used, per backend.
webcrypto_backend_test(test_rsa_multiprime test_rsa_multiprime.c)
target_link_libraries(test_rsa_multiprime PRIVATE PkgConfig::JANSSON)
# The Modern Algorithms draft: its key formats everywhere; ML-KEM and ML-DSA
# where the backend has them (jca on a JDK 24+), with the Wycheproof files.
webcrypto_backend_test(test_pq test_pq.c)
target_link_libraries(test_pq PRIVATE PkgConfig::JANSSON)
