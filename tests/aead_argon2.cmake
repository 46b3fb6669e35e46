# ChaCha20-Poly1305, AES-OCB and Argon2 ("Modern Algorithms in the Web
# Cryptography API"): RFC 8439, RFC 7253 and RFC 9106 known answers and the
# draft's error kinds, on every backend (a backend without one of them skips
# its tests, visibly).
webcrypto_backend_test(test_aead_argon2 test_aead_argon2.c)
