# SHA-3 as the hash of the keyed algorithms, KMAC's keys and parameters and
# cSHAKE's parameters, on every backend (a backend without them: a visible
# skip). Known answers: test_kat; Wycheproof: test_wycheproof.
webcrypto_backend_test(test_sha3 test_sha3.c)
