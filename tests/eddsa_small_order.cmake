# One vector per entry of the core's Ed25519 and Ed448 small-order lists, as
# the public key and as R (tests/test_eddsa_small_order.c).
webcrypto_backend_test(test_eddsa_small_order test_eddsa_small_order.c)
