/*
 * webcrypto.h - the W3C Web Cryptography API (SubtleCrypto) for C.
 *
 * libwebcrypto gives C programs WebCrypto's exact semantics - algorithms, key
 * formats, key usages, extractability and error kinds - over a crypto backend
 * chosen at run time ("openssl" by default).
 *
 * Conventions, true of every function below unless its comment says otherwise:
 *
 *  - Functions return a webcrypto_status. WEBCRYPTO_OK is 0; anything else is
 *    one of the spec's error kinds. After a failure, webcrypto_error_message()
 *    returns a human-readable sentence saying what was wrong (per thread, like
 *    errno). Output arguments are left untouched on failure, except that
 *    output buffers may have been wiped.
 *  - Lengths are explicit: a byte buffer is always (pointer, length). A NULL
 *    pointer with length 0 is an empty buffer.
 *  - Bulk outputs go to the caller's buffer: (out, out_cap, &out_len). Call
 *    with out == NULL to learn, in *out_len, how many bytes the call may write
 *    at most; a too-small buffer is WEBCRYPTO_ERR_INVALID_ARGUMENT with
 *    *out_len set to the size needed. One-shot calls copy no bulk data.
 *  - Objects (webcrypto_key, contexts) are owned by the caller after they are
 *    returned, and released with their _free function. _free(NULL) does
 *    nothing. What _free wipes depends on where the secret lives:
 *      - the library's own copies (a secret key's raw bytes, the public
 *        fields of an asymmetric key it read, buffers it allocated): wiped,
 *        always;
 *      - openssl and boringssl state (key schedules, HMAC pads, EVP_PKEY):
 *        released through the library's own free functions, which clear
 *        key material before freeing it;
 *      - jca: the C side is wiped, but the Java objects holding the key
 *        (SecretKeySpec, PrivateKey, engines keyed with them, the arrays
 *        that carried bytes across JNI) are in the Java heap, where C cannot
 *        wipe them: they become garbage, and the collector may already have
 *        copied them. Arrays the backend itself allocated for secret bytes
 *        are zeroed before they are let go. See docs/JCA.md.
 *  - Secret lifetime (docs/ROBUSTNESS.md, "Secret lifetime"; checked by
 *    tests/test_residue.c): while a key lives, its secret is held once
 *    where a backend's state holds it. A non-extractable secret key other
 *    than a KDF's (HKDF, PBKDF2, Argon2 keys, whose bytes the KDF takes on
 *    every call) is kept only as the backend's state: an AES key schedule
 *    (which starts with the key itself), HMAC's hashed pads, OpenSSL KMAC's
 *    copy of the key (its KMAC takes the key per call), Java's SecretKeySpec
 *    on jca; an extractable one also as the raw bytes exportKey and wrapKey
 *    read. A private key is held as the backend library's object alone
 *    (EVP_PKEY, BoringSSL's RSA/EC_KEY/X25519 bytes, Java's PrivateKey);
 *    its members are read out only to export it, into a buffer wiped
 *    afterwards (jca's ML-KEM/ML-DSA keys keep their seed in C too: the JDK
 *    does not give it back). A non-extractable key used to unwrap or derive
 *    is kept so for as long as it lives: freeing it is what ends that. After
 *    the keys, contexts and results are freed (and results wiped or freed
 *    with webcrypto_buffer_free), no copy of a secret remains in the
 *    process's C memory that the library made, except where a secret
 *    necessarily stays: the Java heap (jca, above); jansson's lexer buffers,
 *    which hold pieces of an imported JWK's text (webcrypto_import_key); and
 *    whatever the caller's own buffers hold. The boringssl backend overwrites
 *    16 KiB of stack after HKDF and PBKDF2, whose BoringSSL functions leave
 *    the PRK and the HMAC key in their frames.
 *  - A webcrypto_key is immutable and may be used by many threads at once.
 *    Contexts (digest, sign, cipher) belong to one thread at a time.
 *  - fork(): on openssl and boringssl a child may use the library at once,
 *    even if other threads were inside it when the process forked: it can
 *    start backends, make keys and use them and the keys it inherited. The
 *    openssl backend's fork handler waits for the calls under way to end
 *    (a fork may wait for a long PBKDF2). jca: a JVM does not survive fork,
 *    so in a child forked after the jca backend started, every jca call is
 *    WEBCRYPTO_ERR_OPERATION with a message naming this rule (freeing jca
 *    keys is safe); a child that had not used jca before the fork starts
 *    its own JVM. The handlers touch only the library's own state.
 *  - exit() while other threads are inside the library does not crash: the
 *    openssl backend's atexit handler runs before OpenSSL's cleanup, waits
 *    (at most 5 s) for the calls under way, and later calls on the openssl
 *    backend fail with WEBCRYPTO_ERR_OPERATION ("the process is exiting"),
 *    also from atexit handlers registered before its first start (frees
 *    there leave the memory to the exiting process).
 *    docs/ROBUSTNESS.md, "fork and exit", has the details.
 *  - Algorithm names are matched case-insensitively, as WebCrypto does.
 *  - Every function returning a webcrypto_status is marked
 *    WEBCRYPTO_MUST_CHECK: ignoring the status is a compiler warning (gcc,
 *    clang). webcrypto_verify's status says whether verification could be
 *    done; whether the signature is valid is *valid, which must be read too.
 *
 * The ABI, and how it grows (docs/ABI.md has the whole policy):
 *
 *  - webcrypto_params starts with its own size. Initialise it with
 *    WEBCRYPTO_PARAMS_INIT or WEBCRYPTO_PARAMS(.name = ..., ...) (or, where
 *    macros cannot be used, webcrypto_params_init(&p, sizeof p)): a library
 *    of a later version reads a program's shorter struct as one whose newer
 *    members are absent, and an older library accepts a longer struct as
 *    long as the members it does not know are zero (NotSupportedError
 *    otherwise). A size of 0 is TypeError.
 *  - Versions: WEBCRYPTO_VERSION and WEBCRYPTO_VERSION_MAJOR/_MINOR/_PATCH/
 *    _NUMBER are this header's; webcrypto_version() and
 *    webcrypto_version_number() the running library's.
 *  - Before 1.0 each minor release may break the ABI and changes the soname
 *    (libwebcrypto.so.0.2); from 1.0 only a major release may, and the soname
 *    is libwebcrypto.so.MAJOR. Exported symbols are exactly the webcrypto_*
 *    functions, each with a symbol version (WEBCRYPTO_0.2; WEBCRYPTO_0.3 for
 *    webcrypto_get_public_key, webcrypto_supports and the other 0.3
 *    functions; WEBCRYPTO_0.4 for webcrypto_set_limits and
 *    webcrypto_get_limits; WEBCRYPTO_0.5 for webcrypto_derive_key_as) from
 *    the release that added it.
 *  - webcrypto_limits grows as webcrypto_params does (its own size first).
 */
#ifndef WEBCRYPTO_H
#define WEBCRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define WEBCRYPTO_API __attribute__((visibility("default")))
#else
#define WEBCRYPTO_API
#endif

/* Marks a function whose result must be used (every webcrypto_status). */
#if defined(__GNUC__)
#define WEBCRYPTO_MUST_CHECK __attribute__((warn_unused_result))
#else
#define WEBCRYPTO_MUST_CHECK
#endif

/* The version of this header. CMakeLists.txt reads the project's version
 * from these three lines. */
#define WEBCRYPTO_VERSION_MAJOR 0
#define WEBCRYPTO_VERSION_MINOR 5
#define WEBCRYPTO_VERSION_PATCH 0
#define WEBCRYPTO_VERSION "0.5.0"
/* MAJOR * 1000000 + MINOR * 1000 + PATCH: 0.5.0 is 5000; compares in order. */
#define WEBCRYPTO_VERSION_NUMBER                                                  \
    (WEBCRYPTO_VERSION_MAJOR * 1000000L + WEBCRYPTO_VERSION_MINOR * 1000L +       \
     WEBCRYPTO_VERSION_PATCH)

/* The running library's version, "0.5.0" (static string), and its number as
 * WEBCRYPTO_VERSION_NUMBER computes it. A program compares them with the
 * header's macros to learn what it runs against (a newer library may know
 * algorithms and params members that its header does not). */
WEBCRYPTO_API const char *webcrypto_version(void);
WEBCRYPTO_API long webcrypto_version_number(void);

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */
/* ------------------------------------------------------------------------ */

typedef enum webcrypto_status {
    WEBCRYPTO_OK = 0,
    WEBCRYPTO_ERR_NOT_SUPPORTED,    /* NotSupportedError: unknown algorithm, or the backend lacks it */
    WEBCRYPTO_ERR_SYNTAX,           /* SyntaxError: usages invalid for the key or algorithm */
    WEBCRYPTO_ERR_INVALID_ACCESS,   /* InvalidAccessError: key not usable for this operation */
    WEBCRYPTO_ERR_DATA,             /* DataError: bad key data or parameters tied to data */
    WEBCRYPTO_ERR_OPERATION,        /* OperationError: the operation failed (bad tag, bad padding, ...) */
    WEBCRYPTO_ERR_QUOTA_EXCEEDED,   /* QuotaExceededError: getRandomValues over 65536 bytes */
    WEBCRYPTO_ERR_INVALID_ARGUMENT, /* the spec's TypeError, and C misuse (NULL, short buffer) */
    WEBCRYPTO_ERR_NO_MEMORY         /* allocation failed */
} webcrypto_status;

/* The spec's name of a status: "DataError", "TypeError", "OutOfMemory", "OK".
 * Never NULL; the string is static. */
WEBCRYPTO_API const char *webcrypto_status_name(webcrypto_status status);

/* The message of the last failure on the calling thread ("" if none yet).
 * Valid until the next libwebcrypto call on this thread. */
WEBCRYPTO_API const char *webcrypto_error_message(void);

/* ------------------------------------------------------------------------ */
/* Algorithms, usages, formats                                              */
/* ------------------------------------------------------------------------ */

typedef enum webcrypto_algorithm {
    WEBCRYPTO_ALG_NONE = 0,
    WEBCRYPTO_ALG_SHA_1,
    WEBCRYPTO_ALG_SHA_256,
    WEBCRYPTO_ALG_SHA_384,
    WEBCRYPTO_ALG_SHA_512,
    WEBCRYPTO_ALG_HMAC,
    WEBCRYPTO_ALG_AES_CBC,
    WEBCRYPTO_ALG_AES_CTR,
    WEBCRYPTO_ALG_AES_GCM,
    WEBCRYPTO_ALG_HKDF,
    WEBCRYPTO_ALG_PBKDF2,
    WEBCRYPTO_ALG_AES_GCM_SIV, /* RFC 8452; not in WebCrypto, see webcrypto_encrypt */
    WEBCRYPTO_ALG_AES_KW,      /* RFC 3394 key wrap: wrapKey/unwrapKey only */
    WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5,
    WEBCRYPTO_ALG_RSA_PSS,
    WEBCRYPTO_ALG_RSA_OAEP,
    WEBCRYPTO_ALG_ECDSA,
    WEBCRYPTO_ALG_ECDH,
    WEBCRYPTO_ALG_ED25519,
    WEBCRYPTO_ALG_X25519,
    WEBCRYPTO_ALG_ED448, /* "Secure Curves in the Web Cryptography API" */
    WEBCRYPTO_ALG_X448,
    /* 0.3.0: "Modern Algorithms in the Web Cryptography API" (FIPS 203
     * ML-KEM, FIPS 204 ML-DSA). */
    WEBCRYPTO_ALG_ML_KEM_512,
    WEBCRYPTO_ALG_ML_KEM_768,
    WEBCRYPTO_ALG_ML_KEM_1024,
    WEBCRYPTO_ALG_ML_DSA_44,
    WEBCRYPTO_ALG_ML_DSA_65,
    WEBCRYPTO_ALG_ML_DSA_87,
    /* "Modern Algorithms in the Web Cryptography API" (WICG draft): SHA-3
     * (FIPS 202), cSHAKE and KMAC (SP 800-185). */
    WEBCRYPTO_ALG_SHA3_256,
    WEBCRYPTO_ALG_SHA3_384,
    WEBCRYPTO_ALG_SHA3_512,
    WEBCRYPTO_ALG_CSHAKE128, /* digest only through webcrypto_digest_params */
    WEBCRYPTO_ALG_CSHAKE256,
    WEBCRYPTO_ALG_KMAC128,
    WEBCRYPTO_ALG_KMAC256,
    WEBCRYPTO_ALG_CHACHA20_POLY1305, /* RFC 8439 AEAD: 256-bit keys, 12-byte iv */
    WEBCRYPTO_ALG_AES_OCB,           /* RFC 7253: 1..15-byte iv, 64/96/128-bit tags */
    WEBCRYPTO_ALG_ARGON2D,           /* RFC 9106 password hashing: deriveBits */
    WEBCRYPTO_ALG_ARGON2I,
    WEBCRYPTO_ALG_ARGON2ID
    /* Values are stable; a new algorithm takes the next value. How many the
     * library knows is webcrypto_algorithm_count(), not a constant, so that
     * a program compiled against this header keeps working with a newer
     * library. */
} webcrypto_algorithm;

/* The WebCrypto name of an algorithm ("AES-GCM", "SHA-256"); NULL if unknown. */
WEBCRYPTO_API const char *webcrypto_algorithm_name(webcrypto_algorithm alg);

/* Looks up an algorithm by its WebCrypto name, ignoring ASCII case.
 * Returns WEBCRYPTO_ERR_NOT_SUPPORTED for a name the library does not know. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_algorithm_from_name(const char *name, webcrypto_algorithm *out);

/* The algorithms this library knows, in a stable order: index 0 .. count-1.
 * webcrypto_algorithm_at returns WEBCRYPTO_ALG_NONE past the end. Whether a
 * backend implements one is webcrypto_backend_supports. */
WEBCRYPTO_API size_t webcrypto_algorithm_count(void);
WEBCRYPTO_API webcrypto_algorithm webcrypto_algorithm_at(size_t index);

/* SubtleCrypto's operations (the spec's "supported operations" of an
 * algorithm). */
typedef enum webcrypto_operation {
    WEBCRYPTO_OP_ENCRYPT = 1,
    WEBCRYPTO_OP_DECRYPT,
    WEBCRYPTO_OP_SIGN,
    WEBCRYPTO_OP_VERIFY,
    WEBCRYPTO_OP_DIGEST,
    WEBCRYPTO_OP_GENERATE_KEY,
    WEBCRYPTO_OP_DERIVE_KEY,
    WEBCRYPTO_OP_DERIVE_BITS,
    WEBCRYPTO_OP_IMPORT_KEY,
    WEBCRYPTO_OP_EXPORT_KEY,
    WEBCRYPTO_OP_WRAP_KEY,   /* AES-KW's own; other algorithms wrap by encrypting */
    WEBCRYPTO_OP_UNWRAP_KEY, /* AES-KW's own; other algorithms unwrap by decrypting */
    WEBCRYPTO_OP_GET_KEY_LENGTH,
    /* 0.3.0 ("Modern Algorithms in the Web Cryptography API"): a public key
     * from a private one (webcrypto_get_public_key); every algorithm with
     * key pairs has it. */
    WEBCRYPTO_OP_GET_PUBLIC_KEY,
    /* 0.3.0 (ML-KEM): encapsulateKey/Bits and decapsulateKey/Bits, which
     * the draft normalises as "encapsulate" and "decapsulate". */
    WEBCRYPTO_OP_ENCAPSULATE,
    WEBCRYPTO_OP_DECAPSULATE
} webcrypto_operation;

/* The operation's name as SubtleCrypto spells it ("generateKey",
 * "deriveBits", "get key length", "getPublicKey"); NULL for an unknown
 * value. */
WEBCRYPTO_API const char *webcrypto_operation_name(webcrypto_operation op);

/* Whether the algorithm has the operation in WebCrypto (AES-GCM: encrypt,
 * decrypt, generateKey, importKey, exportKey, get key length; ECDH and
 * X25519 also deriveKey, through deriveBits). Says nothing about a backend;
 * false for an unknown algorithm or operation. */
WEBCRYPTO_API bool webcrypto_algorithm_has_operation(webcrypto_algorithm alg,
                                                     webcrypto_operation op);

/* Key usages, a bit set. */
enum {
    WEBCRYPTO_USAGE_ENCRYPT = 1u << 0,
    WEBCRYPTO_USAGE_DECRYPT = 1u << 1,
    WEBCRYPTO_USAGE_SIGN = 1u << 2,
    WEBCRYPTO_USAGE_VERIFY = 1u << 3,
    WEBCRYPTO_USAGE_DERIVE_KEY = 1u << 4,
    WEBCRYPTO_USAGE_DERIVE_BITS = 1u << 5,
    WEBCRYPTO_USAGE_WRAP_KEY = 1u << 6,
    WEBCRYPTO_USAGE_UNWRAP_KEY = 1u << 7,
    /* 0.3.0 (ML-KEM): a public key encapsulates, a private key decapsulates. */
    WEBCRYPTO_USAGE_ENCAPSULATE_KEY = 1u << 8,
    WEBCRYPTO_USAGE_ENCAPSULATE_BITS = 1u << 9,
    WEBCRYPTO_USAGE_DECAPSULATE_KEY = 1u << 10,
    WEBCRYPTO_USAGE_DECAPSULATE_BITS = 1u << 11
};

/* The usage's WebCrypto name ("encrypt", "deriveBits"), for exactly one bit;
 * NULL otherwise. */
WEBCRYPTO_API const char *webcrypto_usage_name(unsigned usage);

/* Parses one usage name ("wrapKey"), case-sensitively as the spec does.
 * Returns WEBCRYPTO_ERR_INVALID_ARGUMENT (TypeError) for an unknown name. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_usage_from_name(const char *name,
                                                                              unsigned *out);

typedef enum webcrypto_key_format {
    WEBCRYPTO_FORMAT_RAW = 1,
    WEBCRYPTO_FORMAT_PKCS8,
    WEBCRYPTO_FORMAT_SPKI,
    WEBCRYPTO_FORMAT_JWK, /* key data is the JSON text of a JsonWebKey (RFC 7517) */
    /* 0.3.0, "Modern Algorithms in the Web Cryptography API". Which
     * algorithm takes which format is webcrypto_algorithm_has_format. */
    WEBCRYPTO_FORMAT_RAW_PUBLIC, /* a public key's bytes: an alias of raw for the
                                    EC and OKP algorithms; ML-KEM's and ML-DSA's
                                    encoded public key (FIPS 203 ek, FIPS 204 pk) */
    WEBCRYPTO_FORMAT_RAW_SECRET, /* a secret key's bytes: an alias of raw for HMAC,
                                    AES-*, HKDF and PBKDF2 */
    WEBCRYPTO_FORMAT_RAW_SEED    /* a private key's seed: ML-KEM d || z (64 bytes),
                                    ML-DSA xi (32 bytes) */
} webcrypto_key_format;

/* Whether importKey and exportKey of the algorithm's keys take the format
 * (exportKey only for an algorithm whose keys export, and each format for
 * its kind of key: spki, raw-public public keys; pkcs8, raw-seed private
 * keys; raw-secret secret keys; raw and jwk whichever the algorithm has).
 * Per the drafts: raw-secret wherever raw reads a secret key, raw-public
 * wherever raw reads a public key (EC, OKP); ML-KEM and ML-DSA take spki,
 * pkcs8, raw-public, raw-seed and jwk, not raw. A format the algorithm does
 * not take is NotSupportedError at import and export. False for an unknown
 * algorithm or format. */
WEBCRYPTO_API bool webcrypto_algorithm_has_format(webcrypto_algorithm alg,
                                                  webcrypto_key_format format);

typedef enum webcrypto_key_type {
    WEBCRYPTO_KEY_SECRET = 1,
    WEBCRYPTO_KEY_PUBLIC,
    WEBCRYPTO_KEY_PRIVATE
} webcrypto_key_type;

/* The NIST curves of ECDSA and ECDH. */
typedef enum webcrypto_named_curve {
    WEBCRYPTO_CURVE_NONE = 0,
    WEBCRYPTO_CURVE_P256,
    WEBCRYPTO_CURVE_P384,
    WEBCRYPTO_CURVE_P521
} webcrypto_named_curve;

/* "P-256", "P-384", "P-521"; NULL for anything else. */
WEBCRYPTO_API const char *webcrypto_curve_name(webcrypto_named_curve curve);

/* Looks a curve up by its WebCrypto name (case-sensitive, as the spec's
 * namedCurve is). Unknown: WEBCRYPTO_ERR_NOT_SUPPORTED. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_curve_from_name(const char *name, webcrypto_named_curve *out);

/*
 * webcrypto_params is the C form of WebCrypto's algorithm dictionaries
 * (AesGcmParams, HmacImportParams, HkdfParams, ...). Initialise it with its
 * size - WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_AES_GCM, .length = 256), or
 * WEBCRYPTO_PARAMS_INIT and then assignments - set `name`, and set the members
 * that algorithm and operation read; the others are ignored. A member left
 * 0 / NULL is "absent" where the spec allows it to be absent.
 *
 * `size` is how the struct grows without breaking compiled programs: every
 * function taking a webcrypto_params copies the caller's `size` bytes into a
 * zeroed struct of the library's own layout before reading any member.
 *   - size 0 (the struct was not initialised with its size), or a size that
 *     does not reach past `name`: WEBCRYPTO_ERR_INVALID_ARGUMENT (TypeError).
 *   - smaller than the library's struct: a program built against an older
 *     header; the members it does not have are absent.
 *   - larger: a program built against a newer header; the bytes past the
 *     library's struct must all be zero (members left absent), else
 *     WEBCRYPTO_ERR_NOT_SUPPORTED (the program asked for something this
 *     library does not know). At most 4096 bytes (else TypeError).
 * Members are only ever appended, never reordered, resized or removed.
 *
 *   operation          name      members read
 *   digest             SHA-*, SHA3-*  -
 *   digest             cSHAKE128, cSHAKE256  output_length (bits), function_name,
 *                                customization (webcrypto_digest_params)
 *   generate/import    KMAC128, KMAC256  length (bits, optional: 128 / 256)
 *   sign/verify        KMAC128, KMAC256  output_length (bits), customization
 *   generate/import    HMAC      hash (required), length (bits, optional)
 *   generate           AES-*     length (128, 192 or 256; AES-GCM-SIV: 128 or 256)
 *   wrapKey/unwrapKey  AES-KW    -  (or any algorithm that encrypts, with its members)
 *   deriveKey          the deriveBits members; the derived key's type is a second
 *                      params: AES-* with length, or HMAC with hash (and length)
 *   import             AES-*, HKDF, PBKDF2  -
 *   sign/verify        HMAC      -
 *   encrypt/decrypt    AES-CBC   iv (16 bytes)
 *                      AES-CTR   counter (16 bytes), length (counter bits, 1..128)
 *                      AES-GCM   iv (1 byte or more), additional_data (optional),
 *                                tag_length (bits: 32, 64, 96..128 by 8; 0 means 128)
 *                      AES-GCM-SIV  iv (the 12-byte nonce), additional_data
 *                                (optional), tag_length (0 or 128)
 *                      ChaCha20-Poly1305  iv (exactly 12 bytes), additional_data
 *                                (optional), tag_length (0 or 128)
 *                      AES-OCB   iv (1..15 bytes), additional_data (optional),
 *                                tag_length (64, 96 or 128; 0 means 128)
 *   generate           ChaCha20-Poly1305  -  (always 256 bits; length is ignored,
 *                                as the draft's generateKey takes no parameters)
 *   generate           AES-OCB   length (128, 192 or 256)
 *   import             ChaCha20-Poly1305, AES-OCB  -  (raw, jwk: "C20P",
 *                                "A128OCB"/"A192OCB"/"A256OCB")
 *   import             Argon2d, Argon2i, Argon2id  -  (raw only, the password;
 *                                never extractable)
 *   deriveBits         Argon2d, Argon2i, Argon2id  nonce (the salt, 8 bytes or more),
 *                                parallelism (1 .. 2^24-1), memory (KiB, at least
 *                                8 * parallelism), passes (>= 1), version (0x13;
 *                                0 means absent, so 0x13), secret_value (the draft's
 *                                secretValue, optional), additional_data (the draft's
 *                                associatedData, optional); length in bits, a
 *                                multiple of 8, at least 32
 *   deriveBits         HKDF      hash, salt, info
 *                      PBKDF2    hash, salt, iterations (>= 1)
 *   generate           RSASSA-PKCS1-v1_5, RSA-PSS, RSA-OAEP  modulus_length (bits),
 *                                public_exponent (big-endian: 01 00 01 or 03), hash
 *   import             RSA-*     hash (fixed for the key's life)
 *   generate/import    ECDSA, ECDH  named_curve
 *   generate/import    Ed25519, X25519  -
 *   sign/verify        RSASSA-PKCS1-v1_5, Ed25519  -
 *                      RSA-PSS   salt_length (bytes; 0 is a valid length)
 *                      ECDSA     hash (chosen per call); signatures are r || s
 *   encrypt/decrypt    RSA-OAEP  label (optional)
 *   deriveBits         ECDH, X25519  public_key (the peer's public key)
 *   generate/import    ML-KEM-*, ML-DSA-*  -
 *   sign/verify        ML-DSA-*  context (optional, 0..255 bytes; over 255 is
 *                                OperationError)
 *   encapsulate/decapsulate  ML-KEM-*  -
 */
typedef struct webcrypto_key webcrypto_key;

typedef struct webcrypto_params {
    size_t size; /* sizeof(webcrypto_params) as the program saw it: set by the initialisers */
    webcrypto_algorithm name;
    webcrypto_algorithm hash;
    size_t length;
    const uint8_t *iv;
    size_t iv_len;
    const uint8_t *counter;
    size_t counter_len;
    const uint8_t *additional_data;
    size_t additional_data_len;
    size_t tag_length;
    const uint8_t *salt;
    size_t salt_len;
    const uint8_t *info;
    size_t info_len;
    uint32_t iterations;
    size_t modulus_length;
    const uint8_t *public_exponent;
    size_t public_exponent_len;
    webcrypto_named_curve named_curve;
    size_t salt_length;
    const uint8_t *label;
    size_t label_len;
    const webcrypto_key *public_key;
    /* 0.3.0: the members of the newer algorithms ("Modern Algorithms in the
     * Web Cryptography API", "Secure Curves in the Web Cryptography API"). */
    const uint8_t *context; /* Ed448, ML-DSA: the signature context (0..255 bytes) */
    size_t context_len;
    size_t output_length;   /* cSHAKE, KMAC: outputLength, in bits */
    const uint8_t *customization; /* cSHAKE, KMAC: the customization string S */
    size_t customization_len;
    const uint8_t *function_name; /* cSHAKE: the function-name string N */
    size_t function_name_len;
    const uint8_t *nonce;   /* Argon2: the nonce (salt), 8 bytes or more */
    size_t nonce_len;
    const uint8_t *secret_value; /* Argon2: the optional secret (key) K */
    size_t secret_value_len;
    uint32_t parallelism;   /* Argon2: lanes, 1 .. 2^24-1 */
    uint32_t memory;        /* Argon2: KiB, at least 8 * parallelism */
    uint32_t passes;        /* Argon2: iterations, at least 1 */
    uint32_t version;       /* Argon2: 0x13 (also when 0: absent) */
    /* New members go here, so that the struct has no padding at its end
     * (docs/ABI.md). */
} webcrypto_params;

/* Initialisers: `webcrypto_params p = WEBCRYPTO_PARAMS_INIT;` (all absent), or
 * `webcrypto_params p = WEBCRYPTO_PARAMS(.name = ..., .hash = ...);` with
 * designated members; also as a compound literal:
 * `&(webcrypto_params)WEBCRYPTO_PARAMS(.name = WEBCRYPTO_ALG_SHA_256)`.
 * (C, and C++20, whose designated initialisers take members in order.) */
#define WEBCRYPTO_PARAMS(...) {.size = sizeof(webcrypto_params), __VA_ARGS__}
#define WEBCRYPTO_PARAMS_INIT {.size = sizeof(webcrypto_params)}

/* The same for callers that cannot use the macros (bindings through an FFI,
 * C++ before C++20): zeroes the first `size` bytes of *p and sets p->size to
 * `size`, which is the caller's own sizeof(webcrypto_params) - never more
 * than the memory p points to (the library's struct may be larger than the
 * caller's). Does nothing if p is NULL or size is smaller than the size
 * member (no webcrypto_params is that small). */
WEBCRYPTO_API void webcrypto_params_init(webcrypto_params *p, size_t size);

/* ------------------------------------------------------------------------ */
/* Backends                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct webcrypto_backend webcrypto_backend;

/* Finds the backend registered under `name` ("openssl"); NULL selects the
 * default backend ("openssl"). The first call for a backend initialises it
 * and probes what it supports, once per process; the result is cached,
 * except that a variant ("jca:NAME") that cannot start is tried afresh on
 * its next request and keeps nothing (at most 16 variants start per
 * process). Returns WEBCRYPTO_ERR_NOT_SUPPORTED for an unknown name or a
 * backend that cannot start here. The handle is static: never freed. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_backend_get(const char *name, const webcrypto_backend **out);

/* Number of backends compiled into this library, and the name of the i-th
 * (0 <= i < count; NULL past the end). Listing does not initialise them. */
WEBCRYPTO_API size_t webcrypto_backend_count(void);
WEBCRYPTO_API const char *webcrypto_backend_name_at(size_t index);

/* The backend's name and a one-line description (library and version). */
WEBCRYPTO_API const char *webcrypto_backend_name(const webcrypto_backend *backend);
WEBCRYPTO_API const char *webcrypto_backend_description(const webcrypto_backend *backend);

/* Whether the backend implements an algorithm. Operations on an algorithm it
 * lacks return WEBCRYPTO_ERR_NOT_SUPPORTED. */
WEBCRYPTO_API bool webcrypto_backend_supports(const webcrypto_backend *backend,
                                              webcrypto_algorithm alg);

/* Whether the backend takes `hash` as the hash of `alg` (HMAC, HKDF,
 * PBKDF2, RSASSA-PKCS1-v1_5, RSA-PSS, RSA-OAEP, ECDSA): it supports both,
 * and, for a SHA-3 hash, the combination. A library may have the SHA-3
 * digests but not every keyed algorithm with them; a combination it lacks
 * is NotSupportedError where the hash is given (generate/import, deriveBits,
 * ECDSA sign/verify). Per backend:
 *   openssl    all of them.
 *   boringssl  none (BoringSSL has no SHA-3).
 *   jca        what the provider has, probed at start: JDK 17's SUN, SunJCE,
 *              SunRsaSign and SunEC have all of them (HmacSHA3-*,
 *              SHA3-*withRSA, SHA3-*withECDSAinP1363Format, PSS and OAEP
 *              with SHA-3 digests and MGF1); jca:SunJCE has no RSA or ECDSA;
 *              BouncyCastle 1.72 has all of them.
 * false for NULL, an unknown algorithm or a hash the algorithm does not take. */
WEBCRYPTO_API bool webcrypto_backend_supports_hash(const webcrypto_backend *backend,
                                                   webcrypto_algorithm alg,
                                                   webcrypto_algorithm hash);

/* What a backend may do beyond its algorithms. */
typedef enum webcrypto_feature {
    /* Importing RSA private keys with more than two primes (RFC 8017: PKCS #8
     * RSAPrivateKey version 1 with otherPrimeInfos; RFC 7518: a JWK with
     * "oth"), at most 8 primes in all. They export as they were imported
     * (pkcs8 version 1, jwk with "oth"); generateKey makes two-prime keys.
     * Per backend:
     *   openssl    yes, within OpenSSL 3.0's limits: at most 3 primes below
     *              4096 modulus bits, 4 below 8192, 5 above (and 2 below
     *              1024); a key beyond them is NotSupportedError.
     *   boringssl  no (BoringSSL dropped multi-prime RSA: its RSA API has
     *              two prime factors and no way to give a third).
     *   jca        no, whatever the provider: the JDK's SunRsaSign refuses
     *              such a PKCS #8 key ("Invalid RSA private key", JDK 17 and
     *              25), and BouncyCastle (1.72) imports it as a two-prime
     *              key with p and q only, whose signatures then fail its
     *              fault check.
     * Without it, importKey of such a key (well-formed) is
     * NotSupportedError; a malformed one (version 1 without otherPrimeInfos,
     * version 0 with them, an empty "oth", an entry without r, d or t) is
     * DataError on every backend. The public key (spki, or jwk without "d")
     * imports everywhere: it has no primes. */
    WEBCRYPTO_FEATURE_RSA_MULTI_PRIME = 1,
    /* Ed448 sign and verify with a non-empty context (Secure Curves draft,
     * Ed448Params.context). Without it, a non-empty context is
     * NotSupportedError (the empty one works). Per backend: openssl no
     * (OpenSSL 3.0's EdDSA takes no context string; 3.2 added one);
     * boringssl and jca have no Ed448. */
    WEBCRYPTO_FEATURE_ED448_CONTEXT = 2,
    /* 0.5.0. ML-DSA sign and verify with a non-empty context (FIPS 204's
     * ctx; ContextParams.context in the Modern Algorithms draft). Without
     * it, a non-empty context is NotSupportedError (and webcrypto_supports
     * false); the empty one works. Per backend: jca no (the JDK's ML-DSA
     * Signature takes no parameters); openssl (3.0) and boringssl have no
     * ML-DSA. */
    WEBCRYPTO_FEATURE_ML_DSA_CONTEXT = 3,
} webcrypto_feature;

/* Whether the backend has a feature (false for NULL or an unknown feature). */
WEBCRYPTO_API bool webcrypto_backend_has_feature(const webcrypto_backend *backend,
                                                 webcrypto_feature feature);

/* The "jca" backend (Java Cryptography Architecture through JNI) starts a JVM
 * on first use, from $JAVA_HOME or the system's default JDK, or attaches to
 * one already running in the process. A host that owns a JVM (an Android app,
 * a Java program calling into C) hands it over here, as a JavaVM* cast to
 * void*, before the jca backend is first used. "jca:NAME" selects one JCA
 * provider (e.g. "jca:SunJCE", "jca:BC"). Returns WEBCRYPTO_ERR_INVALID_ARGUMENT
 * for NULL and WEBCRYPTO_ERR_OPERATION once the jca backend has started. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_jca_set_java_vm(void *java_vm);

/* Gives the variant "jca:NAME" (variant_name is NAME, 1 to 63 characters)
 * its provider: `provider`, a local or global JNI reference (jobject cast to
 * void*) to a java.security.Provider instance the host made. The variant
 * then takes every algorithm from that instance (Cipher.getInstance(alg,
 * provider), ...; the digests from the JVM's providers when it has none, as
 * for any "jca:NAME") and never looks NAME up with Security.getProvider or
 * the class path, so NAME is only a label: it need not be the provider's
 * getName(), and the provider need not be registered with the JVM. This is
 * how a provider that only the host's class loader can see (on Android, an
 * app's bundled BouncyCastle or Conscrypt) reaches native threads, whose
 * FindClass sees only the system class loader.
 * Call it on a thread attached to the JVM (a Java thread inside a native
 * method, or a thread that called AttachCurrentThread): its JNIEnv is the
 * one used. The JVM must be known: webcrypto_jca_set_java_vm called before
 * (JNI_OnLoad is the place), or the jca backend started. Call it before the
 * variant's first use (webcrypto_backend_get("jca:NAME")); calling it again
 * before that replaces the provider. The library keeps a global reference to
 * the provider for the rest of the process's life (the caller keeps its own
 * reference and may delete it). Returns WEBCRYPTO_ERR_INVALID_ARGUMENT for a
 * NULL argument, an empty or too long name, or an object that is not a
 * Provider; WEBCRYPTO_ERR_OPERATION when no JVM is known, the thread is not
 * attached, "jca:NAME" has already started (or is starting), or 16 names are
 * taken; WEBCRYPTO_ERR_NOT_SUPPORTED in a build without the jca backend. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_jca_use_provider(const char *variant_name, void *provider);

/* ------------------------------------------------------------------------ */
/* 0.4.0: limits an embedder sets (how much work one request may cost)      */
/* ------------------------------------------------------------------------ */

/*
 * WebCrypto lets the caller choose what some operations cost: PBKDF2's
 * iterations (up to 2^32 - 1, about an hour of CPU), Argon2's memory (up to
 * 4 TiB) and passes, the size of an RSA key generated or imported, and how
 * much JWK text importKey parses. A host that runs requests from others (a
 * server, a JavaScript runtime) decides how much one request may cost, as
 * workerd's checkPbkdfLimits does. The library's core checks these limits
 * before any work is done (before the backend is called, the same on every
 * backend) and refuses a request over one, with a message naming the limit
 * and webcrypto_set_limits.
 *
 *   member                 default                 a request over it
 *   max_pbkdf2_iterations  16777216 (2^24)         deriveBits, deriveKey: NotSupportedError
 *   max_argon2_memory      262144 KiB (256 MiB)    deriveBits, deriveKey: NotSupportedError
 *   max_argon2_passes      16                      deriveBits, deriveKey: NotSupportedError
 *   max_rsa_generate_bits  4096                    generateKey: OperationError
 *   max_rsa_import_bits    16384                   importKey (every format): DataError
 *   max_jwk_bytes          1048576 (1 MiB)         importKey jwk: DataError
 *   max_jwk_key_ops        64                      importKey jwk: DataError
 * (unwrapKey and decapsulateKey import through importKey: the same limits.)
 *
 * The defaults bound a hostile request to seconds of one core and hundreds
 * of MiB, and accept every standard test vector and the usual settings
 * (times measured with OpenSSL 3.0 and the JDK 17 on one x86-64 core,
 * docs/ROBUSTNESS.md):
 *   - PBKDF2: 2^24 is the largest count of RFC 6070's and Wycheproof's
 *     vectors and 28 times OWASP's 600,000 for SHA-256 (12 s of CPU with
 *     SHA-1 or SHA-512 on openssl, 28 s on jca; 2^32 - 1 would be 256 times
 *     that). workerd's 100,000 is below OWASP's advice; a host that wants
 *     it sets it.
 *   - Argon2: 256 MiB is four times RFC 9106's second recommended option
 *     (64 MiB; OWASP advises 19 to 47 MiB); the RFC's first option (2 GiB)
 *     needs the limit raised. 16 passes of 256 MiB take 4.5 s of CPU; RFC
 *     9106 and libsodium's presets use 1 to 4. Memory bounds the lanes too
 *     (memory >= 8 * parallelism), so parallelism has no limit of its own.
 *   - RSA: generating a key costs far more than using one (4096 bits took
 *     4 s, 8192 bits 12 to 49 s, 16384 bits 394 s, on a loaded machine), so
 *     generation and import have a limit each. 4096 bits for generation:
 *     the largest size in common use; the rest of generateKey's own range
 *     (256 to 16384, as browsers') needs the limit raised. 16384 bits for
 *     import: OpenSSL's largest RSA key for its operations
 *     (OPENSSL_RSA_MAX_MODULUS_BITS) and generateKey's largest; signing
 *     with an 8192-bit key takes 0.07 s, so about half a second at 16384.
 *     Keys of 16385 to 32768 bits, imported before, are now DataError
 *     unless the limit is raised (the library reads none larger).
 *   - JWK: 1 MiB is over sixty times the largest key's JWK (a 16384-bit
 *     RSA private key: under 16 KiB) and leaves room for members the
 *     library ignores (an "x5c" certificate chain). key_ops: 64 entries;
 *     the library knows 12 usages (WebCrypto's 8, ML-KEM's 4) and RFC 7517
 *     forbids duplicates, but allows values that are no usage (ignored), so
 *     a JWK's own list may be longer.
 *     key_ops is checked in time linear in its length whatever the limit.
 *
 * Error kinds: a cost limit (PBKDF2, Argon2) is NotSupportedError, as
 * workerd answers for PBKDF2 iterations: the request is valid and this host
 * does not do that much work, which a caller can tell apart from the
 * OperationError of an invalid count (iterations 0, memory under 8 *
 * parallelism). RSA generation over its limit keeps the OperationError of
 * generateKey's own range (the spec's "if generation of the key fails");
 * an import over a limit is DataError, as for any key data the import
 * refuses. webcrypto_supports does not consult the limits (it says
 * whether the algorithm and its members are supported, not whether this
 * host will spend the work).
 *
 * The limits are the library's own process-wide state (it has no context
 * object; backends are process-wide too), the same for every backend and
 * thread. Each is an atomic value: webcrypto_set_limits may be called from
 * any thread at any time, without a data race; sets are serialised. A call
 * reads a limit when it checks it, so a call running during a set uses some
 * old and some new values. Set them at start-up, before other threads make
 * requests, if that matters.
 *
 * webcrypto_limits starts with its size, as webcrypto_params does
 * (docs/ABI.md): initialise it with WEBCRYPTO_LIMITS_INIT or
 * WEBCRYPTO_LIMITS(.max_pbkdf2_iterations = 100000, ...). A member left 0
 * means its default. UINT32_MAX means no limit but the type's; the RSA
 * members' largest values, 16384 and 32768, mean none beyond generateKey's
 * own range and the largest key the library reads.
 */
typedef struct webcrypto_limits {
    size_t size;                    /* sizeof(webcrypto_limits) as the program saw it */
    uint32_t max_pbkdf2_iterations; /* PBKDF2 iterations; 0: 16777216 */
    uint32_t max_argon2_memory;     /* Argon2 memory, KiB; 0: 262144; else at least 8 */
    uint32_t max_argon2_passes;     /* Argon2 passes; 0: 16 */
    uint32_t max_rsa_generate_bits; /* RSA modulus generateKey makes; 0: 4096;
                                     * else 256 .. 16384 */
    uint32_t max_rsa_import_bits;   /* RSA modulus importKey takes; 0: 16384;
                                     * else 256 .. 32768 */
    uint32_t max_jwk_bytes;         /* JWK text importKey parses, bytes; 0: 1048576 */
    uint32_t max_jwk_key_ops;       /* JWK key_ops entries (of any value); 0: 64 */
    uint32_t reserved;              /* 0 (fills the struct to its alignment) */
    /* New members go here (docs/ABI.md: appended only, zero means the
     * default, no padding inside or at the end). */
} webcrypto_limits;

#define WEBCRYPTO_LIMITS(...) {.size = sizeof(webcrypto_limits), __VA_ARGS__}
#define WEBCRYPTO_LIMITS_INIT {.size = sizeof(webcrypto_limits)}

/* Sets every limit `limits` has: each member of the caller's struct, 0 as
 * the member's default. Members a newer library has and the caller's
 * (shorter, older) struct lacks keep their values. All or nothing: on
 * failure no limit changes. Errors: NULL, a size of 0, a size that does not
 * reach past max_pbkdf2_iterations or is over 4096, max_argon2_memory 1 to 7
 * (no Argon2 call has less), max_rsa_generate_bits 1 to 255 or over 16384,
 * max_rsa_import_bits 1 to 255 or over 32768: WEBCRYPTO_ERR_INVALID_ARGUMENT
 * (TypeError); reserved not 0, or a larger struct (a newer header) with a
 * non-zero member this library does not know: WEBCRYPTO_ERR_NOT_SUPPORTED. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_set_limits(const webcrypto_limits *limits);

/* Writes the limits in force into *limits (never 0: a default is given as
 * its value), as many members as limits->size has room for; members of a
 * larger struct that this library lacks are set to 0. limits->size must be
 * set (WEBCRYPTO_LIMITS_INIT); it is left as it is. Errors as
 * webcrypto_set_limits's for NULL and the size. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_get_limits(webcrypto_limits *limits);

/* ------------------------------------------------------------------------ */
/* Random (crypto.getRandomValues, crypto.randomUUID)                       */
/* ------------------------------------------------------------------------ */

/* Fills buf with len cryptographically secure random bytes from the backend
 * (NULL: the default backend). len > 65536 is WEBCRYPTO_ERR_QUOTA_EXCEEDED,
 * as in the spec. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_get_random_values(const webcrypto_backend *backend, uint8_t *buf, size_t len);

/* Writes a random RFC 4122 version 4 UUID, lowercase, as 36 characters and a
 * terminating NUL into out. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_random_uuid(const webcrypto_backend *backend, char out[37]);

/* ------------------------------------------------------------------------ */
/* Digest                                                                   */
/* ------------------------------------------------------------------------ */

/* The digest size in bytes of SHA-1/256/384/512 (20/32/48/64) and
 * SHA3-256/384/512 (32/48/64); 0 otherwise (cSHAKE's is its output_length). */
WEBCRYPTO_API size_t webcrypto_digest_size(webcrypto_algorithm hash);

/* One-shot digest of data with `hash` (a SHA-* algorithm). out_cap must be at
 * least webcrypto_digest_size(hash). */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_digest(const webcrypto_backend *backend, webcrypto_algorithm hash, const uint8_t *data,
                 size_t data_len, uint8_t *out, size_t out_cap, size_t *out_len);

/* SubtleCrypto.digest with an algorithm dictionary, for the digests that
 * take parameters: cSHAKE128 and cSHAKE256 (SP 800-185) read
 *   output_length  bits, required (0 is absent: TypeError; WebCrypto's 0,
 *                  an empty output, cannot be asked for here); one that is
 *                  not a multiple of 8 gives the bytes that hold it with
 *                  the unused low bits of the last byte zero (as Node 24);
 *   function_name  N, optional;  customization  S, optional.
 * With N and S both empty cSHAKE is SHAKE128 / SHAKE256 (FIPS 202). A
 * backend whose library has SHAKE but no cSHAKE answers NotSupportedError
 * for a non-empty N or S (boringssl, and the jca variants: the JCA has only
 * SHAKE; openssl computes cSHAKE on the Keccak its KMAC uses, where init's
 * probe gives SP 800-185's samples: webcrypto_supports says which). The jca variants' SHAKE (MessageDigest "SHAKE128-256" /
 * "SHAKE256-512") has one output_length, 256 (cSHAKE128) or 512
 * (cSHAKE256) bits: NotSupportedError for any other (webcrypto_supports
 * answers the same). Any other algorithm is
 * webcrypto_digest(backend, alg->name, ...). out_cap must be at least the
 * output's size (output_length / 8); out == NULL asks for it. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_digest_params(const webcrypto_backend *backend, const webcrypto_params *alg,
                        const uint8_t *data, size_t data_len, uint8_t *out, size_t out_cap,
                        size_t *out_len);

/* Incremental digest: init, any number of updates, one final, then free.
 * After final (successful or not) the context accepts only free: update and
 * final return WEBCRYPTO_ERR_INVALID_ARGUMENT ("... already finished"). */
typedef struct webcrypto_digest_ctx webcrypto_digest_ctx;
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_digest_init(
    const webcrypto_backend *backend, webcrypto_algorithm hash, webcrypto_digest_ctx **out);
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_digest_update(webcrypto_digest_ctx *ctx, const uint8_t *data, size_t data_len);
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_digest_final(webcrypto_digest_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len);
WEBCRYPTO_API void webcrypto_digest_ctx_free(webcrypto_digest_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* Keys                                                                     */
/* ------------------------------------------------------------------------ */

/* Generates a secret key (HMAC, AES-*, KMAC128/256) on `backend` (NULL:
 * default) as SubtleCrypto.generateKey does. KMAC: length in bits, default
 * 128 (KMAC128) or 256 (KMAC256); whole bytes only (NotSupportedError
 * otherwise: the libraries take keys of bytes); its JWK is kty "oct" with
 * alg "K128" / "K256" (the draft). HMAC with a SHA-3 hash: no default
 * length (no block size is defined for SHA-3: NotSupportedError without
 * one, as in Node 24; also for deriveKey), and its JWK has no "alg" (JOSE
 * registers none): a JWK with one is DataError on import, as for RSA keys
 * with SHA-3 (Node 24 ignores such an "alg"). HMAC and KMAC keys are at most
 * 16 MiB (2^27 bits; OperationError beyond, also on import and deriveKey:
 * the spec sets no maximum). `usages` must be non-empty and allowed for
 * the algorithm (else WEBCRYPTO_ERR_SYNTAX). On success *out owns the key. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_generate_key(const webcrypto_backend *backend, const webcrypto_params *alg,
                       bool extractable, unsigned usages, webcrypto_key **out);

/* Generates a key pair (RSA-*, ECDSA, ECDH, Ed25519, X25519, ML-KEM-*,
 * ML-DSA-*; an ML key is the seed the backend's random draws) as
 * SubtleCrypto.generateKey does for asymmetric algorithms. `usages` are split:
 * the public key gets the public ones (verify, encrypt, wrapKey) and is always
 * extractable; the private key gets the others (sign, decrypt, unwrapKey,
 * deriveKey, deriveBits) and `extractable`. A usage the algorithm does not
 * have, or no private usage at all, is WEBCRYPTO_ERR_SYNTAX. RSA: modulus
 * 256..16384 bits in steps of 8, at most the limit max_rsa_generate_bits
 * (webcrypto_set_limits; 4096 by default), and exponent 3 or 65537, else
 * WEBCRYPTO_ERR_OPERATION; a backend whose library cannot make a size says so
 * with WEBCRYPTO_ERR_OPERATION too (OpenSSL 3 and the JCA: below 512 bits;
 * BoringSSL: sizes that are not a multiple of 128 bits). On success the
 * caller owns both keys. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_generate_key_pair(
    const webcrypto_backend *backend, const webcrypto_params *alg, bool extractable,
    unsigned usages, webcrypto_key **public_key, webcrypto_key **private_key);
/* (ML-KEM: the public key gets encapsulateKey/Bits, the private key
 * decapsulateKey/Bits.) */

/* Imports a key as SubtleCrypto.importKey does. For WEBCRYPTO_FORMAT_JWK,
 * key_data is the JSON text of the JWK (not NUL-terminated necessarily).
 * KMAC128/256 keys: raw (the draft and Node 24 name this format
 * "raw-secret" and refuse "raw" for KMAC) or jwk (kty "oct", alg "K128" /
 * "K256"); alg->length, when given, must be the data's length in bits
 * (DataError); an empty key is DataError.
 * Asymmetric keys: spki (DER) for public keys, pkcs8 (DER) for private keys,
 * raw (and its alias raw-public) for EC public points (uncompressed, or
 * compressed) and Ed25519/X25519/Ed448/X448 public keys (32, 32, 57, 56
 * bytes), jwk for both (Ed448's JWK "alg" is "Ed448", and "EdDSA" is
 * accepted too, as for Ed25519); raw-secret is raw's alias for secret
 * keys. ML-KEM and ML-DSA ("Modern Algorithms in the Web Cryptography
 * API"): spki; pkcs8 in the seed form only
 * (draft-ietf-lamps-kyber-certificates, RFC 9881: [0] seed; the expandedKey
 * and both forms are NotSupportedError); raw-public (the FIPS 203 / 204
 * encoded public key); raw-seed (ML-KEM d || z, 64 bytes; ML-DSA xi, 32;
 * another length is DataError); jwk with kty "AKP", alg the algorithm's
 * name, pub, and priv (the seed; a pub that is not the seed's public key is
 * DataError). No raw. A format the algorithm lacks is NotSupportedError
 * (webcrypto_algorithm_has_format). Every key is checked: EC points on the named
 * curve, RSA private keys consistent, DER complete with nothing after it and
 * the algorithm identifier WebCrypto requires; a failure is DataError.
 * Over a limit of webcrypto_set_limits (an RSA modulus over
 * max_rsa_import_bits, in any format; JWK text over max_jwk_bytes, checked
 * before it is parsed; key_ops with more than max_jwk_key_ops entries):
 * DataError. key_ops is checked in time linear in its entries (n log n
 * for values that are no usage).
 * The data is copied; the caller keeps ownership of key_data.
 * JWK text is parsed by jansson, through the allocator the host has set with
 * json_set_alloc_funcs (process-wide; the library never sets it). Every
 * string value of the parsed JWK ("k", "d", "p", ..., "oth", members the
 * library does not read) is wiped before it is freed, whether the import
 * succeeds or not, as are the library's own decoded copies. Freed without
 * wiping, because jansson frees them itself: its lexer's token buffer, which
 * starts at 16 bytes and is replaced by one twice the size as a token
 * outgrows it - each outgrown buffer, and the last one when the parse ends,
 * holds part of the token text, together the base64url text of the long
 * members, in pieces; and, when the text is not valid JSON (or repeats a member), the values
 * jansson had parsed before the error. Member names are not wiped. A host
 * that needs those blocks wiped installs a wiping allocator with
 * json_set_alloc_funcs before its first JSON call, which applies to its
 * whole process. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_import_key(const webcrypto_backend *backend, webcrypto_key_format format,
                     const uint8_t *key_data, size_t key_data_len, const webcrypto_params *alg,
                     bool extractable, unsigned usages, webcrypto_key **out);

/* Exports a key as SubtleCrypto.exportKey does: raw bytes, or for JWK the
 * compact JSON text (no terminating NUL counted in *out_len, but one is
 * written after it). A non-extractable key is WEBCRYPTO_ERR_INVALID_ACCESS.
 * On success *out is allocated by the library; release it with
 * webcrypto_buffer_free(*out, *out_len), which wipes it. For JWK no block
 * jansson frees holds key material: jansson writes the text straight into
 * *out, and the string nodes that held the base64url members are wiped
 * before they are freed. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_export_key(
    webcrypto_key_format format, const webcrypto_key *key, uint8_t **out, size_t *out_len);

/* Wipes and frees a buffer returned by webcrypto_export_key. */
WEBCRYPTO_API void webcrypto_buffer_free(uint8_t *buf, size_t len);

/* Wipes the key's secret material and frees it: the library's copy of a
 * secret key's bytes, and the backend's state through its own free
 * functions (on jca the Java objects become garbage; see "Secret lifetime"
 * at the top). */
WEBCRYPTO_API void webcrypto_key_free(webcrypto_key *key);

/* Read-only properties of a key (CryptoKey.type, .algorithm, .extractable,
 * .usages). length is the key length in bits for AES and HMAC keys (for RSA
 * keys the modulus length, as webcrypto_key_get_modulus_length gives). */
WEBCRYPTO_API webcrypto_key_type webcrypto_key_get_type(const webcrypto_key *key);
WEBCRYPTO_API webcrypto_algorithm webcrypto_key_get_algorithm(const webcrypto_key *key);
WEBCRYPTO_API webcrypto_algorithm webcrypto_key_get_hash(const webcrypto_key *key);
WEBCRYPTO_API size_t webcrypto_key_get_length(const webcrypto_key *key);
WEBCRYPTO_API bool webcrypto_key_get_extractable(const webcrypto_key *key);
WEBCRYPTO_API unsigned webcrypto_key_get_usages(const webcrypto_key *key);
WEBCRYPTO_API const webcrypto_backend *webcrypto_key_get_backend(const webcrypto_key *key);
/* RSA keys: the modulus length in bits, and the public exponent (big-endian,
 * copied to out when out_cap allows; returns its length). 0 for other keys. */
WEBCRYPTO_API size_t webcrypto_key_get_modulus_length(const webcrypto_key *key);
WEBCRYPTO_API size_t webcrypto_key_get_public_exponent(const webcrypto_key *key, uint8_t *out,
                                                       size_t out_cap);
/* ECDSA and ECDH keys: the curve; WEBCRYPTO_CURVE_NONE for other keys. */
WEBCRYPTO_API webcrypto_named_curve webcrypto_key_get_named_curve(const webcrypto_key *key);

/* ------------------------------------------------------------------------ */
/* Encrypt / decrypt                                                        */
/* ------------------------------------------------------------------------ */

/* Encrypts data with key as SubtleCrypto.encrypt does. alg->name must be the
 * key's algorithm. Output: AES-CBC ciphertext with PKCS#7 padding; AES-CTR
 * ciphertext; AES-GCM ciphertext || tag. out may equal data (in place) when
 * out_cap allows; otherwise the buffers must not overlap. RSA-OAEP encrypts
 * with a public key; its output is the modulus size.
 *
 * AES-GCM-SIV (RFC 8452), beyond WebCrypto: the nonce-misuse-resistant AEAD
 * Tink offers. Keys of 128 or 256 bits (generate, raw and jwk - JWK "alg"
 * A128GCMSIV / A256GCMSIV, kty "oct", use "enc"); a 12-byte nonce in iv; a
 * 16-byte tag; output ciphertext || tag, like AES-GCM. Reusing a nonce reveals
 * only whether two messages are equal. As with AES-GCM, the output buffer
 * holds no plaintext unless the tag verifies (it is wiped on failure).
 *
 * ChaCha20-Poly1305 (RFC 8439) and AES-OCB (RFC 7253), from the WICG draft
 * "Modern Algorithms in the Web Cryptography API": output ciphertext || tag.
 * ChaCha20-Poly1305: 256-bit keys (JWK alg "C20P"), iv exactly 12 bytes,
 * tag_length 0 or 128 (anything else OperationError). AES-OCB: 128-, 192-
 * or 256-bit keys (JWK "A128OCB", "A192OCB", "A256OCB"), iv 1 to 15 bytes,
 * tag_length 64, 96 or 128 (0: 128); OperationError otherwise, an empty iv
 * included (the draft only bounds it above; OpenSSL, BouncyCastle and Node 24
 * refuse it too). Their keys import from WEBCRYPTO_FORMAT_RAW_SECRET and
 * jwk; WEBCRYPTO_FORMAT_RAW is NotSupportedError for them, as the draft has
 * it and Node 24 does.
 * Which backends have them: `webcrypto backends` (ChaCha20-Poly1305:
 * openssl, boringssl, jca; AES-OCB: openssl, jca:BC). */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_encrypt(const webcrypto_params *alg, const webcrypto_key *key, const uint8_t *data,
                  size_t data_len, uint8_t *out, size_t out_cap, size_t *out_len);

/* Decrypts as SubtleCrypto.decrypt does. A wrong AEAD tag or bad AES-CBC
 * padding is WEBCRYPTO_ERR_OPERATION, and then out holds no plaintext (it is
 * wiped). Same buffer rules as webcrypto_encrypt. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_decrypt(const webcrypto_params *alg, const webcrypto_key *key, const uint8_t *data,
                  size_t data_len, uint8_t *out, size_t out_cap, size_t *out_len);

/* Incremental encryption or decryption for AES-CBC and AES-CTR, for data
 * larger than memory; the output is byte-identical to the one-shot call on
 * the concatenated input. (The AEADs - AES-GCM, AES-GCM-SIV, ChaCha20-Poly1305,
 * AES-OCB - are one-shot only, so that
 * decryption never releases plaintext before the tag verifies:
 * NotSupportedError.) update may write up to data_len + 15 bytes; final up
 * to 16. out must not overlap data. The key must outlive the context.
 * After final, or after an update that failed other than for a short output
 * buffer, update and final return
 * WEBCRYPTO_ERR_INVALID_ARGUMENT ("... already finished"). */
typedef struct webcrypto_cipher_ctx webcrypto_cipher_ctx;
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_cipher_init(const webcrypto_params *alg, const webcrypto_key *key, bool encrypt,
                      webcrypto_cipher_ctx **out);
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_cipher_update(webcrypto_cipher_ctx *ctx, const uint8_t *data, size_t data_len,
                        uint8_t *out, size_t out_cap, size_t *out_len);
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_cipher_final(webcrypto_cipher_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len);
WEBCRYPTO_API void webcrypto_cipher_ctx_free(webcrypto_cipher_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* Sign / verify                                                            */
/* ------------------------------------------------------------------------ */

/* Signs data as SubtleCrypto.sign does, with a private key (HMAC: the secret
 * key). Output size: HMAC the hash's digest size; RSASSA-PKCS1-v1_5 and
 * RSA-PSS the modulus size; ECDSA twice the curve's field size (r || s: 64,
 * 96 or 132 bytes); Ed25519 64 bytes; Ed448 114 bytes; ML-DSA-44/65/87
 * 2420, 3309, 4627 bytes (FIPS 204 ML-DSA.Sign, hedged).
 * Ed448 (Secure Curves draft, Ed448Params) and ML-DSA: alg->context is the
 * signature's context string, absent (NULL, 0) for the empty one; over 255
 * bytes is OperationError, for sign and verify alike. The openssl backend
 * (OpenSSL 3.0, whose EdDSA takes no context string) answers
 * NotSupportedError for a non-empty Ed448 context; Node 20 does the same,
 * Node 24 signs with it. A non-empty ML-DSA context is NotSupportedError
 * on a backend without WEBCRYPTO_FEATURE_ML_DSA_CONTEXT (jca: its JDK takes
 * none). Ed25519 has no context in
 * WebCrypto: alg->context is ignored for it (WebIDL drops a member the
 * params dictionary lacks; Node 24 ignores it too).
 * KMAC128/256: alg->output_length / 8
 * bytes (output_length: bits, required - 0 is absent, TypeError - and a
 * multiple of 8, else NotSupportedError: KMAC's output depends on its
 * length and the libraries take whole bytes, where Node 24 takes any;
 * alg->customization is S). KMAC verify computes
 * output_length bits and compares in constant time; a signature of another
 * length is false. openssl (OpenSSL 3.0's KMAC) takes keys of 4 to 512
 * bytes, a customization of at most 512 bytes and at most 2097151 output
 * bytes: NotSupportedError beyond (importKey for the key; Node 24 takes
 * any key). jca:BC (BouncyCastle's Mac "KMAC128" / "KMAC256") takes an
 * output_length of 256 (KMAC128) or 512 (KMAC256) bits and an empty
 * customization only: NotSupportedError otherwise, for sign and verify
 * (webcrypto_supports answers the same). */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_sign(const webcrypto_params *alg,
                                                                   const webcrypto_key *key,
                                                                   const uint8_t *data,
                                                                   size_t data_len, uint8_t *out,
                                                                   size_t out_cap, size_t *out_len);

/* Verifies a signature; the comparison is constant time. A wrong signature
 * is not an error, as in WebCrypto: the call returns WEBCRYPTO_OK with
 * *valid = false. So both must be checked - the status (the call could
 * verify) and *valid (the signature is good) - and the signature is valid
 * only when the status is WEBCRYPTO_OK and *valid is true. To make a
 * status-only check fail safe, *valid is set to false first (when valid is
 * not NULL), before anything else: it stays false on every failure. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_verify(const webcrypto_params *alg, const webcrypto_key *key, const uint8_t *signature,
                 size_t signature_len, const uint8_t *data, size_t data_len, bool *valid);

/* Incremental sign/verify, for HMAC (other algorithms: NotSupportedError):
 * init with the usage to check, updates, then
 * webcrypto_sign_final (sign contexts) or webcrypto_verify_final (verify
 * contexts), then free. The key must outlive the context. After the final
 * call, update and final return WEBCRYPTO_ERR_INVALID_ARGUMENT
 * ("... already finished"). webcrypto_verify_final answers as
 * webcrypto_verify does: check the status and *valid, which is set to false
 * first. */
typedef struct webcrypto_sign_ctx webcrypto_sign_ctx;
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_sign_init(const webcrypto_params *alg,
                                                                        const webcrypto_key *key,
                                                                        webcrypto_sign_ctx **out);
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_verify_init(
    const webcrypto_params *alg, const webcrypto_key *key, webcrypto_sign_ctx **out);
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_sign_update(webcrypto_sign_ctx *ctx,
                                                                          const uint8_t *data,
                                                                          size_t data_len);
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_sign_final(webcrypto_sign_ctx *ctx,
                                                                         uint8_t *out,
                                                                         size_t out_cap,
                                                                         size_t *out_len);
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_verify_final(webcrypto_sign_ctx *ctx,
                                                                           const uint8_t *signature,
                                                                           size_t signature_len,
                                                                           bool *valid);
WEBCRYPTO_API void webcrypto_sign_ctx_free(webcrypto_sign_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* Key wrapping                                                             */
/* ------------------------------------------------------------------------ */

/* SubtleCrypto.wrapKey: exports `key` in `format` (it must be extractable),
 * then wraps the bytes (for JWK, the JSON text) with wrapping_key: AES-KW
 * wraps them (their length must be a multiple of 8: OperationError
 * otherwise), any other algorithm encrypts them with wrap_alg's members.
 * wrapping_key needs the wrapKey usage and wrap_alg->name its algorithm
 * (InvalidAccessError). On success *out is allocated by the library; release
 * it with webcrypto_buffer_free(*out, *out_len). */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_wrap_key(
    webcrypto_key_format format, const webcrypto_key *key, const webcrypto_key *wrapping_key,
    const webcrypto_params *wrap_alg, uint8_t **out, size_t *out_len);

/* SubtleCrypto.unwrapKey: unwraps (AES-KW) or decrypts `wrapped` with
 * unwrapping_key (usage unwrapKey), then imports the result in `format` as
 * webcrypto_import_key does with unwrapped_key_alg, extractable and usages.
 * The new key lives on unwrapping_key's backend; *out owns it. Failing to
 * unwrap is OperationError; bytes that do not import are the import's error
 * (DataError). The unwrapped bytes are wiped. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_unwrap_key(webcrypto_key_format format, const uint8_t *wrapped, size_t wrapped_len,
                     const webcrypto_key *unwrapping_key, const webcrypto_params *unwrap_alg,
                     const webcrypto_params *unwrapped_key_alg, bool extractable, unsigned usages,
                     webcrypto_key **out);

/* ------------------------------------------------------------------------ */
/* Key derivation                                                           */
/* ------------------------------------------------------------------------ */

/* SubtleCrypto.deriveKey: derives as many bits as derived_key_type needs
 * (its "get key length": AES-*: its length; HMAC: its length, else the hash's
 * block size; KMAC: its length, else 128 or 256; ChaCha20-Poly1305: 256;
 * HKDF and PBKDF2: null, which a key agreement (ECDH, X25519, X448) answers
 * with its whole secret and a KDF with OperationError) from base_key (usage
 * deriveKey) with alg, and imports them ("raw-secret", or "raw" for HKDF and
 * PBKDF2) as a key of derived_key_type with extractable and usages. The new
 * key lives on base_key's backend; *out owns it. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_derive_key(const webcrypto_params *alg, const webcrypto_key *base_key,
                     const webcrypto_params *derived_key_type, bool extractable, unsigned usages,
                     webcrypto_key **out);

/* 0.5.0. webcrypto_derive_key with derivedKeyType as the spec's deriveKey
 * has it: normalised twice, as importKey's algorithm (import_type: the key
 * is imported as that) and as "get key length"'s (length_type: the bits
 * derived), which a binding that reads a script's dictionary twice may get
 * different from each other. webcrypto_derive_key(a, k, t, ...) is
 * webcrypto_derive_key_as(a, k, t, t, ...). Checks, in the spec's order:
 * alg, import_type, length_type, base_key, the length. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_derive_key_as(const webcrypto_params *alg, const webcrypto_key *base_key,
                        const webcrypto_params *import_type,
                        const webcrypto_params *length_type, bool extractable, unsigned usages,
                        webcrypto_key **out);

/* deriveBits' length "null": ECDH, X25519 and X448 give their whole shared
 * secret (P-256: 32 bytes, P-384: 48, P-521: 66, X25519: 32, X448: 56). X448
 * follows X25519's rules below (an all-zero secret is OperationError). */
#define WEBCRYPTO_LENGTH_FULL SIZE_MAX

/* SubtleCrypto.deriveBits, with the bulk-output convention: on success
 * *out_len is the number of bytes written; out == NULL writes nothing and
 * derives nothing, and sets *out_len to the number of bytes the call would
 * write (after the checks of the algorithm, the key and length_bits; an ECDH
 * or X25519 public key is checked only when deriving). HKDF and PBKDF2:
 * writes length_bits / 8 bytes to
 * out; length_bits must be a multiple of 8 (else OperationError); 0 gives an
 * empty result (the spec since w3c/webcrypto#380; PBKDF2 still checks that
 * iterations is not 0).
 * ECDH and X25519: key is the private key (usage deriveBits), alg->public_key
 * the peer's public key of the same algorithm and curve (InvalidAccessError
 * otherwise); length_bits is WEBCRYPTO_LENGTH_FULL or at most the secret's
 * size (OperationError beyond), and a length that is not a multiple of 8
 * keeps the first length_bits bits, the rest of the last byte zero; an
 * all-zero X25519 secret is OperationError. out_cap must be at least
 * ceil(length_bits / 8) (or the full size): TypeError otherwise, with
 * *out_len set to the size needed.
 * Argon2d, Argon2i, Argon2id (RFC 9106; the draft "Modern Algorithms in the
 * Web Cryptography API"): key is the password, imported raw (the draft's
 * "raw-secret"), never extractable; the members are in webcrypto_params'
 * table (nonce, parallelism, memory, passes, version, secret_value, and
 * additional_data as the draft's associatedData). length_bits a multiple of
 * 8 and at least 32, version 0x13 or 0, parallelism 1..2^24-1, memory >= 8 *
 * parallelism, passes >= 1, in that order, else OperationError; a nonce under
 * 8 bytes is OperationError too (RFC 9106's minimum: the draft's "the
 * derivation fails"), a NULL nonce TypeError (a required member). The
 * openssl backend computes it with libargon2, which may run up to 4 threads
 * of its own during the call when parallelism > 1 (joined before it
 * returns; the result does not depend on them); a build without libargon2
 * uses OpenSSL 3.2+'s Argon2, on the calling thread. memory KiB are allocated
 * per call: an allocation failure is WEBCRYPTO_ERR_NO_MEMORY.
 * After those checks, PBKDF2 iterations over max_pbkdf2_iterations, Argon2
 * memory over max_argon2_memory and passes over max_argon2_passes
 * (webcrypto_set_limits) are NotSupportedError, before any work; also for
 * the size query (out == NULL) and deriveKey. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_derive_bits(const webcrypto_params *alg, const webcrypto_key *key, size_t length_bits,
                      uint8_t *out, size_t out_cap, size_t *out_len);

/* ------------------------------------------------------------------------ */
/* 0.3.0: getPublicKey and supports ("Modern Algorithms in the Web          */
/* Cryptography API", SubtleCrypto.getPublicKey and SubtleCrypto.supports)  */
/* ------------------------------------------------------------------------ */

/* SubtleCrypto.getPublicKey: the public key of a private key of an
 * algorithm with key pairs (RSA-*, ECDSA, ECDH, Ed25519, X25519, Ed448,
 * X448), as a new key on the same backend, with the same algorithm (and
 * hash, curve), extractable (always, whatever the private key's
 * extractability: a public key is public) and `usages`, which must be
 * usages a public key of the algorithm may have (verify; encrypt, wrapKey;
 * none for ECDH, X25519, X448). Errors, in this order: bits that name no
 * usage, or NULL key or out, TypeError; a secret key (HMAC, AES-*, KDFs)
 * NotSupportedError; a public key InvalidAccessError; a usage a public key
 * of the algorithm cannot have SyntaxError. On success *out owns the key. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status
webcrypto_get_public_key(const webcrypto_key *key, unsigned usages, webcrypto_key **out);

/* SubtleCrypto.supports(operation, algorithm, lengthOrAdditionalAlgorithm):
 * whether `backend` (NULL: the default) would accept `op` with the
 * parameters `alg`, without keys or data: the answer of the very checks the
 * operation itself makes before it reads a key or data (the algorithm
 * known, having the operation and implemented by the backend; the members
 * the operation needs with values it accepts: a hash the backend has with
 * that algorithm; ECDSA's sign/verify hash; ECDH, X25519, X448 deriveBits'
 * public_key; an AES key length of 128, 192 (not for AES-GCM-SIV) or 256
 * bits, none for ChaCha20-Poly1305; the ciphers' iv, counter and tag
 * lengths; RSA generation's modulus_length and public_exponent; a known
 * named_curve; KMAC's and cSHAKE's output_length; a signature context),
 * except the embedder's limits (webcrypto_set_limits). The third
 * argument of the draft is split in two, one read per operation:
 *   length_bits     deriveBits: the length (WEBCRYPTO_LENGTH_FULL: null):
 *                   HKDF and PBKDF2 need a multiple of 8 (not null), ECDH,
 *                   X25519 and X448 at most the secret's size;
 *   additional_alg  deriveKey: the derived key's algorithm (which must be
 *                   importable, its length then checked as deriveBits');
 *                   wrapKey: the algorithm of the key to export; unwrapKey:
 *                   of the key to import. NULL is false for those three.
 * wrapKey and unwrapKey are also supported by an algorithm that encrypts
 * and decrypts (as SubtleCrypto's wrapKey falls back on encrypt).
 * getPublicKey: true for an algorithm with key pairs the backend has.
 * Any failure (an unknown op, a NULL alg, a params struct of no layout, a
 * backend that cannot start) is false; no error message is set. */
WEBCRYPTO_API bool webcrypto_supports(const webcrypto_backend *backend, webcrypto_operation op,
                                      const webcrypto_params *alg, size_t length_bits,
                                      const webcrypto_params *additional_alg);

/* ------------------------------------------------------------------------ */
/* Key encapsulation (ML-KEM; "Modern Algorithms in the Web Cryptography   */
/* API": encapsulateBits/Key, decapsulateBits/Key)                          */
/* ------------------------------------------------------------------------ */

/* The sizes of an ML-KEM parameter set's ciphertext (768, 1088, 1568 bytes
 * for ML-KEM-512/768/1024) and shared key (32 bytes); 0 for any other
 * algorithm. */
WEBCRYPTO_API size_t webcrypto_kem_ciphertext_size(webcrypto_algorithm alg);
WEBCRYPTO_API size_t webcrypto_kem_shared_key_size(webcrypto_algorithm alg);

/* SubtleCrypto.encapsulateBits: FIPS 203 ML-KEM.Encaps with the public key
 * `key` (usage encapsulateBits; alg->name its algorithm, else
 * InvalidAccessError). Writes the ciphertext to ciphertext (capacity
 * ciphertext_cap, at least webcrypto_kem_ciphertext_size) and the 32-byte
 * shared key to shared_key (capacity shared_key_cap >= 32); a short
 * buffer is TypeError (WEBCRYPTO_ERR_INVALID_ARGUMENT) and writes nothing.
 * *ciphertext_len and *shared_key_len get the lengths. A private key is
 * InvalidAccessError. A backend without ML-KEM: NotSupportedError. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_encapsulate_bits(
    const webcrypto_params *alg, const webcrypto_key *key, uint8_t *ciphertext,
    size_t ciphertext_cap, size_t *ciphertext_len, uint8_t *shared_key, size_t shared_key_cap,
    size_t *shared_key_len);

/* SubtleCrypto.encapsulateKey: encapsulates as webcrypto_encapsulate_bits
 * (usage encapsulateKey), then imports the shared key as a "raw-secret" key
 * of shared_key_alg (e.g. AES-GCM: its length must be 256; HMAC with its
 * hash; HKDF) with extractable and usages, on key's backend, as
 * webcrypto_import_key does (its errors are the import's). On success
 * *shared_key owns the new key and the ciphertext is written as above. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_encapsulate_key(
    const webcrypto_params *alg, const webcrypto_key *key, const webcrypto_params *shared_key_alg,
    bool extractable, unsigned usages, uint8_t *ciphertext, size_t ciphertext_cap,
    size_t *ciphertext_len, webcrypto_key **shared_key);

/* SubtleCrypto.decapsulateBits: FIPS 203 ML-KEM.Decaps of ciphertext with
 * the private key `key` (usage decapsulateBits). A ciphertext of the wrong
 * length is OperationError. A well-formed but altered ciphertext is not an
 * error: ML-KEM's implicit rejection gives a pseudo-random shared key
 * (FIPS 203 algorithm 18), which then simply differs from the
 * encapsulator's. Writes 32 bytes to shared_key (capacity >= 32, else
 * TypeError) and sets *shared_key_len. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_decapsulate_bits(
    const webcrypto_params *alg, const webcrypto_key *key, const uint8_t *ciphertext,
    size_t ciphertext_len, uint8_t *shared_key, size_t shared_key_cap, size_t *shared_key_len);

/* SubtleCrypto.decapsulateKey: decapsulates as webcrypto_decapsulate_bits
 * (usage decapsulateKey), then imports the shared key as
 * webcrypto_encapsulate_key does. On success *shared_key owns the key. */
WEBCRYPTO_API WEBCRYPTO_MUST_CHECK webcrypto_status webcrypto_decapsulate_key(
    const webcrypto_params *alg, const webcrypto_key *key, const uint8_t *ciphertext,
    size_t ciphertext_len, const webcrypto_params *shared_key_alg, bool extractable,
    unsigned usages, webcrypto_key **shared_key);

#ifdef __cplusplus
}
#endif

#endif /* WEBCRYPTO_H */
