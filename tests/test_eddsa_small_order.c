/*
 * test_eddsa_small_order.c - one vector per entry of the core's lists of
 * Ed25519 and Ed448 small-order points (src/core/pkey.c: ed25519_small_y,
 * ed448_small_y), as a public key A and as a signature's R, each of which
 * verify must answer false (WebCrypto's Ed25519/Ed448 verify: "If the key
 * data of key represents an invalid point or a small-order element on the
 * Elliptic Curve ..., return false", and the same for R), and a valid
 * signature made the same way, which verifies.
 *
 * The signatures are made so that the cofactorless equation [S]B = R + [k]A
 * holds (k = SHA-512(R || A || M) mod L for Ed25519, SHAKE256(dom4(0, "") ||
 * R || A || M, 114) mod L for Ed448, RFC 8032 5.1.7 and 5.2.7), so that a
 * backend without the rule answers true: with s the secret scalar of RFC
 * 8032's first test key (7.1 TEST 1; 7.4 "-----TEST blank" for Ed448) and
 * A_rfc = [s]B its public key:
 *  - 'A' cases: A = the small-order point T, R = A_rfc, S = s mod L, and the
 *    one-byte message M the first for which k = 0 mod ord(T), so that
 *    [k]T = 0;
 *  - 'R' cases: R = T, A = A_rfc + (-T) (a point of mixed order, on no list),
 *    S = k s mod L, M the first for which (1 - k) T = 0, so that R + [k]A =
 *    [k s]B;
 *  - the valid one: R = A = A_rfc, S = (1 + k) s mod L, M = 0.
 * The values were computed with the curves' formulas (RFC 8032 5.1, 5.2)
 * in Python's integers, and each 'A' / 'R' encoding is checked here
 * against encodings derived from the curve: y in {0, 1, p - 1} and the
 * non-canonical p and p + 1 (y - p = 0, 1) for both curves (p = 2^255 - 19,
 * 2^448 - 2^224 - 1, computed below), with either x sign bit where x is not
 * 0; for Ed25519 also the two y of the points of order 8, typed from the
 * published list of Ed25519's small-order encodings (K. Chalkias, F. Garillot,
 * V. Nikolaenko, "Taming the many EdDSAs", SSR 2020; the same y as
 * libsodium's blocklist), checked here to sum to p (they are y and -y).
 * Every y of each list is covered as A and as R (checked below).
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct so_case {
    webcrypto_algorithm alg;
    char kind;       /* 'A': the public key is T; 'R': the signature's R is T */
    int order;       /* T's order */
    uint8_t msg;     /* the one-byte message */
    const char *pk, *sig;
} so_case;

static const so_case cases[] = {
    {WEBCRYPTO_ALG_ED25519, 'A', 4, 0x01,
     "0000000000000000000000000000000000000000000000000000000000000000",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
     "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f"},
    {WEBCRYPTO_ALG_ED25519, 'R', 4, 0x06,
     "ad38a8f0b22ab7ca46ecee7bbef12b5f336c182652fac34392f859dbd9666a7d",
     "0000000000000000000000000000000000000000000000000000000000000000"
     "c577fe50e46ea8890fe1d9d893d7e869466fc60bd91117e08ce411066431ef0f"},
    {WEBCRYPTO_ALG_ED25519, 'A', 4, 0x03,
     "0000000000000000000000000000000000000000000000000000000000000080",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
     "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f"},
    {WEBCRYPTO_ALG_ED25519, 'R', 4, 0x00,
     "40c7570f4dd54835b9131184410ed4a0cc93e7d9ad053cbc6d07a62426999582",
     "0000000000000000000000000000000000000000000000000000000000000080"
     "a115b2b6f55a421fcc5cc059f8842a7b390317950ed6111cf80c86006030fa0a"},
    {WEBCRYPTO_ALG_ED25519, 'A', 1, 0x00,
     "0100000000000000000000000000000000000000000000000000000000000000",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
     "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f"},
    {WEBCRYPTO_ALG_ED25519, 'R', 1, 0x00,
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
     "0100000000000000000000000000000000000000000000000000000000000000"
     "08902c9bc0edc8a92b60e525521017fd5fa2aa1d2e067e4021bff42cdf71ed0d"},
    {WEBCRYPTO_ALG_ED25519, 'A', 2, 0x01,
     "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
     "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f"},
    {WEBCRYPTO_ALG_ED25519, 'R', 2, 0x05,
     "16a567fe7d4ef5482ab4012c369bf8c5f11e8d0c2559dcda50fde59708f8aee5",
     "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"
     "30754b81a7592469d7810bdddc35abf6b381fc1ca3bb367de741930d8406b10a"},
    {WEBCRYPTO_ALG_ED25519, 'A', 8, 0x04,
     "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
     "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f"},
    {WEBCRYPTO_ALG_ED25519, 'R', 8, 0x0d,
     "b2a4b8a3b47d22ea8d86603ab90b393fc1b87399ab55b3806ba4cb815cd509f2",
     "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"
     "eb3513377b866e6e46861f3280f70dd6c29b8217da93e1d0d98104407324b903"},
    {WEBCRYPTO_ALG_ED25519, 'A', 8, 0x02,
     "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
     "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f"},
    {WEBCRYPTO_ALG_ED25519, 'R', 8, 0x00,
     "9158312a9a8d6e3b34c891d6d61444f8b8211c5117ebad15bdb0bd68b07e0245",
     "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"
     "dbf2803aaf097bd2290cf3184adc378a277e68b208fb56efef789fbe51b30d0b"},
    {WEBCRYPTO_ALG_ED25519, 'A', 8, 0x04,
     "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
     "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f"},
    {WEBCRYPTO_ALG_ED25519, 'R', 8, 0x03,
     "5ca7ced5657291c4cb376e2929ebbb0747dee3aee81452ea424f42974f81fdba",
     "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"
     "69eae7c2de987a2e1306d9d1c286b32b39239e7b48495656e09a16356e5e6a02"},
    {WEBCRYPTO_ALG_ED25519, 'A', 8, 0x00,
     "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
     "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f"},
    {WEBCRYPTO_ALG_ED25519, 'R', 8, 0x00,
     "3b5b475c4b82dd1572799fc546f4c6c03e478c6654aa4c7f945b347ea32af60d",
     "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85"
     "e880e2d13c4704fe31542165f85585fbd33796b2220b2e146ac439e8063e2509"},
    {WEBCRYPTO_ALG_ED25519, 'A', 4, 0x01,
     "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
     "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f"},
    {WEBCRYPTO_ALG_ED25519, 'R', 4, 0x01,
     "ad38a8f0b22ab7ca46ecee7bbef12b5f336c182652fac34392f859dbd9666a7d",
     "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"
     "b8080276b16476e4e87fb2b27dd63c72cc87cc8b04fe55286fca2a53cb258505"},
    {WEBCRYPTO_ALG_ED25519, 'A', 4, 0x00,
     "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
     "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f"},
    {WEBCRYPTO_ALG_ED25519, 'R', 4, 0x02,
     "40c7570f4dd54835b9131184410ed4a0cc93e7d9ad053cbc6d07a62426999582",
     "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
     "9c06d49cc73d4d61464b3337ccf08befa643ade47c98da4d2e1aeba93bf32e0a"},
    {WEBCRYPTO_ALG_ED25519, 'A', 1, 0x00,
     "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
     "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f"},
    {WEBCRYPTO_ALG_ED25519, 'R', 1, 0x00,
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
     "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"
     "c918897ecdd2b0f7e1cb5262f1fe34144080cc6db0856758b6f7b61798e7930a"},
    {WEBCRYPTO_ALG_ED448, 'A', 4, 0x00,
     "0000000000000000000000000000000000000000000000000000000000000000"
     "00000000000000000000000000000000000000000000000000",
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778"
     "edf124769b46c7061bd6783df1e50f6cd1fa1abeafe825618002b07f49a91b8f"
     "471dcfdb4b0feecb4594a443f7c7ed5566a2bac92339519cb905c036d81eeed1"
     "7483f9f56615ceee4fa70501a71fc0bb3700"},
    {WEBCRYPTO_ALG_ED448, 'R', 4, 0x09,
     "78dd7d85f166050e43f9ff0d918d50f4fe8b937572b131b8bb593b6e35c9c8d7"
     "3d2f7be150f0ff4f66cb0bb83271030c7771027ffa82d04f80",
     "0000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000554bc66d96c0f"
     "d4dfcde6a15d0447ca4fbe383369a2bb74f2071c1904853d6d2727097197ebfd"
     "586eeaf98690ab4a03a35ee53b4f01523400"},
    {WEBCRYPTO_ALG_ED448, 'A', 4, 0x03,
     "0000000000000000000000000000000000000000000000000000000000000000"
     "00000000000000000000000000000000000000000000000080",
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778"
     "edf124769b46c7061bd6783df1e50f6cd1fa1abeafe825618002b07f49a91b8f"
     "471dcfdb4b0feecb4594a443f7c7ed5566a2bac92339519cb905c036d81eeed1"
     "7483f9f56615ceee4fa70501a71fc0bb3700"},
    {WEBCRYPTO_ALG_ED448, 'R', 4, 0x00,
     "8722827a0e99faf1bc0600f26e72af0b01746c8a8d4ece4744a6c491c9363728"
     "c2d0841eaf0f00b09934f447cd8efcf3888efd80057d2fb000",
     "0000000000000000000000000000000000000000000000000000000000000000"
     "0000000000000000000000000000000000000000000000008045a41f0d0c2a01"
     "12cc77e0f810301d203ed45f91b7c0e837ab4521e24ea4d6df70abf3c9e87d4e"
     "9e9a01e99eb29330f958b6ae68bfba212200"},
    {WEBCRYPTO_ALG_ED448, 'A', 1, 0x00,
     "0100000000000000000000000000000000000000000000000000000000000000"
     "00000000000000000000000000000000000000000000000000",
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778"
     "edf124769b46c7061bd6783df1e50f6cd1fa1abeafe825618002b07f49a91b8f"
     "471dcfdb4b0feecb4594a443f7c7ed5566a2bac92339519cb905c036d81eeed1"
     "7483f9f56615ceee4fa70501a71fc0bb3700"},
    {WEBCRYPTO_ALG_ED448, 'R', 1, 0x00,
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778"
     "edf124769b46c7061bd6783df1e50f6cd1fa1abeafe8256180",
     "0100000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000d64c820d50fed"
     "be56a5e4338f0504be3fc73c7354dc5839fb3d99787bb55af9f546a88bd9ff71"
     "7cfa8200734fb46696bb426b458370923400"},
    {WEBCRYPTO_ALG_ED448, 'A', 2, 0x01,
     "fefffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffff"
     "ffffffffffffffffffffffffffffffffffffffffffffffff00",
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778"
     "edf124769b46c7061bd6783df1e50f6cd1fa1abeafe825618002b07f49a91b8f"
     "471dcfdb4b0feecb4594a443f7c7ed5566a2bac92339519cb905c036d81eeed1"
     "7483f9f56615ceee4fa70501a71fc0bb3700"},
    {WEBCRYPTO_ALG_ED448, 'R', 2, 0x00,
     "a028bb64a64b9e02d31878139e952b95e25ecbdb7a58f1e075f158a27e169887"
     "120edb8964b938f9e42987c20e1af0932e05e5415017da9e00",
     "fefffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffff"
     "ffffffffffffffffffffffffffffffffffffffffffffffff00231c27ed405d8b"
     "f11cca15f3ae779f9f6e70c8cc9bfecdb24dd3eb83207cf22b52ef0df6592314"
     "aada322a021344b94867020e9164c2fd3a00"},
    {WEBCRYPTO_ALG_ED448, 'A', 4, 0x01,
     "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffff"
     "ffffffffffffffffffffffffffffffffffffffffffffffff00",
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778"
     "edf124769b46c7061bd6783df1e50f6cd1fa1abeafe825618002b07f49a91b8f"
     "471dcfdb4b0feecb4594a443f7c7ed5566a2bac92339519cb905c036d81eeed1"
     "7483f9f56615ceee4fa70501a71fc0bb3700"},
    {WEBCRYPTO_ALG_ED448, 'R', 4, 0x08,
     "78dd7d85f166050e43f9ff0d918d50f4fe8b937572b131b8bb593b6e35c9c8d7"
     "3d2f7be150f0ff4f66cb0bb83271030c7771027ffa82d04f80",
     "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffff"
     "ffffffffffffffffffffffffffffffffffffffffffffffff00eba559cd86c2c0"
     "8ef63b86eb4daac1ed404d85cf853d03bf25f11dd494a88e30926bdee6a177b2"
     "81b863dab1f83c1a9c1a9290d58e43113f00"},
    {WEBCRYPTO_ALG_ED448, 'A', 4, 0x0f,
     "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffff"
     "ffffffffffffffffffffffffffffffffffffffffffffffff80",
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778"
     "edf124769b46c7061bd6783df1e50f6cd1fa1abeafe825618002b07f49a91b8f"
     "471dcfdb4b0feecb4594a443f7c7ed5566a2bac92339519cb905c036d81eeed1"
     "7483f9f56615ceee4fa70501a71fc0bb3700"},
    {WEBCRYPTO_ALG_ED448, 'R', 4, 0x01,
     "8722827a0e99faf1bc0600f26e72af0b01746c8a8d4ece4744a6c491c9363728"
     "c2d0841eaf0f00b09934f447cd8efcf3888efd80057d2fb000",
     "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffff"
     "ffffffffffffffffffffffffffffffffffffffffffffffff8065ada2eede4a07"
     "937d4eff1f90777fc543edb7dc6d944b6626a5bb338a8fa6cfd9f67cfdc7c322"
     "de4cff41ff2f5bbee1206af038d2c1af2600"},
    {WEBCRYPTO_ALG_ED448, 'A', 1, 0x00,
     "00000000000000000000000000000000000000000000000000000000ffffffff"
     "ffffffffffffffffffffffffffffffffffffffffffffffff00",
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778"
     "edf124769b46c7061bd6783df1e50f6cd1fa1abeafe825618002b07f49a91b8f"
     "471dcfdb4b0feecb4594a443f7c7ed5566a2bac92339519cb905c036d81eeed1"
     "7483f9f56615ceee4fa70501a71fc0bb3700"},
    {WEBCRYPTO_ALG_ED448, 'R', 1, 0x00,
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778"
     "edf124769b46c7061bd6783df1e50f6cd1fa1abeafe8256180",
     "00000000000000000000000000000000000000000000000000000000ffffffff"
     "ffffffffffffffffffffffffffffffffffffffffffffffff00dc03a659218cbf"
     "87e77b71f1cca8db815a6886c5eee9dbf236e1de965195ec5fc1aa9810d1f461"
     "2cc0b85985d6213398f0eaeca1cf24880f00"},
};

static const struct {
    webcrypto_algorithm alg;
    const char *pk, *sig;
} valid[] = {
    {WEBCRYPTO_ALG_ED25519, "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
     "0c78bb3ac0e619e43a9e7ae97a6a78d164736a48aa146f715bdef2cb8e049701"},
    {WEBCRYPTO_ALG_ED448, "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778"
     "edf124769b46c7061bd6783df1e50f6cd1fa1abeafe8256180", "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778"
     "edf124769b46c7061bd6783df1e50f6cd1fa1abeafe8256180ac136492d45784"
     "2cdac6ea8c9790dd1992358eec2892c2ef7eba8419e544e95b192445cc2dde91"
     "e967f0b667f1855a48c2781bcc35f9971400"},
};

/* ---- the encodings of the small-order y, derived from p ---- */

enum { MAX_Y = 8 };

/* Little-endian n-byte value of p. */
static void prime(webcrypto_algorithm alg, uint8_t *p, size_t n) {
    memset(p, 0xff, n);
    if (alg == WEBCRYPTO_ALG_ED25519) { /* 2^255 - 19 */
        p[0] = 0xed;
        p[31] = 0x7f;
    } else { /* 2^448 - 2^224 - 1: 56 bytes of ff but bit 224 (byte 28, bit 0) */
        p[28] = 0xfe;
        p[56] = 0;
    }
}

/* x + k (k small), n bytes little-endian, in place. */
static void add_small(uint8_t *x, size_t n, int k) {
    int carry = k;
    for (size_t i = 0; i < n && carry; i++) {
        int v = x[i] + carry;
        x[i] = (uint8_t)v;
        carry = v >> 8;
        if (v < 0) { /* borrow */
            x[i] = (uint8_t)(v + 256);
            carry = -1;
        }
    }
}

/* The list: 0, 1, p-1, p, p+1 (and Ed25519's order-8 pair). */
static size_t small_ys(webcrypto_algorithm alg, uint8_t ys[MAX_Y][57], size_t n) {
    size_t count = 0;
    memset(ys, 0, MAX_Y * 57);
    ys[count++][0] = 0;
    ys[count++][0] = 1;
    for (int k = -1; k <= 1; k++) {
        prime(alg, ys[count], n);
        add_small(ys[count], n, k);
        count++;
    }
    if (alg == WEBCRYPTO_ALG_ED25519) {
        /* "Taming the many EdDSAs": the y of the points of order 8. */
        static const char *const order8[2] = {
            "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
            "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"};
        for (int i = 0; i < 2; i++) {
            size_t len = 0;
            uint8_t *b = tu_unhex(order8[i], &len);
            assert_int_equal(len, 32);
            memcpy(ys[count++], b, 32);
            free(b);
        }
        /* y and -y: their sum is p. */
        uint8_t sum[32], p[32];
        unsigned carry = 0;
        for (int i = 0; i < 32; i++) {
            unsigned v = ys[count - 2][i] + ys[count - 1][i] + carry;
            sum[i] = (uint8_t)v;
            carry = v >> 8;
        }
        prime(alg, p, 32);
        assert_memory_equal(sum, p, 32);
    }
    return count;
}

static size_t key_len(webcrypto_algorithm alg) { return alg == WEBCRYPTO_ALG_ED25519 ? 32 : 57; }

/* Which entry of the derived list an encoding is (its x sign bit cleared);
 * -1 for none. */
static int entry_of(webcrypto_algorithm alg, const uint8_t *enc) {
    uint8_t ys[MAX_Y][57], y[57];
    size_t n = key_len(alg), count = small_ys(alg, ys, n);
    memcpy(y, enc, n);
    y[n - 1] &= 0x7f;
    for (size_t i = 0; i < count; i++)
        if (!memcmp(y, ys[i], n)) return (int)i;
    return -1;
}

static bool verify(webcrypto_algorithm alg, const uint8_t *pk, const uint8_t *sig, size_t sig_len,
                   const uint8_t *msg, size_t msg_len, bool *valid_out) {
    webcrypto_params p = WEBCRYPTO_PARAMS(.name = alg);
    webcrypto_key *key = NULL;
    webcrypto_status st = webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, pk, key_len(alg),
                                               &p, true, WEBCRYPTO_USAGE_VERIFY, &key);
    if (st != WEBCRYPTO_OK) return false; /* refused on import: not a key to verify with */
    tu_assert_status(webcrypto_verify(&p, key, sig, sig_len, msg, msg_len, valid_out),
                     WEBCRYPTO_OK);
    webcrypto_key_free(key);
    return true;
}

static void run(webcrypto_algorithm alg) {
    const webcrypto_backend *be = tu_backend();
    if (!webcrypto_backend_supports(be, alg)) {
        printf("# SKIP %s: %s lacks it\n", webcrypto_algorithm_name(alg), webcrypto_backend_name(be));
        return;
    }
    size_t n = key_len(alg);
    uint8_t ys[MAX_Y][57];
    size_t count = small_ys(alg, ys, n);
    bool seen[2][MAX_Y] = {{false}};
    size_t refused_on_import = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const so_case *c = &cases[i];
        if (c->alg != alg) continue;
        size_t pk_len = 0, sig_len = 0;
        uint8_t *pk = tu_unhex(c->pk, &pk_len), *sig = tu_unhex(c->sig, &sig_len);
        assert_int_equal(pk_len, n);
        assert_int_equal(sig_len, 2 * n);
        int e = entry_of(alg, c->kind == 'A' ? pk : sig);
        if (e < 0) fail_msg("case %zu: its %c is no small-order encoding derived here", i, c->kind);
        seen[c->kind == 'R'][e] = true;
        bool ok = true;
        if (!verify(alg, pk, sig, sig_len, &c->msg, 1, &ok)) {
            /* Only an 'R' case's A (a valid point) must import; a small-order
             * A may be refused as a key (then nothing verifies with it). */
            assert_true(c->kind == 'A');
            refused_on_import++;
        } else if (ok) {
            fail_msg("%s: a signature whose %s is the small-order point y = entry %d (order %d, "
                     "%s) verified",
                     webcrypto_algorithm_name(alg), c->kind == 'A' ? "public key" : "R", e,
                     c->order, c->kind == 'A' ? c->pk : "see the table");
        }
        free(pk);
        free(sig);
    }
    for (size_t e = 0; e < count; e++)
        if (!seen[0][e] || !seen[1][e])
            fail_msg("%s: entry %zu of the list has no %s vector", webcrypto_algorithm_name(alg), e,
                     !seen[0][e] ? "public key" : "R");
    if (refused_on_import)
        printf("# %s: %zu small-order public keys refused on import\n",
               webcrypto_algorithm_name(alg), refused_on_import);
    /* The construction itself is sound: the same with a valid point verifies. */
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        if (valid[i].alg != alg) continue;
        size_t pk_len = 0, sig_len = 0;
        uint8_t *pk = tu_unhex(valid[i].pk, &pk_len), *sig = tu_unhex(valid[i].sig, &sig_len);
        const uint8_t m = 0;
        bool ok = false;
        assert_true(verify(alg, pk, sig, sig_len, &m, 1, &ok));
        assert_true(ok);
        free(pk);
        free(sig);
    }
}

static void test_ed25519(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ED25519);
    run(WEBCRYPTO_ALG_ED25519);
}

static void test_ed448(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_ED448);
    run(WEBCRYPTO_ALG_ED448);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ed25519),
        cmocka_unit_test(test_ed448),
    };
    return tu_run_group("eddsa_small_order", tests, NULL, NULL);
}
