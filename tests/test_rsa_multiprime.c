/*
 * test_rsa_multiprime.c - RSA keys with more than two primes (RFC 8017 A.1.2
 * otherPrimeInfos, RFC 7518 6.3.2.7 "oth"), on the backend under test:
 *
 *  - malformed ones (RSAPrivateKey version 1 without otherPrimeInfos,
 *    version 0 with them, empty ones, an OtherPrimeInfo without its
 *    coefficient; JWK "oth" empty, not an array, an entry without r, d or t,
 *    bad base64url, "oth" in a public key) are DataError on every backend,
 *    and more than 8 primes NotSupportedError on every backend;
 *  - a well-formed three-prime key is NotSupportedError where the backend
 *    lacks WEBCRYPTO_FEATURE_RSA_MULTI_PRIME (boringssl, jca), and where it
 *    has it (openssl): imports from pkcs8 and jwk, decrypts an RSA-OAEP
 *    ciphertext the openssl CLI made, signs PKCS#1 v1.5 to the CLI's
 *    signature byte for byte and PSS verifiably with the public key
 *    (imported on its own from spki), exports pkcs8 and jwk byte-exactly as
 *    imported (and each as the other), and refuses inconsistent ones
 *    (DataError) and ones beyond OpenSSL's prime counts (NotSupportedError);
 *  - the public key (spki) imports and verifies the CLI's signature on every
 *    backend.
 *
 * The keys were made for this test with the openssl CLI (OpenSSL 3.0.19) and
 * a script (see each fixture); the JWK is checked against the DER by this
 * test itself (import jwk, export pkcs8).
 */
#include "testutil.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char MESSAGE[] = "multi-prime RSA test message";

/* The 2048-bit three-prime key, PKCS #8 (openssl genpkey -algorithm RSA -pkeyopt
 * rsa_keygen_bits:2048 -pkeyopt rsa_keygen_primes:3, then openssl pkcs8 -topk8 -nocrypt
 * -outform DER): RSAPrivateKey version 1 with one OtherPrimeInfo, the last field. */
static const char KEY3_PKCS8[] =
    "308204f2020100300d06092a864886f70d0101010500048204dc308204d80201010282010100d20f62a3187c"
    "12187db5fd701d09d138b0508932a0876da0550917c2d12030905d9375a2a3355b90b342a93e30ba594132f2"
    "2d51a062455152e4e2bd3e83e924fc5617d55e08b8be9812ad28671ed3b633d0ac1322aa97182ec86f99749f"
    "e6b17058e3a71c1729ff5b1ea7f60f043122a2174bf322e76bf3613287d5359c44ea3b8036db95d526b224b4"
    "8c3cee163acf085cc529e8d84e2f423214308d631139879d023c4da1c8c8fa082dda56ca96da720207ba40eb"
    "4b53163bab156c6636b2ed121ccac2a21eef57b73e23eefb0f0cf45c092e8b64cd45f169ef7691a74d17f222"
    "3211393049e2dd9a6609e4ab01e7d324148dbca1b14e4e05b9ebe6aa4cf3020301000102820100479776c69f"
    "51a9d92eff17a15e443a4a57cd1af56640c1dc231f3639ef8c4900eae396f4172bd84938cf3f5f32bc502f28"
    "6de18430654dbaa9c5d881270d4e288cd7cac7ad84cb7229e233a1d1837024690475a10fc9b4e3a1a1eaa3d5"
    "b15720a4acfe2a249deb088cc67271c05aa26fc4e4496dc3c2237cceabdb0e101b5f973bcd2ca8db1e4be4c5"
    "2ab27392787e406cc06e39b256289712021be34bc0c18c5acb0ba35a37e9f526e97aaf8587c74f64ead0f90f"
    "a4caa603fb0e6430b25c68ab1edf3704c489a9f6ad53d4d8b6ccae096377f135052763cb7b55b7c8c85e477c"
    "f56a95184f1eb73b58e8b60cde8b9298b353e23573191f21cab24a6d8e6001025607a3420d6d06960cd68cf8"
    "095e95505e6834d85d1a67d4f0b2294d25160ff58bb5c564ff34a154f204d02a6c8e5fc5dc6a6b9fcd1e6356"
    "a3d6f9c588e70d498e6d8acb05b742075b2c36a686b310c9a97f520b9db3d10256070b07ab3503d2e54f79a0"
    "4b488fe8ac958d03097994549a6ce561a41af9f6c2920079c443f23b4c1b75220d421500c8e243f96ed29fa1"
    "f46d338d1af516b901bcd6e22cb6ea6d788c29418171dc0920fbb1b35a98270255461c623adc9798d240afcc"
    "36360871ba2edaeb4bbd1967a01bd706536a3315d568c49c5a18c6e0fec7301e4064b2c59a934d619f8b5459"
    "ffa5692de58b166e23036d104167feb788385574530b710fc0df02479f61025602301bfec4a65e729c00d599"
    "ed7dbf3335f62b565b2d8826bce37934a8a8b44e775aac791afe7a0b479058b6b3aba0a5c71c84b537bb1d6d"
    "b82ac68ff4494dc9cb6719b5f850d51718bb8c3cf12900b0fd5f93aef60b02560121c9437e3a1d9ce6cc7cf7"
    "e9772e063976befe0f5c4d216f03e18a26586b70de8116e110259cf2a03a8c4ce3f7d14c73abb910e61ea98c"
    "4dc377e1fa50fbea626a41b1210ea00a8a911ee9a397865120de2c54462d3082010c30820108025603e7ab64"
    "a05367ca411b15132842e74b9c9157c0f2f85b77adaa25d3bd5e0ba1e9a7e6f2f28f74cb1426479fe030fc7f"
    "9c560a4d276de30faaed1c449db8c316fbb187b47f956863659decefaa64901e58a14ebcb145025603b23c87"
    "c942699206c26dd66e5bb5b7da81b100d07bc988a4f7d34a738b1b93ad29e2efc02d8e2dd3ead00d4316db4a"
    "a75ec1ed7a0f07c882d061db8937a46292e7de3e3a2de05b858a510622d181a157df883a0fc9025601f526f4"
    "0fbfc0fe0a9d11d54b40929f9252a5a8301b11a992c936f4e368713ad2ee5eb0c302b29ea265d9510e34f743"
    "bb1db60172a461e81260b40d02b69f8c0ba4b5296c90769d7129f1799ddca69635f752724f57";

/* Its public key (openssl pkey -pubout -outform DER). */
static const char KEY3_SPKI[] =
    "30820122300d06092a864886f70d01010105000382010f003082010a0282010100d20f62a3187c12187db5fd"
    "701d09d138b0508932a0876da0550917c2d12030905d9375a2a3355b90b342a93e30ba594132f22d51a06245"
    "5152e4e2bd3e83e924fc5617d55e08b8be9812ad28671ed3b633d0ac1322aa97182ec86f99749fe6b17058e3"
    "a71c1729ff5b1ea7f60f043122a2174bf322e76bf3613287d5359c44ea3b8036db95d526b224b48c3cee163a"
    "cf085cc529e8d84e2f423214308d631139879d023c4da1c8c8fa082dda56ca96da720207ba40eb4b53163bab"
    "156c6636b2ed121ccac2a21eef57b73e23eefb0f0cf45c092e8b64cd45f169ef7691a74d17f2223211393049"
    "e2dd9a6609e4ab01e7d324148dbca1b14e4e05b9ebe6aa4cf30203010001";

/* MESSAGE encrypted to it by openssl pkeyutl -encrypt (RSA-OAEP, SHA-256, MGF1 SHA-256,
 * no label). */
static const char KEY3_OAEP_CT[] =
    "079c740b1439f2afaf043c808b68c8ec9a3c6b75752840133341397d145f6dbf9463713d6ac56af0c1a552d1"
    "763b61811732823d3dbec162c934e9534fc93c0aeff3a11811441faef069c8b71a287610903de1b393bdd6e4"
    "c644ff8009f63e4b13fa2c20d62c783a0826d720431da653e60ff4865fabf683761214c5733da7a2612f8766"
    "0fa85f6959a390089903d2873014291e78be4c6ac0895d516496afc19201c8fdd55218effd38e7990e1636af"
    "f450f71f48b75e2a005f5117254f1457000113c793c0e674d98561649e8d51d6def4d0d29cc1a23460c69eba"
    "d1a54272b6f50fdc5e4531d35334bb00db8a7113997dd2c03feb90d338f553ae0bbfe3cf";

/* MESSAGE signed with it by openssl dgst -sha256 -sign (RSASSA-PKCS1-v1_5: deterministic, so
 * a known answer for signing too). */
static const char KEY3_PKCS1_SIG[] =
    "47327be79300034dc7c7ad616ceaf49fb9140811cc112e194c2e8dd660949d3e0dd7a9b60bb7a7a57151ba9e"
    "bd83da8dc55d487dcb863a3839709dc9b08ea7aa32e189cd0bf10a880d8e25ceb69d7dff24489551ce74bdd8"
    "4bc25a146b5bfdcc1e81ddfeffeee47a81f2ad527a30de29dbfeb8658cb969cb29f40ed91c81aacd6f70382d"
    "2152ec5876dba8112743dc87427b9d6d8dcdcc591657c51cb72fcd051598505ff4b0e741a62d4038038c2b29"
    "0462a66eba269505dc74062bb5d821e9cd8de8f32e5c347d1c6dbe1aee9dba72f3e4cc50c3073384945fe272"
    "8539ae3e458158f877b06435f7b1cfb02b9ac8eaf7a81ffac0e9c6b7af0815bd0986258e";

/* A 1536-bit six-prime key (six 256-bit primes from openssl prime -generate, d = e^-1 mod
 * lcm(r_i - 1), assembled by a script; `openssl pkey -check` calls it invalid only for its
 * number of primes): one prime more than OpenSSL handles at all. */
static const char KEY6_PKCS8[] =
    "30820401020100300d06092a864886f70d0101010500048203eb308203e70201010281c10085ff792e42fc29"
    "8f1bf5e8385f3e57940f6b40ac6cdb698a57868122ddd8c671a9692f994fad7d354a3a2d33bad1356f1b5b6f"
    "73fe354d5e822a1cbc1421134d019658a79880778a91ebc3a8c36f622adf7b4c097d2488ead4a514f5d76673"
    "5d829c2d77ad8c3376fcd3fc4b376c8524623840d22e1bbf879c0a4b21c180cacac8f59fa9aeea27b2c1c797"
    "c03671864d18c344c19c7cd297b4cdaa56c2eda89410ddae7c54413b8c20e6c1f5aaf5384dac7f4f7c145fc8"
    "ecd7289329fc68a71302030100010281bf053352912c915bcd8d90c027fbee4ff8d3965e86b29cdb5e3ea25e"
    "3dabad7f9a03eb0e7ed99e9c42ba56769a34c7dfba3c2f870d46e93c03871898a547d12c36c96aea1f7fd2f0"
    "1bc0d978a5797b1ff65e54638b59f668cbc9412877884f6c72aaacdd5fac188943581fb59f694e67f7c2ffab"
    "700520b7780f93ddf77088554ca8eeec48b18a24de4db84dacca056a21866c6994a4c2440e2cd3502ed4174b"
    "0bded7bccf765a69c0bdc168b18d4832dc380bade12bdf7d7c3e5bd6bcf845b1022100ef5cb75262832a8dcc"
    "f3300372d6803a90cb79aeaaee408c9411bd32f4cda6f1022100ed345ced7e6e5918e7acde6f726f58744b5d"
    "71baa2575799103fcdec7b528bbb022024dbf62eed949d3cf0ce921a35d8ea2e1a95facaf6ef71693473f6da"
    "9deffd4102204768390561c7345933fd2d651d6cf992e0d13b9874a09885428802a4cb27395b02210092951a"
    "9b9ebfa5db0edd9cf64c57d3d1e9b635fa3dfe1b08e5b9412a9db834ef308201a83069022100e628dcaed66c"
    "763b88c2cceab5866a7bc4ee1e6692be1f9d1f182503e54c978902210091f54de60e931ff3a74a2a1b9a5c90"
    "c0c6e55f201b6538b53297e439713bbe49022100b73ccc687bd324ade7071c6d9f266c21336bc539e88ce6d7"
    "85f22853e6d310313067022100e2a1f0ad0eb9f25a67b5aa9036acd0c055d75e0aebb57cb9b7309b0a029d3b"
    "b702202c19d92cc3edd94450642091b9a1fd69400b0dc8d03f5bcb03e3d877a53495970220466faaea17feb3"
    "5d7ae072e76ef494365b61cfcf490ab5b586111138a849fc163068022100e082cb1a476e665380bbbd48ba67"
    "a8f41ac5bcaf25ce487da3b544eae9f6e00f022100cadc43cab5fa8249374bebe7984eebf1cd73185fa62873"
    "85daf3829744da866f02205b67c5cf8c57fc8bc35b92f06201dc66ff216257e88fc8f35baf7ba2243c99e930"
    "68022100dd9479834efe14cce046be172c5e889810bf8cd39e96337b1489e3287f339219022035439dba2ce0"
    "f30b14d6ac9751792008bdedede268fade4135fcb77862ab78f1022100a87e565bebaea8337d0b787c1404d2"
    "2ca6b39309e035e520f9bdad55a1ccd72d";

/* A 768-bit three-prime key, made the same way: OpenSSL 3.0 allows two primes below 1024
 * bits. */
static const char KEY3S_PKCS8[] =
    "30820201020100300d06092a864886f70d0101010500048201eb308201e7020101026100da69124909008167"
    "3a5d895f03e0a51c89fb247a4bcc162899c2da9d83759c0b445f02bf96a7f93386f7a18fa7ac52a6064c24f0"
    "9e3adb5a638ce91bdec11d4195e517171bc94970866305330642469f552e666e6f6615cfc5600ee05e2397fb"
    "0203010001026006ca15deadd8356d954fa38dcfd3cba629b6e421261a8bc4cad4d71166ed00c2f66cdc863e"
    "c8773111a212b1dbed121648da889af54643a5d9f202de4233f427904395435c2cd5d9a8b7cb4b1cb2667695"
    "e590f98f2b9c4d3fce2b2d8acee261022100f4b603f6f75bd6bb4bf28deb60e35f77471fb74eb734a074ea18"
    "f4de1b804bdb022100f4120fbc549526b9f6157469949c18b9efdb5fbe7411943dfef6a7ceb660fb59022100"
    "d435f7f036886509dd8dc576e679a73327f1a0245a0a005003268b4b056c57db0220176ae4379da5f1e145cb"
    "2930382201fd551627498eb9610fd1b6b8c30c9ca181022032faefaec3da28c36092f34f99cb1f27d1e969c8"
    "e1bdff5d678db9cac561ffc0306b3069022100efa763df8dc94022b8e2846a342b7b11f67b7146bad87cba2d"
    "6d1f93a6e2d249022100c07e131a5d2868fb7ac576d6575115693831aeaac1296205a8b71dc5db2615010221"
    "00936691397a0e9eb24290fa9d8e08c9230c7c2dd09dd18c27a4a9f5c3b70d1834";

/* KEY3 as the JWK exportKey writes for an extractable RSASSA-PKCS1-v1_5 SHA-256 key with
 * usage sign (members in order; "oth" holds the third prime), made from the DER by a script
 * (so importing it and exporting pkcs8 checks it against KEY3_PKCS8). */
static const char KEY3_JWK[] =
    "{\"alg\":\"RS256\",\"d\":\"R5d2xp9Rqdku_xehXkQ6SlfNGvVmQMHcIx82Oe-MSQDq45b0FyvYSTjPP18yvFA"
    "vKG3hhDBlTbqpxdiBJw1OKIzXysethMtyKeIzodGDcCRpBHWhD8m046Gh6qPVsVcgpKz-KiSd6wiMxnJxwFqib8TkS"
    "W3DwiN8zqvbDhAbX5c7zSyo2x5L5MUqsnOSeH5AbMBuObJWKJcSAhvjS8DBjFrLC6NaN-n1Jul6r4WHx09k6tD5D6T"
    "KpgP7DmQwslxoqx7fNwTEian2rVPU2LbMrgljd_E1BSdjy3tVt8jIXkd89WqVGE8etztY6LYM3ouSmLNT4jVzGR8hy"
    "rJKbY5gAQ\",\"dp\":\"RhxiOtyXmNJAr8w2Nghxui7a60u9GWegG9cGU2ozFdVoxJxaGMbg_scwHkBkssWak01hn"
    "4tUWf-laS3lixZuIwNtEEFn_reIOFV0UwtxD8DfAkefYQ\",\"dq\":\"AjAb_sSmXnKcANWZ7X2_MzX2K1ZbLYgmv"
    "ON5NKiotE53Wqx5Gv56C0eQWLazq6ClxxyEtTe7HW24KsaP9ElNyctnGbX4UNUXGLuMPPEpALD9X5Ou9gs\",\"e\""
    ":\"AQAB\",\"ext\":true,\"key_ops\":[\"sign\"],\"kty\":\"RSA\",\"n\":\"0g9ioxh8Ehh9tf1wHQnR"
    "OLBQiTKgh22gVQkXwtEgMJBdk3WiozVbkLNCqT4wullBMvItUaBiRVFS5OK9PoPpJPxWF9VeCLi-mBKtKGce07Yz0K"
    "wTIqqXGC7Ib5l0n-axcFjjpxwXKf9bHqf2DwQxIqIXS_Mi52vzYTKH1TWcROo7gDbbldUmsiS0jDzuFjrPCFzFKejY"
    "Ti9CMhQwjWMROYedAjxNocjI-ggt2lbKltpyAge6QOtLUxY7qxVsZjay7RIcysKiHu9Xtz4j7vsPDPRcCS6LZM1F8W"
    "nvdpGnTRfyIjIROTBJ4t2aZgnkqwHn0yQUjbyhsU5OBbnr5qpM8w\",\"oth\":[{\"d\":\"A7I8h8lCaZIGwm3Wb"
    "lu1t9qBsQDQe8mIpPfTSnOLG5OtKeLvwC2OLdPq0A1DFttKp17B7XoPB8iC0GHbiTekYpLn3j46LeBbhYpRBiLRgaF"
    "X34g6D8k\",\"r\":\"A-erZKBTZ8pBGxUTKELnS5yRV8Dy-Ft3raol071eC6Hpp-by8o90yxQmR5_gMPx_nFYKTSd"
    "t4w-q7RxEnbjDFvuxh7R_lWhjZZ3s76pkkB5YoU68sUU\",\"t\":\"AfUm9A-_wP4KnRHVS0CSn5JSpagwGxGpksk"
    "29ONocTrS7l6wwwKynqJl2VEONPdDux22AXKkYegSYLQNArafjAuktSlskHadcSnxeZ3cppY191JyT1c\"}],\"p\""
    ":\"B6NCDW0GlgzWjPgJXpVQXmg02F0aZ9TwsilNJRYP9Yu1xWT_NKFU8gTQKmyOX8XcamufzR5jVqPW-cWI5w1Jjm2"
    "KywW3QgdbLDamhrMQyal_Uguds9E\",\"q\":\"BwsHqzUD0uVPeaBLSI_orJWNAwl5lFSabOVhpBr59sKSAHnEQ_I"
    "7TBt1Ig1CFQDI4kP5btKfofRtM40a9Ra5AbzW4iy26m14jClBgXHcCSD7sbNamCc\",\"qi\":\"ASHJQ346HZzmzH"
    "z36XcuBjl2vv4PXE0hbwPhiiZYa3DegRbhECWc8qA6jEzj99FMc6u5EOYeqYxNw3fh-lD76mJqQbEhDqAKipEe6aOX"
    "hlEg3ixURi0\"}";

/* ---- helpers ---- */

typedef struct bytes {
    uint8_t *p;
    size_t n;
} bytes;

static bytes unhex(const char *hex) {
    bytes b;
    b.p = tu_unhex(hex, &b.n);
    return b;
}

static bool has_feature(void) {
    return webcrypto_backend_has_feature(tu_backend(), WEBCRYPTO_FEATURE_RSA_MULTI_PRIME);
}

static webcrypto_params rsa_params(webcrypto_algorithm alg) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = alg;
    p.hash = WEBCRYPTO_ALG_SHA_256;
    return p;
}

static unsigned private_usage(webcrypto_algorithm alg) {
    return alg == WEBCRYPTO_ALG_RSA_OAEP ? WEBCRYPTO_USAGE_DECRYPT : WEBCRYPTO_USAGE_SIGN;
}

/* importKey of a private key as alg with SHA-256, extractable: the status,
 * and the key in *out (NULL on failure) when out is given. */
static webcrypto_status import_private(webcrypto_key_format format, const uint8_t *data,
                                       size_t len, webcrypto_algorithm alg, webcrypto_key **out) {
    webcrypto_params p = rsa_params(alg);
    webcrypto_key *key = NULL;
    webcrypto_status st = webcrypto_import_key(tu_backend(), format, data, len, &p, true,
                                               private_usage(alg), &key);
    if (st != WEBCRYPTO_OK) assert_null(key);
    if (out)
        *out = key;
    else
        webcrypto_key_free(key);
    return st;
}

static webcrypto_status import_jwk_text(const char *json, webcrypto_algorithm alg,
                                        webcrypto_key **out) {
    return import_private(WEBCRYPTO_FORMAT_JWK, (const uint8_t *)json, strlen(json), alg, out);
}

/* The DER TLV at p (within n bytes): its whole length; its contents. */
static size_t tlv_at(const uint8_t *p, size_t n, const uint8_t **content, size_t *content_len) {
    assert_true(n >= 2);
    size_t len = p[1], hdr = 2;
    if (len & 0x80) {
        size_t k = len & 0x7f;
        assert_true(k >= 1 && k <= 2 && n >= 2 + k);
        len = 0;
        for (size_t i = 0; i < k; i++) len = len << 8 | p[2 + i];
        hdr = 2 + k;
    }
    assert_true(hdr + len <= n);
    *content = p + hdr;
    *content_len = len;
    return hdr + len;
}

/* A growing byte string, for building DER. */
typedef struct buf {
    uint8_t *p;
    size_t n;
} buf;

static void put(buf *b, const uint8_t *p, size_t n) {
    b->p = realloc(b->p, b->n + n + 1);
    assert_non_null(b->p);
    if (n) memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void put_hex(buf *b, const char *hex) {
    bytes x = unhex(hex);
    put(b, x.p, x.n);
    free(x.p);
}

static buf copy_of(const uint8_t *p, size_t n) {
    buf b = {NULL, 0};
    put(&b, p, n);
    return b;
}

/* tag, length, contents (which it frees) */
static buf wrap(uint8_t tag, buf contents) {
    buf out = {NULL, 0};
    uint8_t h[4] = {tag, 0, 0, 0};
    size_t hn = 2;
    if (contents.n < 0x80) {
        h[1] = (uint8_t)contents.n;
    } else if (contents.n < 0x100) {
        h[1] = 0x81;
        h[2] = (uint8_t)contents.n;
        hn = 3;
    } else {
        h[1] = 0x82;
        h[2] = (uint8_t)(contents.n >> 8);
        h[3] = (uint8_t)contents.n;
        hn = 4;
    }
    put(&out, h, hn);
    put(&out, contents.p, contents.n);
    free(contents.p);
    return out;
}

/* KEY3_PKCS8's RSAPrivateKey fields, each a whole TLV: [0] version, [1..8]
 * n..qi, [9] otherPrimeInfos; and its one OtherPrimeInfo's r, d, t. */
typedef struct key3_parts {
    bytes der;
    const uint8_t *field[10];
    size_t field_len[10];
    const uint8_t *info[3];
    size_t info_len[3];
} key3_parts;

static key3_parts key3_split(void) {
    key3_parts k;
    k.der = unhex(KEY3_PKCS8);
    const uint8_t *c, *c2;
    size_t cl, cl2;
    tlv_at(k.der.p, k.der.n, &c, &cl);          /* PrivateKeyInfo */
    size_t off = tlv_at(c, cl, &c2, &cl2);       /* version */
    off += tlv_at(c + off, cl - off, &c2, &cl2); /* AlgorithmIdentifier */
    tlv_at(c + off, cl - off, &c2, &cl2);        /* privateKey OCTET STRING */
    tlv_at(c2, cl2, &c, &cl);                    /* RSAPrivateKey */
    off = 0;
    for (size_t i = 0; i < 10; i++) {
        k.field[i] = c + off;
        k.field_len[i] = tlv_at(c + off, cl - off, &c2, &cl2);
        off += k.field_len[i];
    }
    assert_int_equal(off, cl);
    tlv_at(k.field[9], k.field_len[9], &c, &cl); /* otherPrimeInfos */
    tlv_at(c, cl, &c2, &cl2);                    /* the OtherPrimeInfo */
    off = 0;
    for (size_t i = 0; i < 3; i++) {
        k.info[i] = c2 + off;
        k.info_len[i] = tlv_at(c2 + off, cl2 - off, &c, &cl);
        off += k.info_len[i];
    }
    assert_int_equal(off, cl2);
    return k;
}

/* A PKCS #8 rsaEncryption key around an RSAPrivateKey of the version given
 * (hex), KEY3's n..qi, and then tail (if not NULL). */
static bytes p8_with(const key3_parts *k, const char *version, const buf *tail) {
    buf rsa = {NULL, 0};
    put_hex(&rsa, version);
    for (size_t i = 1; i < 9; i++) put(&rsa, k->field[i], k->field_len[i]);
    if (tail) put(&rsa, tail->p, tail->n);
    buf pki = {NULL, 0};
    put_hex(&pki, "020100300d06092a864886f70d0101010500");
    buf octets = wrap(0x04, wrap(0x30, rsa));
    put(&pki, octets.p, octets.n);
    free(octets.p);
    buf all = wrap(0x30, pki);
    return (bytes){all.p, all.n};
}

/* ---- the public key, everywhere ---- */

static void test_public_key_everywhere(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_SHA_256);
    bytes spki = unhex(KEY3_SPKI), sig = unhex(KEY3_PKCS1_SIG);
    const uint8_t *msg = (const uint8_t *)MESSAGE;
    webcrypto_params p = rsa_params(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5);
    webcrypto_key *pub = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_SPKI, spki.p, spki.n, &p,
                                          true, WEBCRYPTO_USAGE_VERIFY, &pub),
                     WEBCRYPTO_OK);
    bool valid = false;
    tu_assert_status(webcrypto_verify(&p, pub, sig.p, sig.n, msg, strlen(MESSAGE), &valid),
                     WEBCRYPTO_OK);
    assert_true(valid);
    sig.p[10] ^= 1;
    tu_assert_status(webcrypto_verify(&p, pub, sig.p, sig.n, msg, strlen(MESSAGE), &valid),
                     WEBCRYPTO_OK);
    assert_false(valid);
    uint8_t *out = NULL;
    size_t out_len = 0;
    tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_SPKI, pub, &out, &out_len),
                     WEBCRYPTO_OK);
    tu_assert_hex(out, out_len, KEY3_SPKI);
    webcrypto_buffer_free(out, out_len);
    webcrypto_key_free(pub);
    free(spki.p);
    free(sig.p);
}

/* ---- malformed DER: DataError everywhere ---- */

typedef struct der_case {
    const char *what, *version;
    buf tail; /* after qi; freed */
    webcrypto_status want;
} der_case;

static void test_malformed_pkcs8(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_SHA_256);
    key3_parts k = key3_split();
    buf other = copy_of(k.field[9], k.field_len[9]);
    der_case cases[9];
    size_t n = 0;
    /* version 1 without otherPrimeInfos; version 0 with them; version 2 */
    cases[n++] = (der_case){"version 1 alone", "020101", {NULL, 0}, WEBCRYPTO_ERR_DATA};
    cases[n++] = (der_case){"version 0 with otherPrimeInfos", "020100", copy_of(other.p, other.n),
                            WEBCRYPTO_ERR_DATA};
    cases[n++] = (der_case){"version 2", "020102", copy_of(other.p, other.n), WEBCRYPTO_ERR_DATA};
    /* empty otherPrimeInfos; a SET instead of the SEQUENCE; a byte after it */
    buf empty = {NULL, 0};
    put_hex(&empty, "3000");
    cases[n++] = (der_case){"empty otherPrimeInfos", "020101", empty, WEBCRYPTO_ERR_DATA};
    buf set = copy_of(other.p, other.n);
    set.p[0] = 0x31;
    cases[n++] = (der_case){"otherPrimeInfos a SET", "020101", set, WEBCRYPTO_ERR_DATA};
    buf after = copy_of(other.p, other.n);
    put_hex(&after, "0500");
    cases[n++] = (der_case){"data after otherPrimeInfos", "020101", after, WEBCRYPTO_ERR_DATA};
    /* an OtherPrimeInfo without its coefficient; with a fourth INTEGER */
    buf two = {NULL, 0};
    put(&two, k.info[0], k.info_len[0]);
    put(&two, k.info[1], k.info_len[1]);
    cases[n++] = (der_case){"OtherPrimeInfo without t", "020101", wrap(0x30, wrap(0x30, two)),
                            WEBCRYPTO_ERR_DATA};
    buf four = {NULL, 0};
    for (size_t i = 0; i < 3; i++) put(&four, k.info[i], k.info_len[i]);
    put_hex(&four, "020101");
    cases[n++] = (der_case){"OtherPrimeInfo with four INTEGERs", "020101",
                            wrap(0x30, wrap(0x30, four)), WEBCRYPTO_ERR_DATA};
    /* nine primes: well-formed, over the core's limit of 8, on every backend */
    const uint8_t *c;
    size_t cl;
    tlv_at(other.p, other.n, &c, &cl);
    buf seven = {NULL, 0};
    for (size_t i = 0; i < 7; i++) put(&seven, c, cl); /* the OtherPrimeInfo, 7 times */
    cases[n++] = (der_case){"nine primes", "020101", wrap(0x30, seven),
                            WEBCRYPTO_ERR_NOT_SUPPORTED};
    assert_int_equal(n, sizeof cases / sizeof cases[0]);
    for (size_t i = 0; i < n; i++) {
        bytes der = p8_with(&k, cases[i].version, cases[i].tail.n ? &cases[i].tail : NULL);
        webcrypto_status st = import_private(WEBCRYPTO_FORMAT_PKCS8, der.p, der.n,
                                             WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, NULL);
        if (st != cases[i].want) print_message("case: %s\n", cases[i].what);
        tu_assert_status(st, cases[i].want);
        free(der.p);
        free(cases[i].tail.p);
    }
    /* the builder, given the fixture's own parts, rebuilds the fixture */
    bytes same = p8_with(&k, "020101", &other);
    assert_int_equal(same.n, k.der.n);
    assert_memory_equal(same.p, k.der.p, same.n);
    free(same.p);
    free(other.p);
    free(k.der.p);
}

/* ---- malformed JWK: DataError everywhere ---- */

/* KEY3_JWK with edit applied to its object, as text (free with free). */
static char *jwk_edited(void (*edit)(json_t *jwk)) {
    json_error_t err;
    json_t *j = json_loads(KEY3_JWK, 0, &err);
    assert_non_null(j);
    edit(j);
    char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    assert_non_null(s);
    json_decref(j);
    return s;
}

static json_t *first_oth(json_t *j) { return json_array_get(json_object_get(j, "oth"), 0); }
static void e_oth_empty(json_t *j) { json_object_set_new(j, "oth", json_array()); }
static void e_oth_object(json_t *j) { json_object_set(j, "oth", first_oth(j)); }
static void e_oth_string(json_t *j) { json_object_set_new(j, "oth", json_string("AQAB")); }
static void e_oth_entry_string(json_t *j) {
    json_array_set_new(json_object_get(j, "oth"), 0, json_string("AQAB"));
}
static void e_no_r(json_t *j) { json_object_del(first_oth(j), "r"); }
static void e_no_d(json_t *j) { json_object_del(first_oth(j), "d"); }
static void e_no_t(json_t *j) { json_object_del(first_oth(j), "t"); }
static void e_r_bad(json_t *j) { json_object_set_new(first_oth(j), "r", json_string("AB+/")); }
static void e_d_padded(json_t *j) { json_object_set_new(first_oth(j), "d", json_string("AQA=")); }
static void e_t_empty(json_t *j) { json_object_set_new(first_oth(j), "t", json_string("")); }
static void e_t_number(json_t *j) { json_object_set_new(first_oth(j), "t", json_integer(3)); }
static void e_public_with_oth(json_t *j) {
    const char *priv[] = {"d", "dp", "dq", "p", "q", "qi"};
    for (size_t i = 0; i < 6; i++) json_object_del(j, priv[i]);
    json_object_set_new(j, "key_ops", json_pack("[s]", "verify"));
}
static void e_nine_primes(json_t *j) {
    json_t *oth = json_object_get(j, "oth"), *one = json_array_get(oth, 0);
    for (size_t i = 1; i < 7; i++) json_array_append(oth, one);
}

typedef struct jwk_case {
    const char *what;
    void (*edit)(json_t *);
    webcrypto_status want;
} jwk_case;

static void test_malformed_jwk(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_SHA_256);
    const jwk_case cases[] = {
        {"oth []", e_oth_empty, WEBCRYPTO_ERR_DATA},
        {"oth an object", e_oth_object, WEBCRYPTO_ERR_DATA},
        {"oth a string", e_oth_string, WEBCRYPTO_ERR_DATA},
        {"oth entry a string", e_oth_entry_string, WEBCRYPTO_ERR_DATA},
        {"oth entry without r", e_no_r, WEBCRYPTO_ERR_DATA},
        {"oth entry without d", e_no_d, WEBCRYPTO_ERR_DATA},
        {"oth entry without t", e_no_t, WEBCRYPTO_ERR_DATA},
        {"r not base64url", e_r_bad, WEBCRYPTO_ERR_DATA},
        {"d padded", e_d_padded, WEBCRYPTO_ERR_DATA},
        {"t empty", e_t_empty, WEBCRYPTO_ERR_DATA},
        {"t a number", e_t_number, WEBCRYPTO_ERR_DATA},
        {"nine primes", e_nine_primes, WEBCRYPTO_ERR_NOT_SUPPORTED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *s = jwk_edited(cases[i].edit);
        webcrypto_status st = import_jwk_text(s, WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, NULL);
        if (st != cases[i].want) print_message("case: %s\n", cases[i].what);
        tu_assert_status(st, cases[i].want);
        free(s);
    }
    /* "oth" in a public key (no "d"): a private member without d */
    char *s = jwk_edited(e_public_with_oth);
    webcrypto_params p = rsa_params(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5);
    webcrypto_key *key = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, (const uint8_t *)s,
                                          strlen(s), &p, true, WEBCRYPTO_USAGE_VERIFY, &key),
                     WEBCRYPTO_ERR_DATA);
    assert_null(key);
    free(s);
}

/* ---- well-formed multi-prime keys: imported or NotSupportedError ---- */

static void test_well_formed(void **state) {
    (void)state;
    const webcrypto_algorithm algs[] = {WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS,
                                        WEBCRYPTO_ALG_RSA_OAEP};
    tu_require(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_RSA_OAEP,
               WEBCRYPTO_ALG_SHA_256);
    bool can = has_feature();
    printf("%s: multi-prime RSA import %s\n", webcrypto_backend_name(tu_backend()),
           can ? "supported" : "not supported");
    bytes k3 = unhex(KEY3_PKCS8), k6 = unhex(KEY6_PKCS8), k3s = unhex(KEY3S_PKCS8);
    /* the JWK without "alg" and "key_ops", so that it fits every algorithm */
    json_error_t err;
    json_t *j = json_loads(KEY3_JWK, 0, &err);
    assert_non_null(j);
    json_object_del(j, "alg");
    json_object_del(j, "key_ops");
    char *jwk = json_dumps(j, JSON_COMPACT);
    assert_non_null(jwk);
    json_decref(j);
    webcrypto_status want3 = can ? WEBCRYPTO_OK : WEBCRYPTO_ERR_NOT_SUPPORTED;
    for (size_t a = 0; a < 3; a++) {
        tu_assert_status(import_private(WEBCRYPTO_FORMAT_PKCS8, k3.p, k3.n, algs[a], NULL), want3);
        if (!can) assert_non_null(strstr(webcrypto_error_message(), "multi-prime RSA keys"));
        tu_assert_status(import_jwk_text(jwk, algs[a], NULL), want3);
        if (!can) assert_non_null(strstr(webcrypto_error_message(), "(3 primes)"));
        /* six primes: more than OpenSSL's five; three in 768 bits: more
         * than OpenSSL's two below 1024 bits */
        tu_assert_status(import_private(WEBCRYPTO_FORMAT_PKCS8, k6.p, k6.n, algs[a], NULL),
                         WEBCRYPTO_ERR_NOT_SUPPORTED);
        tu_assert_status(import_private(WEBCRYPTO_FORMAT_PKCS8, k3s.p, k3s.n, algs[a], NULL),
                         WEBCRYPTO_ERR_NOT_SUPPORTED);
    }
    /* Inconsistent three-prime keys (still well-formed): r, d_3 or t
     * changed. DataError where the backend takes such keys. */
    key3_parts k = key3_split();
    for (size_t m = 0; m < 3; m++) {
        buf info = {NULL, 0};
        for (size_t i = 0; i < 3; i++) {
            put(&info, k.info[i], k.info_len[i]);
            if (i == m) info.p[info.n - 1] ^= 0x02; /* the last byte: stays positive */
        }
        buf tail = wrap(0x30, wrap(0x30, info));
        bytes der = p8_with(&k, "020101", &tail);
        tu_assert_status(import_private(WEBCRYPTO_FORMAT_PKCS8, der.p, der.n,
                                        WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, NULL),
                         can ? WEBCRYPTO_ERR_DATA : WEBCRYPTO_ERR_NOT_SUPPORTED);
        free(der.p);
        free(tail.p);
    }
    free(k.der.p);
    free(jwk);
    free(k3.p);
    free(k6.p);
    free(k3s.p);
}

/* ---- where the backend takes them: use and export ---- */

static void test_operations(void **state) {
    (void)state;
    tu_require(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_RSA_OAEP,
               WEBCRYPTO_ALG_SHA_256);
    if (!has_feature()) {
        printf("skipped: backend %s does not import multi-prime RSA keys (test_well_formed "
               "checks that it refuses them)\n",
               webcrypto_backend_name(tu_backend()));
        skip();
    }
    bytes k3 = unhex(KEY3_PKCS8), spki = unhex(KEY3_SPKI), ct = unhex(KEY3_OAEP_CT);
    const uint8_t *msg = (const uint8_t *)MESSAGE;
    size_t msg_len = strlen(MESSAGE);
    uint8_t out[512], sig[512];
    size_t out_len = 0, sig_len = 0;
    bool valid = false;

    /* RSA-OAEP: the CLI's ciphertext, and one made here with the spki key */
    webcrypto_params oaep = rsa_params(WEBCRYPTO_ALG_RSA_OAEP);
    webcrypto_key *dec = NULL, *enc = NULL;
    tu_assert_status(import_private(WEBCRYPTO_FORMAT_PKCS8, k3.p, k3.n, WEBCRYPTO_ALG_RSA_OAEP,
                                    &dec),
                     WEBCRYPTO_OK);
    assert_int_equal(webcrypto_key_get_modulus_length(dec), 2048);
    tu_assert_status(webcrypto_decrypt(&oaep, dec, ct.p, ct.n, out, sizeof out, &out_len),
                     WEBCRYPTO_OK);
    assert_int_equal(out_len, msg_len);
    assert_memory_equal(out, msg, msg_len);
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_SPKI, spki.p, spki.n,
                                          &oaep, true, WEBCRYPTO_USAGE_ENCRYPT, &enc),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_encrypt(&oaep, enc, msg, msg_len, sig, sizeof sig, &sig_len),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_decrypt(&oaep, dec, sig, sig_len, out, sizeof out, &out_len),
                     WEBCRYPTO_OK);
    assert_int_equal(out_len, msg_len);
    assert_memory_equal(out, msg, msg_len);
    ct.p[ct.n - 1] ^= 1;
    tu_assert_status(webcrypto_decrypt(&oaep, dec, ct.p, ct.n, out, sizeof out, &out_len),
                     WEBCRYPTO_ERR_OPERATION);
    webcrypto_key_free(dec);
    webcrypto_key_free(enc);

    /* RSASSA-PKCS1-v1_5, from pkcs8 and from jwk: the CLI's signature */
    webcrypto_params pkcs1 = rsa_params(WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5);
    webcrypto_key *from_p8 = NULL, *from_jwk = NULL, *pub = NULL;
    tu_assert_status(import_private(WEBCRYPTO_FORMAT_PKCS8, k3.p, k3.n,
                                    WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, &from_p8),
                     WEBCRYPTO_OK);
    tu_assert_status(import_jwk_text(KEY3_JWK, WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, &from_jwk),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_SPKI, spki.p, spki.n,
                                          &pkcs1, true, WEBCRYPTO_USAGE_VERIFY, &pub),
                     WEBCRYPTO_OK);
    webcrypto_key *keys[2] = {from_p8, from_jwk};
    for (size_t i = 0; i < 2; i++) {
        tu_assert_status(webcrypto_sign(&pkcs1, keys[i], msg, msg_len, sig, sizeof sig, &sig_len),
                         WEBCRYPTO_OK);
        tu_assert_hex(sig, sig_len, KEY3_PKCS1_SIG);
        tu_assert_status(webcrypto_verify(&pkcs1, pub, sig, sig_len, msg, msg_len, &valid),
                         WEBCRYPTO_OK);
        assert_true(valid);
    }
    /* export: each as imported and each as the other, byte for byte */
    for (size_t i = 0; i < 2; i++) {
        uint8_t *p8 = NULL, *jwk = NULL;
        size_t p8_len = 0, jwk_len = 0;
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_PKCS8, keys[i], &p8, &p8_len),
                         WEBCRYPTO_OK);
        tu_assert_hex(p8, p8_len, KEY3_PKCS8);
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, keys[i], &jwk, &jwk_len),
                         WEBCRYPTO_OK);
        assert_int_equal(jwk_len, strlen(KEY3_JWK));
        assert_memory_equal(jwk, KEY3_JWK, jwk_len);
        webcrypto_buffer_free(p8, p8_len);
        webcrypto_buffer_free(jwk, jwk_len);
    }
    webcrypto_key_free(from_p8);
    webcrypto_key_free(from_jwk);
    webcrypto_key_free(pub);

    /* RSA-PSS: signed with the three-prime key, verified with the spki key */
    webcrypto_params pss = rsa_params(WEBCRYPTO_ALG_RSA_PSS);
    pss.salt_length = 32;
    webcrypto_key *pss_priv = NULL, *pss_pub = NULL;
    tu_assert_status(import_private(WEBCRYPTO_FORMAT_PKCS8, k3.p, k3.n, WEBCRYPTO_ALG_RSA_PSS,
                                    &pss_priv),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_SPKI, spki.p, spki.n,
                                          &pss, true, WEBCRYPTO_USAGE_VERIFY, &pss_pub),
                     WEBCRYPTO_OK);
    tu_assert_status(webcrypto_sign(&pss, pss_priv, msg, msg_len, sig, sizeof sig, &sig_len),
                     WEBCRYPTO_OK);
    assert_int_equal(sig_len, 256);
    tu_assert_status(webcrypto_verify(&pss, pss_pub, sig, sig_len, msg, msg_len, &valid),
                     WEBCRYPTO_OK);
    assert_true(valid);
    sig[0] ^= 0x40;
    tu_assert_status(webcrypto_verify(&pss, pss_pub, sig, sig_len, msg, msg_len, &valid),
                     WEBCRYPTO_OK);
    assert_false(valid);
    webcrypto_key_free(pss_priv);
    webcrypto_key_free(pss_pub);
    free(k3.p);
    free(spki.p);
    free(ct.p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_public_key_everywhere), cmocka_unit_test(test_malformed_pkcs8),
        cmocka_unit_test(test_malformed_jwk),         cmocka_unit_test(test_well_formed),
        cmocka_unit_test(test_operations),
    };
    printf("backend: %s\n", webcrypto_backend_name(tu_backend()));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
