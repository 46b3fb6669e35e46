/*
 * test_der.c - the strict DER codec for SPKI and PKCS #8 (src/core/der.c), on
 * its own: no backend, no library.
 *
 * The keys below were made with `openssl genpkey` (OpenSSL 3.0); the PKCS #8
 * bytes are `openssl pkcs8 -topk8 -nocrypt -outform DER` and the SPKI bytes
 * `openssl pkey -pubout -outform DER` (`openssl pkey -outform DER` writes the
 * traditional RSAPrivateKey / ECPrivateKey forms for RSA and EC instead). Each
 * was imported into Node 20's crypto.subtle and exported again in the same
 * format: Node gave back identical bytes for all twelve, so "parse then write
 * gives the same bytes" is "we write what Node writes". The components are the
 * ones `openssl pkey -text` prints.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core.h"
#include "der.h"

/* rsa: `openssl genpkey`, then `openssl pkcs8 -topk8 -nocrypt -outform DER` and
 * `openssl pkey -pubout -outform DER`; components from `openssl pkey -text`. */
static const char RSA_PKCS8[] =
    "308204bf020100300d06092a864886f70d0101010500048204a9308204a50201000282010100"
    "f3277ea3277d41445d7463398484aeb25f229adaad7558af863f017565e7947f2c7948923e57"
    "73feeb153f658a1ec279be3111991b57c395fc9fa1b731980cf6c3c91ebadf389c9ffe5b6816"
    "e6e9ed73ad63f42854666ab77822ec7a424d9d7b11535d04140123902b15fd0a5f73992abda6"
    "e50be2b132104d0e36067f78561ab9810fe3aa497b9e14e8e9105b25c83f9a29fcbe483ba23d"
    "95eaaf663b0f08b631a9efd3efb82d8ab5ba52e5ab86965352f3edefc9ecb82d4b50fa8c5117"
    "bf0c9c485f4b1d64357dd65211bb5c6f1dd55796e63f9b06173a61cd4d34cca0664fcaa972e1"
    "a25dc7688d82de08471e5a84f410ce2fa34cdd6bed9de770b4cd99b30203010001028201000e"
    "95374c9cb12fe9643b7739fb5f23c511dc96f1f7863aa7e842be1926dff131815ed2c1e69843"
    "1e2e462b73b109703b71f32a6d86ccc82fa62382c4e4660c9cfe18014e4ed5ebdad29bf3cdaf"
    "d2a6c991c4156017d3bea1bb4448ef7a2b827edf86a2e4fc3827445db9276068621bf50ac3c8"
    "27e2d422bf04880e286c9bb07a32e8b6c87d7e6168105a9701f4f357c9160a7cffdb2ea17588"
    "3e93c4cc556ad429fe13a246aa0589d2f0f7a1f45733958ba6dbf15da3d6d9be06ca5d849960"
    "29b0ac6dbbdd003c85f5f41e28fe4eb7e9440169ab8d18f65817d52ad84715f68b06c3d34afe"
    "cdb42a08122d78f22ebfaec5e581d72193d71f24aa3abdee322a2102818100fd8b60ae64409f"
    "fd33c6aa2bd6397a0c59c80ec8d6b6862f449b705663022ec1456eed7c3833ed1fc7422ff72f"
    "ca9a5d83fc9119783c71454f348902091aba1439b7274a8b52e0e6ff668c7df604e8e382eaa3"
    "cd29ce3eb3b359a0470803b1a91578e24758f3b02f548fc2183eb9b69751741f4200146fa474"
    "0a19b4287629d302818100f5825b3520123e4e788e0c2f42b27c59c16fa3199cbc5500c1c8e9"
    "52fceee9ae443d822c51dbf885bc09d4c75748720f7478d6960fb264f58a4a98aa090351f39b"
    "c716b3707c5f6bb95002df1fc40aacdc9b7a0a0d2479127146b91caad63db8b255649e303a62"
    "45beb769c30c9d2ef34be74f0ba2d4dcb311edb957031204a102818100c2a89b95c88a854ad4"
    "d1961d09e01f00147e303ba9fd809011d075331dd8b324d7b60ec6ec2f91c2702d34be4706f9"
    "f50a3c82fa5701b0c551c637da443b2cda1265b7d8d796cded0bf123b4218a2b736133dc86cb"
    "adf91de678cd413bb9fa50a297a8c2b65c81cc14d43a647ae40277b2a5c0c9df5dd149257e0b"
    "b5f1caa6d902818100ccb5d3436ae88b5777224a7aa5cc99ef6561a6c7d66f1b19b47bc841d0"
    "718e1c26fe7aaa65df5b4c77cc62c58cbbf58f7978c0c50375a6c52e78a0ef36f0b3c6c31fb0"
    "8812c541f35ae3a26155e56b5953e1b852e53e824da4726a2bc32f3cebe2975d7ca18e2d1f26"
    "b55cd4ac91ebf2265a4b08d2cf56ef6185ad43266641c102818100efa0b23a2d88efbfd60094"
    "a9c34dca8d1ab369597a7ce28f7bea71c880b2a79f2cb6de8d9710b8159b1292947c6a27d8f8"
    "d7f85621520afe5a8b235795cdeaad1c174c7c04a331a9630b8ce4b824e6f8f80e0dd8fc692e"
    "2b87f03611b2bcbf995d6467b877c2e2d2b5f086aed2acb56f0ccbe8277821c7137eadf611b4"
    "ea34fe";
static const char RSA_SPKI[] =
    "30820122300d06092a864886f70d01010105000382010f003082010a0282010100f3277ea327"
    "7d41445d7463398484aeb25f229adaad7558af863f017565e7947f2c7948923e5773feeb153f"
    "658a1ec279be3111991b57c395fc9fa1b731980cf6c3c91ebadf389c9ffe5b6816e6e9ed73ad"
    "63f42854666ab77822ec7a424d9d7b11535d04140123902b15fd0a5f73992abda6e50be2b132"
    "104d0e36067f78561ab9810fe3aa497b9e14e8e9105b25c83f9a29fcbe483ba23d95eaaf663b"
    "0f08b631a9efd3efb82d8ab5ba52e5ab86965352f3edefc9ecb82d4b50fa8c5117bf0c9c485f"
    "4b1d64357dd65211bb5c6f1dd55796e63f9b06173a61cd4d34cca0664fcaa972e1a25dc7688d"
    "82de08471e5a84f410ce2fa34cdd6bed9de770b4cd99b30203010001";
static const char RSA_MODULUS[] =
    "00f3277ea3277d41445d7463398484aeb25f229adaad7558af863f017565e7947f2c7948923e"
    "5773feeb153f658a1ec279be3111991b57c395fc9fa1b731980cf6c3c91ebadf389c9ffe5b68"
    "16e6e9ed73ad63f42854666ab77822ec7a424d9d7b11535d04140123902b15fd0a5f73992abd"
    "a6e50be2b132104d0e36067f78561ab9810fe3aa497b9e14e8e9105b25c83f9a29fcbe483ba2"
    "3d95eaaf663b0f08b631a9efd3efb82d8ab5ba52e5ab86965352f3edefc9ecb82d4b50fa8c51"
    "17bf0c9c485f4b1d64357dd65211bb5c6f1dd55796e63f9b06173a61cd4d34cca0664fcaa972"
    "e1a25dc7688d82de08471e5a84f410ce2fa34cdd6bed9de770b4cd99b3";
static const char RSA_PUBLICEXPONENT[] =
    "010001";
static const char RSA_PRIVATEEXPONENT[] =
    "0e95374c9cb12fe9643b7739fb5f23c511dc96f1f7863aa7e842be1926dff131815ed2c1e698"
    "431e2e462b73b109703b71f32a6d86ccc82fa62382c4e4660c9cfe18014e4ed5ebdad29bf3cd"
    "afd2a6c991c4156017d3bea1bb4448ef7a2b827edf86a2e4fc3827445db9276068621bf50ac3"
    "c827e2d422bf04880e286c9bb07a32e8b6c87d7e6168105a9701f4f357c9160a7cffdb2ea175"
    "883e93c4cc556ad429fe13a246aa0589d2f0f7a1f45733958ba6dbf15da3d6d9be06ca5d8499"
    "6029b0ac6dbbdd003c85f5f41e28fe4eb7e9440169ab8d18f65817d52ad84715f68b06c3d34a"
    "fecdb42a08122d78f22ebfaec5e581d72193d71f24aa3abdee322a21";
static const char RSA_PRIME1[] =
    "00fd8b60ae64409ffd33c6aa2bd6397a0c59c80ec8d6b6862f449b705663022ec1456eed7c38"
    "33ed1fc7422ff72fca9a5d83fc9119783c71454f348902091aba1439b7274a8b52e0e6ff668c"
    "7df604e8e382eaa3cd29ce3eb3b359a0470803b1a91578e24758f3b02f548fc2183eb9b69751"
    "741f4200146fa4740a19b4287629d3";
static const char RSA_PRIME2[] =
    "00f5825b3520123e4e788e0c2f42b27c59c16fa3199cbc5500c1c8e952fceee9ae443d822c51"
    "dbf885bc09d4c75748720f7478d6960fb264f58a4a98aa090351f39bc716b3707c5f6bb95002"
    "df1fc40aacdc9b7a0a0d2479127146b91caad63db8b255649e303a6245beb769c30c9d2ef34b"
    "e74f0ba2d4dcb311edb957031204a1";
static const char RSA_EXPONENT1[] =
    "00c2a89b95c88a854ad4d1961d09e01f00147e303ba9fd809011d075331dd8b324d7b60ec6ec"
    "2f91c2702d34be4706f9f50a3c82fa5701b0c551c637da443b2cda1265b7d8d796cded0bf123"
    "b4218a2b736133dc86cbadf91de678cd413bb9fa50a297a8c2b65c81cc14d43a647ae40277b2"
    "a5c0c9df5dd149257e0bb5f1caa6d9";
static const char RSA_EXPONENT2[] =
    "00ccb5d3436ae88b5777224a7aa5cc99ef6561a6c7d66f1b19b47bc841d0718e1c26fe7aaa65"
    "df5b4c77cc62c58cbbf58f7978c0c50375a6c52e78a0ef36f0b3c6c31fb08812c541f35ae3a2"
    "6155e56b5953e1b852e53e824da4726a2bc32f3cebe2975d7ca18e2d1f26b55cd4ac91ebf226"
    "5a4b08d2cf56ef6185ad43266641c1";
static const char RSA_COEFFICIENT[] =
    "00efa0b23a2d88efbfd60094a9c34dca8d1ab369597a7ce28f7bea71c880b2a79f2cb6de8d97"
    "10b8159b1292947c6a27d8f8d7f85621520afe5a8b235795cdeaad1c174c7c04a331a9630b8c"
    "e4b824e6f8f80e0dd8fc692e2b87f03611b2bcbf995d6467b877c2e2d2b5f086aed2acb56f0c"
    "cbe8277821c7137eadf611b4ea34fe";

/* P-256: `openssl genpkey`, then `openssl pkcs8 -topk8 -nocrypt -outform DER` and
 * `openssl pkey -pubout -outform DER`; components from `openssl pkey -text`. */
static const char P256_PKCS8[] =
    "308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b02010104202779"
    "2374f3aa3724ca3f6689c02cd4d5b7f65819b440a58ce110861d07158590a144034200042f3d"
    "a48adffdea6db11eb1bdd07212f0bd7471e8bde730d811afe69e8cfd9e56ed5ceac390e9fa19"
    "d96aab0ae56eeb8ec2d2a448dd3888c83c64c706c62ea3db";
static const char P256_SPKI[] =
    "3059301306072a8648ce3d020106082a8648ce3d030107034200042f3da48adffdea6db11eb1"
    "bdd07212f0bd7471e8bde730d811afe69e8cfd9e56ed5ceac390e9fa19d96aab0ae56eeb8ec2"
    "d2a448dd3888c83c64c706c62ea3db";
static const char P256_PRIV[] =
    "27792374f3aa3724ca3f6689c02cd4d5b7f65819b440a58ce110861d07158590";
static const char P256_PUB[] =
    "042f3da48adffdea6db11eb1bdd07212f0bd7471e8bde730d811afe69e8cfd9e56ed5ceac390"
    "e9fa19d96aab0ae56eeb8ec2d2a448dd3888c83c64c706c62ea3db";

/* P-384: `openssl genpkey`, then `openssl pkcs8 -topk8 -nocrypt -outform DER` and
 * `openssl pkey -pubout -outform DER`; components from `openssl pkey -text`. */
static const char P384_PKCS8[] =
    "3081b6020100301006072a8648ce3d020106052b8104002204819e30819b020101043031c446"
    "f24a94266b4804eb1e7027dadf365ec6b2cb33fcea2bcc298883b3031476dda18f2502acc674"
    "0e4cefba8130d6a16403620004e7a8022221586bf2c0d925d60ef6b18d5b7ead75fdce8e7733"
    "a80f6aa0f27c27051634f391ed31b5967048435c2ef8546e7405e20f69cceb0b75d14911b3f2"
    "2ea4af508b49924bb0df071a8588986fed757053896881992ac01fdc0d7ebf5e6c";
static const char P384_SPKI[] =
    "3076301006072a8648ce3d020106052b8104002203620004e7a8022221586bf2c0d925d60ef6"
    "b18d5b7ead75fdce8e7733a80f6aa0f27c27051634f391ed31b5967048435c2ef8546e7405e2"
    "0f69cceb0b75d14911b3f22ea4af508b49924bb0df071a8588986fed757053896881992ac01f"
    "dc0d7ebf5e6c";
static const char P384_PRIV[] =
    "31c446f24a94266b4804eb1e7027dadf365ec6b2cb33fcea2bcc298883b3031476dda18f2502"
    "acc6740e4cefba8130d6";
static const char P384_PUB[] =
    "04e7a8022221586bf2c0d925d60ef6b18d5b7ead75fdce8e7733a80f6aa0f27c27051634f391"
    "ed31b5967048435c2ef8546e7405e20f69cceb0b75d14911b3f22ea4af508b49924bb0df071a"
    "8588986fed757053896881992ac01fdc0d7ebf5e6c";

/* P-521: `openssl genpkey`, then `openssl pkcs8 -topk8 -nocrypt -outform DER` and
 * `openssl pkey -pubout -outform DER`; components from `openssl pkey -text`. */
static const char P521_PKCS8[] =
    "3081ee020100301006072a8648ce3d020106052b810400230481d63081d30201010442008d4d"
    "ebadf997be0a154c1760b907d0c445bdccf962f360683409df40080d970c42b2a28937b73a49"
    "063bc6eb0dbed958befc82f07f8944568820a226f18a9a1c28a18189038186000401f03e9e01"
    "fd0b8fd27d2e98a060fc475876ddd9898138f5aaea762581e500c22974c68da2ffcd73165942"
    "55e48d0a09dff6dda18221e79f582c2617629e7b6295fc01526d26f88c72a3507b0790e1b238"
    "2e7534be6a8eea7326af87706e53807d12882d17b8a84ae9c0ee61b71068b7abe97de52ef72d"
    "e3553167808e42165d0b1ea099";
static const char P521_SPKI[] =
    "30819b301006072a8648ce3d020106052b81040023038186000401f03e9e01fd0b8fd27d2e98"
    "a060fc475876ddd9898138f5aaea762581e500c22974c68da2ffcd7316594255e48d0a09dff6"
    "dda18221e79f582c2617629e7b6295fc01526d26f88c72a3507b0790e1b2382e7534be6a8eea"
    "7326af87706e53807d12882d17b8a84ae9c0ee61b71068b7abe97de52ef72de3553167808e42"
    "165d0b1ea099";
static const char P521_PRIV[] =
    "008d4debadf997be0a154c1760b907d0c445bdccf962f360683409df40080d970c42b2a28937"
    "b73a49063bc6eb0dbed958befc82f07f8944568820a226f18a9a1c28";
static const char P521_PUB[] =
    "0401f03e9e01fd0b8fd27d2e98a060fc475876ddd9898138f5aaea762581e500c22974c68da2"
    "ffcd7316594255e48d0a09dff6dda18221e79f582c2617629e7b6295fc01526d26f88c72a350"
    "7b0790e1b2382e7534be6a8eea7326af87706e53807d12882d17b8a84ae9c0ee61b71068b7ab"
    "e97de52ef72de3553167808e42165d0b1ea099";

/* ed25519: `openssl genpkey`, then `openssl pkcs8 -topk8 -nocrypt -outform DER` and
 * `openssl pkey -pubout -outform DER`; components from `openssl pkey -text`. */
static const char ED25519_PKCS8[] =
    "302e020100300506032b657004220420a96a1354f68cf18cbc5658eb61f9632c8b81d58f0c9b"
    "8c9335eecd361721ffb8";
static const char ED25519_SPKI[] =
    "302a300506032b6570032100ef891e504a45eb83c95af0e39e2cc9e5c32a8bbb75969f2abf6b"
    "51a3ba956fbc";
static const char ED25519_PRIV[] =
    "a96a1354f68cf18cbc5658eb61f9632c8b81d58f0c9b8c9335eecd361721ffb8";
static const char ED25519_PUB[] =
    "ef891e504a45eb83c95af0e39e2cc9e5c32a8bbb75969f2abf6b51a3ba956fbc";

/* x25519: `openssl genpkey`, then `openssl pkcs8 -topk8 -nocrypt -outform DER` and
 * `openssl pkey -pubout -outform DER`; components from `openssl pkey -text`. */
static const char X25519_PKCS8[] =
    "302e020100300506032b656e042204209067be032b1000d2a08a5976d45ebb6d81761a8a57bb"
    "d5d8c09fc36996ec2b50";
static const char X25519_SPKI[] =
    "302a300506032b656e0321009b1f36145a3dc89640ddf8de1eb62a28e50aa49ee1a56a1b4cf8"
    "335893dece4d";
static const char X25519_PRIV[] =
    "9067be032b1000d2a08a5976d45ebb6d81761a8a57bbd5d8c09fc36996ec2b50";
static const char X25519_PUB[] =
    "9b1f36145a3dc89640ddf8de1eb62a28e50aa49ee1a56a1b4cf8335893dece4d";

/* RFC 8410 section 10.1 (SPKI) and 10.3 (PKCS #8 v1, and v2 with an
 * attribute and the public key) Ed25519 examples; the public key checked
 * against the private one with `openssl pkey -text`. */
static const char RFC8410_SPKI[] =
    "302a300506032b657003210019bf44096984cdfe8541bac167dc3b96c85086aa30b6b6cb0c5c38ad703166e1";
static const char RFC8410_V1[] =
    "302e020100300506032b657004220420d4ee72dbf913584ad5b6d8f1f769f8ad3afe7c28cbf1d4fbe097a88f"
    "44755842";
static const char RFC8410_V2[] =
    "3072020101300506032b657004220420d4ee72dbf913584ad5b6d8f1f769f8ad3afe7c28cbf1d4fbe097a88f"
    "44755842a01f301d060a2a864886f70d01090914310f0c0d437572646c65204368616972738121001"
    "9bf44096984cdfe8541bac167dc3b96c85086aa30b6b6cb0c5c38ad703166e1";
static const char RFC8410_D[] = "d4ee72dbf913584ad5b6d8f1f769f8ad3afe7c28cbf1d4fbe097a88f44755842";
static const char RFC8410_X[] = "19bf44096984cdfe8541bac167dc3b96c85086aa30b6b6cb0c5c38ad703166e1";

/* DER content bytes of the identifiers, as `openssl asn1parse -genstr OID:...` prints them. */
#define HEX_RSA_ALG "300d06092a864886f70d0101010500"
#define HEX_OID_EC "06072a8648ce3d0201"
#define HEX_OID_ECDH "06052b8104010c"
#define HEX_OID_P256 "06082a8648ce3d030107"
#define HEX_OID_P384 "06052b81040022"
#define HEX_OID_SECP256K1 "06052b8104000a"
#define HEX_OID_ED25519 "06032b6570"
#define HEX_OID_X25519 "06032b656e"

/* ---- hex helpers: built strings are kept and freed after each test ---- */

static char *kept[4096];
static size_t nkept;

static char *keep(char *s) {
    assert_non_null(s);
    if (nkept == sizeof kept / sizeof kept[0]) {
        free(s);
        fail_msg("too many built strings in one test");
    }
    kept[nkept++] = s;
    return s;
}

static int teardown(void **state) {
    (void)state;
    for (size_t i = 0; i < nkept; i++) free(kept[i]);
    nkept = 0;
    return 0;
}

/* Concatenates hex strings; the list ends with NULL. */
static char *cat(const char *first, ...) {
    va_list ap;
    size_t n = 0;
    va_start(ap, first);
    for (const char *s = first; s; s = va_arg(ap, const char *)) n += strlen(s);
    va_end(ap);
    char *out = keep(malloc(n + 1));
    out[0] = 0;
    va_start(ap, first);
    for (const char *s = first; s; s = va_arg(ap, const char *)) strcat(out, s);
    va_end(ap);
    return out;
}
#define CAT(...) cat(__VA_ARGS__, (const char *)NULL)

/* A DER TLV: tag (hex) + minimal length + content (hex). */
static char *tlv(const char *tag, const char *content) {
    size_t n = strlen(content) / 2;
    char len[24];
    assert_true(n <= 0xffff);
    if (n < 0x80)
        snprintf(len, sizeof len, "%02zx", n);
    else if (n < 0x100)
        snprintf(len, sizeof len, "81%02zx", n);
    else
        snprintf(len, sizeof len, "82%04zx", n);
    return CAT(tag, len, content);
}

/* Bytes [from, to) of a hex string, as hex. */
static char *slice(const char *hex, size_t from, size_t to) {
    assert_true(from <= to && 2 * to <= strlen(hex));
    char *out = keep(malloc(2 * (to - from) + 1));
    memcpy(out, hex + 2 * from, 2 * (to - from));
    out[2 * (to - from)] = 0;
    return out;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    fail_msg("bad hex digit '%c'", c);
    return -1;
}

/* Decodes hex into an exactly-sized malloc'd buffer (so ASan sees any read
 * past the end); free with free(). */
static uint8_t *unhex(const char *hex, size_t *len) {
    size_t n = strlen(hex);
    assert_true(n % 2 == 0);
    uint8_t *out = malloc(n / 2 ? n / 2 : 1);
    assert_non_null(out);
    for (size_t i = 0; i < n / 2; i++)
        out[i] = (uint8_t)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
    *len = n / 2;
    return out;
}

static void assert_hex_eq(const uint8_t *p, size_t n, const char *hex) {
    size_t want_len;
    uint8_t *want = unhex(hex, &want_len);
    if (n != want_len || (n && memcmp(p, want, n) != 0)) {
        char got[2 * 1300 + 1];
        size_t shown = n < 1300 ? n : 1300;
        for (size_t i = 0; i < shown; i++) snprintf(got + 2 * i, 3, "%02x", p[i]);
        got[2 * shown] = 0;
        free(want);
        fail_msg("got %zu bytes %s, expected %zu bytes %s", n, got, want_len, hex);
    }
    free(want);
}

/* The field exactly as expected. */
static void assert_field(wc_bytes v, const char *hex) {
    assert_non_null(v.p);
    assert_hex_eq(v.p, v.n, hex);
}

/* The field's value as an unsigned integer (leading zeros ignored). */
static void assert_num(wc_bytes v, const char *hex) {
    assert_non_null(v.p);
    while (v.n && v.p[0] == 0) v.p++, v.n--;
    while (hex[0] == '0' && hex[1] == '0') hex += 2;
    assert_hex_eq(v.p, v.n, hex);
}

static bool is_zero(const wc_pkey_fields *f) {
    wc_pkey_fields z;
    memset(&z, 0, sizeof z);
    return memcmp(f, &z, sizeof z) == 0;
}

static webcrypto_status parse(bool pkcs8, webcrypto_algorithm kind, const uint8_t *der, size_t len,
                              wc_pkey_fields *f) {
    return pkcs8 ? wc_der_parse_pkcs8(kind, der, len, f) : wc_der_parse_spki(kind, der, len, f);
}

/* Parses hex, which must be accepted; *buf holds the bytes the fields point to. */
static void parse_ok(bool pkcs8, webcrypto_algorithm kind, const char *hex, wc_pkey_fields *f,
                     uint8_t **buf) {
    size_t len;
    *buf = unhex(hex, &len);
    webcrypto_status st = parse(pkcs8, kind, *buf, len, f);
    if (st != WEBCRYPTO_OK)
        fail_msg("%s as algorithm %d rejected: %s: %s", pkcs8 ? "pkcs8" : "spki", (int)kind,
                 webcrypto_status_name(st), webcrypto_error_message());
    assert_int_equal(f->is_private, pkcs8);
}

/* Parsing hex must be DataError, and leave no fields behind. */
#define reject(pkcs8, kind, hex) reject_at((pkcs8), (kind), (hex), __LINE__)
static void reject_at(bool pkcs8, webcrypto_algorithm kind, const char *hex, int line) {
    size_t len;
    uint8_t *buf = unhex(hex, &len);
    wc_pkey_fields f;
    memset(&f, 0xa5, sizeof f);
    webcrypto_status st = parse(pkcs8, kind, buf, len, &f);
    free(buf);
    if (st != WEBCRYPTO_ERR_DATA)
        fail_msg("line %d: %s as algorithm %d gave %s, expected DataError", line,
                 pkcs8 ? "pkcs8" : "spki", (int)kind, webcrypto_status_name(st));
    assert_true(is_zero(&f));
}

static void free_out(uint8_t *out, size_t len) {
    wc_wipe(out, len);
    free(out);
}

/* Encoding f must give exactly hex. */
static void assert_writes(bool pkcs8, webcrypto_algorithm kind, const wc_pkey_fields *f,
                          const char *hex) {
    uint8_t *out = (uint8_t *)"";
    size_t out_len = 1;
    webcrypto_status st = pkcs8 ? wc_der_write_pkcs8(kind, f, &out, &out_len)
                                : wc_der_write_spki(kind, f, &out, &out_len);
    if (st != WEBCRYPTO_OK)
        fail_msg("writing %s failed: %s: %s", pkcs8 ? "pkcs8" : "spki", webcrypto_status_name(st),
                 webcrypto_error_message());
    assert_hex_eq(out, out_len, hex);
    free_out(out, out_len);
}

static void assert_write_fails(bool pkcs8, webcrypto_algorithm kind, const wc_pkey_fields *f,
                               webcrypto_status expected) {
    /* Outputs are left untouched on failure (webcrypto.h's convention). */
    static uint8_t sentinel[1];
    uint8_t *out = sentinel;
    size_t out_len = 1;
    webcrypto_status st = pkcs8 ? wc_der_write_pkcs8(kind, f, &out, &out_len)
                                : wc_der_write_spki(kind, f, &out, &out_len);
    assert_int_equal(st, expected);
    assert_ptr_equal(out, sentinel);
    assert_int_equal(out_len, 1);
}

static const webcrypto_algorithm RSA_KINDS[] = {WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5,
                                                WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_RSA_OAEP};
static const webcrypto_algorithm EC_KINDS[] = {WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ECDH};

/* ======================================================================== */
/* Round trips                                                              */
/* ======================================================================== */

static void test_rsa_round_trip(void **state) {
    (void)state;
    for (size_t k = 0; k < 3; k++) {
        webcrypto_algorithm kind = RSA_KINDS[k];
        wc_pkey_fields f;
        uint8_t *buf;
        parse_ok(true, kind, RSA_PKCS8, &f, &buf);
        assert_num(f.n, RSA_MODULUS);
        assert_num(f.e, RSA_PUBLICEXPONENT);
        assert_num(f.d, RSA_PRIVATEEXPONENT);
        assert_num(f.p, RSA_PRIME1);
        assert_num(f.q, RSA_PRIME2);
        assert_num(f.dp, RSA_EXPONENT1);
        assert_num(f.dq, RSA_EXPONENT2);
        assert_num(f.qi, RSA_COEFFICIENT);
        /* the INTEGER's sign octet is not part of the value */
        assert_int_equal(f.n.n, 256);
        assert_field(f.e, "010001");
        assert_null(f.x.p);
        assert_null(f.point.p);
        assert_int_equal(f.curve, WEBCRYPTO_CURVE_NONE);
        assert_writes(true, kind, &f, RSA_PKCS8);
        assert_writes(false, kind, &f, RSA_SPKI); /* the public half of a private key */

        /* the writer strips leading zeros however many the fields carry */
        uint8_t padded[8][300];
        wc_bytes *ints[] = {&f.n, &f.e, &f.d, &f.p, &f.q, &f.dp, &f.dq, &f.qi};
        for (size_t i = 0; i < 8; i++) {
            assert_true(ints[i]->n + 3 <= sizeof padded[i]);
            memset(padded[i], 0, 3);
            memcpy(padded[i] + 3, ints[i]->p, ints[i]->n);
            ints[i]->p = padded[i];
            ints[i]->n += 3;
        }
        assert_writes(true, kind, &f, RSA_PKCS8);
        free(buf);

        parse_ok(false, kind, RSA_SPKI, &f, &buf);
        assert_num(f.n, RSA_MODULUS);
        assert_field(f.e, "010001");
        assert_null(f.d.p);
        assert_writes(false, kind, &f, RSA_SPKI);
        free(buf);
    }
}

typedef struct ec_vec {
    webcrypto_named_curve curve;
    size_t fs;
    const char *pkcs8, *spki, *priv, *pub;
} ec_vec;

static const ec_vec EC_VECS[] = {
    {WEBCRYPTO_CURVE_P256, 32, P256_PKCS8, P256_SPKI, P256_PRIV, P256_PUB},
    {WEBCRYPTO_CURVE_P384, 48, P384_PKCS8, P384_SPKI, P384_PRIV, P384_PUB},
    {WEBCRYPTO_CURVE_P521, 66, P521_PKCS8, P521_SPKI, P521_PRIV, P521_PUB},
};

static void test_ec_round_trip(void **state) {
    (void)state;
    for (size_t v = 0; v < 3; v++) {
        const ec_vec *e = &EC_VECS[v];
        assert_int_equal(wc_curve_field_size(e->curve), e->fs);
        for (size_t k = 0; k < 2; k++) {
            webcrypto_algorithm kind = EC_KINDS[k];
            wc_pkey_fields f;
            uint8_t *buf;
            parse_ok(true, kind, e->pkcs8, &f, &buf);
            assert_int_equal(f.curve, e->curve);
            assert_num(f.d, e->priv);
            assert_int_equal(f.d.n, e->fs); /* OpenSSL stores d at the field size */
            assert_field(f.point, e->pub);
            assert_null(f.x.p);
            assert_null(f.n.p);
            /* with the point as parsed, with x and y (what backends give),
             * and with x, y and d stripped of leading zeros: the same bytes */
            assert_writes(true, kind, &f, e->pkcs8);
            wc_pkey_fields g = f;
            g.point = (wc_bytes){NULL, 0};
            g.x = (wc_bytes){f.point.p + 1, e->fs};
            g.y = (wc_bytes){f.point.p + 1 + e->fs, e->fs};
            assert_writes(true, kind, &g, e->pkcs8);
            assert_writes(false, kind, &g, e->spki);
            while (g.d.n && g.d.p[0] == 0) g.d.p++, g.d.n--;
            while (g.x.n && g.x.p[0] == 0) g.x.p++, g.x.n--;
            while (g.y.n && g.y.p[0] == 0) g.y.p++, g.y.n--;
            assert_writes(true, kind, &g, e->pkcs8);
            free(buf);

            parse_ok(false, kind, e->spki, &f, &buf);
            assert_int_equal(f.curve, e->curve);
            assert_field(f.point, e->pub);
            assert_null(f.d.p);
            assert_writes(false, kind, &f, e->spki);
            free(buf);
        }
    }
    /* P-521's d begins with a zero octet here: the padding case is covered */
    assert_true(strncmp(P521_PRIV, "00", 2) == 0);
}

static void test_okp_round_trip(void **state) {
    (void)state;
    const struct {
        webcrypto_algorithm kind;
        const char *pkcs8, *spki, *priv, *pub;
    } vecs[] = {
        {WEBCRYPTO_ALG_ED25519, ED25519_PKCS8, ED25519_SPKI, ED25519_PRIV, ED25519_PUB},
        {WEBCRYPTO_ALG_X25519, X25519_PKCS8, X25519_SPKI, X25519_PRIV, X25519_PUB},
        {WEBCRYPTO_ALG_ED25519, RFC8410_V1, RFC8410_SPKI, RFC8410_D, RFC8410_X},
    };
    for (size_t v = 0; v < sizeof vecs / sizeof vecs[0]; v++) {
        wc_pkey_fields f;
        uint8_t *buf;
        parse_ok(true, vecs[v].kind, vecs[v].pkcs8, &f, &buf);
        assert_field(f.d, vecs[v].priv);
        assert_null(f.x.p); /* a v1 key carries no public key */
        assert_writes(true, vecs[v].kind, &f, vecs[v].pkcs8);
        free(buf);
        parse_ok(false, vecs[v].kind, vecs[v].spki, &f, &buf);
        assert_field(f.x, vecs[v].pub);
        assert_null(f.d.p);
        assert_writes(false, vecs[v].kind, &f, vecs[v].spki);
        free(buf);
    }
}

/* RFC 5958 v2: attributes skipped, the public key read; written back as v1
 * without it, as Node and OpenSSL write Ed25519 keys. */
static void test_one_asymmetric_key_v2(void **state) {
    (void)state;
    wc_pkey_fields f;
    uint8_t *buf;
    parse_ok(true, WEBCRYPTO_ALG_ED25519, RFC8410_V2, &f, &buf);
    assert_field(f.d, RFC8410_D);
    assert_field(f.x, RFC8410_X);
    assert_writes(true, WEBCRYPTO_ALG_ED25519, &f, RFC8410_V1);
    free(buf);

    /* the same for X25519, without the attribute */
#define X_P8(...) tlv("30", CAT(__VA_ARGS__))
    const char *x_alg = "300506032b656e", *x_priv = CAT("04220420", X25519_PRIV);
    const char *x_v2 = X_P8("020101", x_alg, x_priv, "812100", X25519_PUB);
    parse_ok(true, WEBCRYPTO_ALG_X25519, x_v2, &f, &buf);
    assert_field(f.d, X25519_PRIV);
    assert_field(f.x, X25519_PUB);
    assert_writes(true, WEBCRYPTO_ALG_X25519, &f, X25519_PKCS8);
    free(buf);
    reject(true, WEBCRYPTO_ALG_ED25519, x_v2);

    /* a v1 (version 0) key with a public key; version 2; a short public key;
     * public key with unused bits; attributes after the public key */
    reject(true, WEBCRYPTO_ALG_X25519, X_P8("020100", x_alg, x_priv, "812100", X25519_PUB));
    reject(true, WEBCRYPTO_ALG_X25519, X_P8("020102", x_alg, x_priv, "812100", X25519_PUB));
    reject(true, WEBCRYPTO_ALG_X25519,
           X_P8("020101", x_alg, x_priv, "812000", slice(X25519_PUB, 0, 31)));
    reject(true, WEBCRYPTO_ALG_X25519, X_P8("020101", x_alg, x_priv, "812101", X25519_PUB));
    reject(true, WEBCRYPTO_ALG_X25519, X_P8("020101", x_alg, x_priv, "8121", X25519_PUB, "00"));
    reject(true, WEBCRYPTO_ALG_X25519,
           X_P8("020101", x_alg, x_priv, "812100", X25519_PUB, "a000"));
    reject(true, WEBCRYPTO_ALG_X25519, /* [1] EXPLICIT is not RFC 5958's */
           X_P8("020101", x_alg, x_priv, tlv("a1", CAT("032100", X25519_PUB))));
    /* attributes are fine in v1 too, and v2 without a public key */
    parse_ok(true, WEBCRYPTO_ALG_X25519, X_P8("020100", x_alg, x_priv, "a000"), &f, &buf);
    assert_field(f.d, X25519_PRIV);
    free(buf);
    parse_ok(true, WEBCRYPTO_ALG_X25519, X_P8("020101", x_alg, x_priv), &f, &buf);
    assert_field(f.d, X25519_PRIV);
    assert_null(f.x.p);
    free(buf);
#undef X_P8
}

/* INTEGERs from unsigned values, and long-form lengths. */
static void test_writer_encoding(void **state) {
    (void)state;
    wc_pkey_fields f;
    memset(&f, 0, sizeof f);
    static const uint8_t n[] = {0x00, 0x00, 0x80, 0x01}, e[] = {0x00, 0x01, 0x00, 0x01};
    f.n = (wc_bytes){n, sizeof n};
    f.e = (wc_bytes){e, sizeof e};
    /* leading zeros gone, one 00 before a set top bit */
    assert_writes(false, WEBCRYPTO_ALG_RSA_PSS, &f,
                  "301e" "300d06092a864886f70d0101010500" "030d00" "300a" "0203008001"
                  "0203010001");
    static const uint8_t zero[] = {0x00, 0x00}, small[] = {0x7f};
    f.n = (wc_bytes){zero, sizeof zero};
    f.e = (wc_bytes){small, sizeof small};
    assert_writes(false, WEBCRYPTO_ALG_RSA_PSS, &f,
                  "301a" "300d06092a864886f70d0101010500" "030900" "3006020100" "02017f");

    /* a 16384-bit modulus: two-octet lengths at three levels, and back */
    static uint8_t big[2048];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(0xc3 ^ i);
    f.n = (wc_bytes){big, sizeof big};
    f.e = (wc_bytes){e, sizeof e};
    uint8_t *out;
    size_t out_len;
    assert_int_equal(wc_der_write_spki(WEBCRYPTO_ALG_RSA_OAEP, &f, &out, &out_len), WEBCRYPTO_OK);
    assert_int_equal(out_len, 4 + 15 + 4 + 1 + 4 + 4 + 1 + 2048 + 5);
    assert_hex_eq(out, 4, "30820822");
    wc_pkey_fields g;
    assert_int_equal(wc_der_parse_spki(WEBCRYPTO_ALG_RSA_OAEP, out, out_len, &g), WEBCRYPTO_OK);
    assert_int_equal(g.n.n, sizeof big);
    assert_memory_equal(g.n.p, big, sizeof big);
    assert_hex_eq(g.e.p, g.e.n, "010001");
    free_out(out, out_len);
}

static void test_writer_rejects(void **state) {
    (void)state;
    static const uint8_t b32[32] = {1}, b31[31] = {1}, b49[49] = {1}, pt[65] = {0x04, 1};
    static const uint8_t cpt[33] = {0x02, 1};
    wc_pkey_fields f;

    memset(&f, 0, sizeof f);
    f.n = (wc_bytes){b32, 32};
    assert_write_fails(false, WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, &f, WEBCRYPTO_ERR_OPERATION);
    f.e = (wc_bytes){b32, 3};
    assert_write_fails(true, WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, &f, WEBCRYPTO_ERR_OPERATION);
    assert_write_fails(false, WEBCRYPTO_ALG_HMAC, &f, WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_write_fails(true, WEBCRYPTO_ALG_AES_GCM, &f, WEBCRYPTO_ERR_NOT_SUPPORTED);

    memset(&f, 0, sizeof f); /* EC: curve, coordinates, d */
    f.x = (wc_bytes){b32, 32};
    f.y = (wc_bytes){b32, 32};
    f.d = (wc_bytes){b32, 32};
    assert_write_fails(false, WEBCRYPTO_ALG_ECDSA, &f, WEBCRYPTO_ERR_OPERATION); /* no curve */
    f.curve = WEBCRYPTO_CURVE_P256;
    f.y = (wc_bytes){b49, 33};
    assert_write_fails(false, WEBCRYPTO_ALG_ECDSA, &f, WEBCRYPTO_ERR_OPERATION); /* y too long */
    f.y = (wc_bytes){NULL, 0};
    assert_write_fails(false, WEBCRYPTO_ALG_ECDSA, &f, WEBCRYPTO_ERR_OPERATION); /* no y */
    assert_write_fails(true, WEBCRYPTO_ALG_ECDSA, &f, WEBCRYPTO_ERR_OPERATION);
    f.x = (wc_bytes){NULL, 0};
    f.point = (wc_bytes){cpt, sizeof cpt};
    assert_write_fails(false, WEBCRYPTO_ALG_ECDH, &f, WEBCRYPTO_ERR_OPERATION); /* compressed */
    assert_write_fails(true, WEBCRYPTO_ALG_ECDH, &f, WEBCRYPTO_ERR_OPERATION);
    f.point = (wc_bytes){pt, sizeof pt};
    f.d = (wc_bytes){b49, 33};
    assert_write_fails(true, WEBCRYPTO_ALG_ECDH, &f, WEBCRYPTO_ERR_OPERATION); /* d too long */
    f.curve = WEBCRYPTO_CURVE_P384;
    assert_write_fails(false, WEBCRYPTO_ALG_ECDH, &f, WEBCRYPTO_ERR_OPERATION); /* point size */
    f.d = (wc_bytes){NULL, 0};
    f.curve = WEBCRYPTO_CURVE_P256;
    assert_write_fails(true, WEBCRYPTO_ALG_ECDH, &f, WEBCRYPTO_ERR_OPERATION); /* no d */

    memset(&f, 0, sizeof f); /* OKP: exactly 32 bytes */
    f.x = (wc_bytes){b31, 31};
    f.d = (wc_bytes){b31, 31};
    assert_write_fails(false, WEBCRYPTO_ALG_ED25519, &f, WEBCRYPTO_ERR_OPERATION);
    assert_write_fails(true, WEBCRYPTO_ALG_X25519, &f, WEBCRYPTO_ERR_OPERATION);

    assert_int_equal(wc_curve_field_size(WEBCRYPTO_CURVE_NONE), 0);
    assert_int_equal(wc_curve_field_size(WEBCRYPTO_CURVE_P384), 48);
}

/* ======================================================================== */
/* Rejections                                                               */
/* ======================================================================== */

typedef struct vec {
    bool pkcs8;
    webcrypto_algorithm kind;
    const char *hex;
} vec;

static const vec ALL[] = {
    {true, WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, RSA_PKCS8},
    {false, WEBCRYPTO_ALG_RSA_OAEP, RSA_SPKI},
    {true, WEBCRYPTO_ALG_ECDSA, P256_PKCS8},
    {false, WEBCRYPTO_ALG_ECDH, P256_SPKI},
    {true, WEBCRYPTO_ALG_ECDH, P384_PKCS8},
    {false, WEBCRYPTO_ALG_ECDSA, P384_SPKI},
    {true, WEBCRYPTO_ALG_ECDSA, P521_PKCS8},
    {false, WEBCRYPTO_ALG_ECDSA, P521_SPKI},
    {true, WEBCRYPTO_ALG_ED25519, ED25519_PKCS8},
    {false, WEBCRYPTO_ALG_ED25519, ED25519_SPKI},
    {true, WEBCRYPTO_ALG_X25519, X25519_PKCS8},
    {false, WEBCRYPTO_ALG_X25519, X25519_SPKI},
    {true, WEBCRYPTO_ALG_ED25519, RFC8410_V2},
};
#define NALL (sizeof ALL / sizeof ALL[0])

/* Every proper prefix, and one byte more. */
static void test_truncated_and_trailing(void **state) {
    (void)state;
    for (size_t v = 0; v < NALL; v++) {
        size_t len;
        uint8_t *full = unhex(ALL[v].hex, &len);
        for (size_t n = 0; n < len; n++) {
            uint8_t *p = malloc(n ? n : 1); /* exact size: ASan sees overreads */
            assert_non_null(p);
            memcpy(p, full, n);
            wc_pkey_fields f;
            webcrypto_status st = parse(ALL[v].pkcs8, ALL[v].kind, p, n, &f);
            if (st != WEBCRYPTO_ERR_DATA)
                fail_msg("vector %zu cut to %zu of %zu bytes: %s", v, n, len,
                         webcrypto_status_name(st));
            assert_true(is_zero(&f));
            free(p);
        }
        free(full);
        reject(ALL[v].pkcs8, ALL[v].kind, CAT(ALL[v].hex, "00"));
        reject(ALL[v].pkcs8, ALL[v].kind, CAT(ALL[v].hex, "3000"));
    }
    wc_pkey_fields f;
    assert_int_equal(wc_der_parse_spki(WEBCRYPTO_ALG_ED25519, NULL, 0, &f), WEBCRYPTO_ERR_DATA);
    assert_int_equal(wc_der_parse_pkcs8(WEBCRYPTO_ALG_ED25519, NULL, 0, &f), WEBCRYPTO_ERR_DATA);
    /* C misuse, not data */
    assert_int_equal(wc_der_parse_spki(WEBCRYPTO_ALG_ED25519, NULL, 5, &f),
                     WEBCRYPTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(wc_der_parse_pkcs8(WEBCRYPTO_ALG_ED25519, (const uint8_t *)"0", 1, NULL),
                     WEBCRYPTO_ERR_INVALID_ARGUMENT);
}

static void test_lengths(void **state) {
    (void)state;
    const webcrypto_algorithm ed = WEBCRYPTO_ALG_ED25519;
    const char *body = CAT("300506032b6570032100", ED25519_PUB); /* the SPKI's contents */
    assert_string_equal(CAT("302a", body), ED25519_SPKI);
    reject(false, ed, CAT("3080", body, "0000"));     /* indefinite */
    reject(false, ed, CAT("30812a", body));           /* long form for a short length */
    reject(false, ed, CAT("3082002a", body));         /* leading zero length octet */
    reject(false, ed, CAT("3084000000" "2a", body));  /* and with four */
    reject(false, ed, CAT("30850000000000", body));   /* five length octets */
    reject(false, ed, CAT("30ff", body));             /* reserved */
    reject(false, ed, CAT("3085ffffffffff", body));   /* five length octets, no zero */
    reject(false, ed, CAT("3084ffffffff", body));     /* four: past the end */
    /* a leading zero octet on a length that does need the long form */
    assert_true(strncmp(RSA_SPKI, "30820122", 8) == 0);
    reject(false, WEBCRYPTO_ALG_RSA_PSS, CAT("3083000122", RSA_SPKI + 8));
    reject(false, WEBCRYPTO_ALG_RSA_PSS, CAT("30830122", RSA_SPKI + 8));
    /* the SPKI SEQUENCE not consumed: an element after the subjectPublicKey */
    reject(false, ed, CAT("302c", body, "0500"));
    reject(false, ed, CAT("302b", body));             /* past the end */
    reject(false, ed, CAT("3029", body));             /* short: trailing data after it */
    reject(false, ed, CAT("312a", body));             /* wrong outer tag: SET */
    reject(false, ed, CAT("102a", body));             /* primitive SEQUENCE */
    reject(false, ed, CAT("3f2a", body));             /* high tag number form */
    reject(false, ed, CAT("04", "2c", "302a", body)); /* wrapped in an OCTET STRING */
    /* inner lengths: non-minimal BIT STRING length, one too long, one too short */
    reject(false, ed, CAT("302b", "300506032b6570", "038121", "00", ED25519_PUB));
    reject(false, ed, CAT("302a", "300506032b6570", "032200", ED25519_PUB));
    reject(false, ed, CAT("302a", "300506032b6570", "032000", ED25519_PUB));
    reject(false, ed, CAT("302a", "300606032b6570", "032100", ED25519_PUB));
    reject(false, ed, CAT("302a", "300406032b6570", "032100", ED25519_PUB));
    reject(false, ed, CAT("302d", "30080680032b65700000", "032100", ED25519_PUB));
    /* a pkcs8 version written in two octets */
    reject(true, ed, CAT("302f", "02020000", "300506032b657004220420", ED25519_PRIV));
    reject(true, ed, CAT("302e", "0201ff", "300506032b657004220420", ED25519_PRIV));
    reject(true, ed, CAT("302d", "0200", "300506032b657004220420", ED25519_PRIV));
    /* a constructed OCTET STRING (BER only) */
    reject(true, ed, CAT("3030", "020100", "300506032b6570", "2424", "04220420", ED25519_PRIV));
}

/* 0 RSA, 1 EC, 2 Ed25519, 3 X25519: keys are interchangeable within one */
static int family_of(webcrypto_algorithm kind) {
    if (kind == WEBCRYPTO_ALG_ECDSA || kind == WEBCRYPTO_ALG_ECDH) return 1;
    if (kind == WEBCRYPTO_ALG_ED25519) return 2;
    if (kind == WEBCRYPTO_ALG_X25519) return 3;
    return 0;
}

static void test_wrong_algorithm(void **state) {
    (void)state;
    const webcrypto_algorithm all[] = {
        WEBCRYPTO_ALG_RSASSA_PKCS1_V1_5, WEBCRYPTO_ALG_RSA_PSS, WEBCRYPTO_ALG_RSA_OAEP,
        WEBCRYPTO_ALG_ECDSA, WEBCRYPTO_ALG_ECDH, WEBCRYPTO_ALG_ED25519, WEBCRYPTO_ALG_X25519};
    for (size_t v = 0; v < NALL; v++) {
        for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
            if (family_of(all[k]) == family_of(ALL[v].kind)) {
                wc_pkey_fields f;
                uint8_t *buf;
                parse_ok(ALL[v].pkcs8, all[k], ALL[v].hex, &f, &buf);
                free(buf);
            } else {
                reject(ALL[v].pkcs8, all[k], ALL[v].hex);
            }
        }
    }
    /* not asymmetric at all */
    size_t len;
    uint8_t *b = unhex(ED25519_SPKI, &len);
    wc_pkey_fields f;
    assert_int_equal(wc_der_parse_spki(WEBCRYPTO_ALG_HMAC, b, len, &f),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_int_equal(wc_der_parse_pkcs8(WEBCRYPTO_ALG_NONE, b, len, &f),
                     WEBCRYPTO_ERR_NOT_SUPPORTED);
    free(b);
    /* a SPKI given as pkcs8 and the other way round */
    reject(true, WEBCRYPTO_ALG_ED25519, ED25519_SPKI);
    reject(false, WEBCRYPTO_ALG_ED25519, ED25519_PKCS8);
    reject(true, WEBCRYPTO_ALG_RSA_PSS, RSA_SPKI);
    reject(false, WEBCRYPTO_ALG_ECDSA, P256_PKCS8);
}

static void test_rsa_malformed(void **state) {
    (void)state;
    const webcrypto_algorithm rsa = WEBCRYPTO_ALG_RSA_PSS;
    const char *n = RSA_MODULUS; /* with its 00 sign octet */
    const char *key = tlv("30", CAT(tlv("02", n), "0203010001"));
    const char *bits = tlv("03", CAT("00", key));
    assert_string_equal(tlv("30", CAT(HEX_RSA_ALG, bits)), RSA_SPKI);

    /* parameters: absent, NULL with contents, an OID, NULL and more */
    reject(false, rsa, tlv("30", CAT("300b06092a864886f70d010101", bits)));
    reject(false, rsa, tlv("30", CAT("300e06092a864886f70d010101050100", bits)));
    reject(false, rsa,
           tlv("30", CAT(tlv("30", CAT("06092a864886f70d010101", HEX_OID_P256)), bits)));
    reject(false, rsa, tlv("30", CAT("300f06092a864886f70d01010105000500", bits)));
    /* RSASSA-PSS's own identifier (1.2.840.113549.1.1.10) is not rsaEncryption */
    reject(false, rsa, tlv("30", CAT("300d06092a864886f70d01010a0500", bits)));
    /* BIT STRING with unused bits; RSAPublicKey with extra contents, or trailing data */
    reject(false, rsa, tlv("30", CAT(HEX_RSA_ALG, tlv("03", CAT("01", key)))));
    reject(false, rsa, tlv("30", CAT(HEX_RSA_ALG, tlv("03", CAT("00", key, "00")))));
    reject(false, rsa, tlv("30", CAT(HEX_RSA_ALG, tlv("03", CAT("00", tlv("30", CAT(tlv("02", n),
                                                                                  "0203010001",
                                                                                  "020101")))))));
    reject(false, rsa, tlv("30", CAT(HEX_RSA_ALG, tlv("03", CAT("00", tlv("30", tlv("02", n)))))));
    /* negative modulus (sign octet dropped), non-minimal and negative exponents, empty INTEGER */
    const char *ints[] = {CAT(tlv("02", n + 2), "0203010001"), CAT(tlv("02", n), "020400010001"),
                          CAT(tlv("02", n), "0203ff0001"), CAT(tlv("02", n), "0200"),
                          CAT(tlv("02", CAT("00", n)), "0203010001"),
                          CAT(tlv("02", CAT("ff", n + 2)), "0203010001")};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        reject(false, rsa, tlv("30", CAT(HEX_RSA_ALG, tlv("03", CAT("00", tlv("30", ints[i]))))));

    /* RSAPrivateKey, rebuilt from its components */
    const char *comp[] = {RSA_MODULUS, "010001", RSA_PRIVATEEXPONENT, RSA_PRIME1, RSA_PRIME2,
                          RSA_EXPONENT1, RSA_EXPONENT2, RSA_COEFFICIENT};
    char *body = CAT("");
    for (size_t i = 0; i < 8; i++) body = CAT(body, tlv("02", comp[i]));
#define RSA_P8(version, inner) \
    tlv("30", CAT("020100", HEX_RSA_ALG, tlv("04", tlv("30", CAT(version, inner)))))
    assert_string_equal(RSA_P8("020100", body), RSA_PKCS8);
    /* multi-prime (RFC 8017 A.1.2): version 1 with otherPrimeInfos, each
     * OtherPrimeInfo in f->oth (values are the backend's to check); written
     * back as read */
    const char *info = tlv("30", CAT("020107", "020103", "020105"));
    const char *info2 = tlv("30", CAT("02020080", "020101", tlv("02", RSA_PRIME1)));
    const char *other = tlv("30", info);
    wc_pkey_fields f;
    uint8_t *buf;
    parse_ok(true, rsa, RSA_P8("020101", CAT(body, other)), &f, &buf);
    assert_int_equal(f.oth_count, 1);
    assert_field(f.oth[0].r, "07");
    assert_field(f.oth[0].d, "03");
    assert_field(f.oth[0].t, "05");
    assert_num(f.qi, RSA_COEFFICIENT);
    assert_writes(true, rsa, &f, RSA_P8("020101", CAT(body, other)));
    free(buf);
    parse_ok(true, rsa, RSA_P8("020101", CAT(body, tlv("30", CAT(info, info2)))), &f, &buf);
    assert_int_equal(f.oth_count, 2);
    assert_field(f.oth[1].r, "80");
    assert_num(f.oth[1].t, RSA_PRIME1);
    assert_writes(true, rsa, &f, RSA_P8("020101", CAT(body, tlv("30", CAT(info, info2)))));
    /* a two-prime key's fields write version 0 */
    f.oth_count = 0;
    assert_writes(true, rsa, &f, RSA_P8("020100", body));
    /* the writer refuses an incomplete OtherPrimeInfo */
    f.oth_count = 2;
    f.oth[1].d = (wc_bytes){NULL, 0};
    assert_write_fails(true, rsa, &f, WEBCRYPTO_ERR_OPERATION);
    free(buf);
    /* eight primes parse; nine are NotSupportedError (well-formed) */
    char *six = CAT(""), *seven;
    for (size_t i = 0; i < 6; i++) six = CAT(six, info);
    seven = CAT(six, info);
    parse_ok(true, rsa, RSA_P8("020101", CAT(body, tlv("30", six))), &f, &buf);
    assert_int_equal(f.oth_count, 6);
    free(buf);
    {
        size_t len;
        uint8_t *b = unhex(RSA_P8("020101", CAT(body, tlv("30", seven))), &len);
        memset(&f, 0xa5, sizeof f);
        assert_int_equal(wc_der_parse_pkcs8(rsa, b, len, &f), WEBCRYPTO_ERR_NOT_SUPPORTED);
        assert_true(is_zero(&f));
        free(b);
        /* but a malformed tenth prime after them is DataError */
        reject(true, rsa, RSA_P8("020101", CAT(body, tlv("30", CAT(seven, "3000")))));
    }
    /* version 1 alone; version 0 with otherPrimeInfos; version 2 with or
     * without; empty otherPrimeInfos; a SET of them; an OtherPrimeInfo of
     * two or four INTEGERs, with a negative or non-minimal one, or empty;
     * data after the otherPrimeInfos; a non-SEQUENCE in it */
    reject(true, rsa, RSA_P8("020101", body));
    reject(true, rsa, RSA_P8("020100", CAT(body, other)));
    reject(true, rsa, RSA_P8("020102", CAT(body, other)));
    reject(true, rsa, RSA_P8("020102", body));
    reject(true, rsa, RSA_P8("020101", CAT(body, "3000")));
    reject(true, rsa, RSA_P8("020101", CAT(body, tlv("31", info))));
    reject(true, rsa, RSA_P8("020101", CAT(body, tlv("30", tlv("30", CAT("020107", "020103"))))));
    reject(true, rsa, RSA_P8("020101", CAT(body, tlv("30", tlv("30", CAT("020107", "020103",
                                                                         "020105", "020101"))))));
    reject(true, rsa, RSA_P8("020101", CAT(body, tlv("30", tlv("30", CAT("020107", "020183",
                                                                         "020105"))))));
    reject(true, rsa, RSA_P8("020101", CAT(body, tlv("30", tlv("30", CAT("020107", "02020003",
                                                                         "020105"))))));
    reject(true, rsa, RSA_P8("020101", CAT(body, tlv("30", "3000"))));
    reject(true, rsa, RSA_P8("020101", CAT(body, other, "0500")));
    reject(true, rsa, RSA_P8("020101", CAT(body, tlv("30", CAT(info, "020101")))));
    /* one INTEGER missing; each INTEGER negative in turn; a non-minimal one */
    char *short_body = CAT("");
    for (size_t i = 0; i < 7; i++) short_body = CAT(short_body, tlv("02", comp[i]));
    reject(true, rsa, RSA_P8("020100", short_body));
    for (size_t j = 0; j < 8; j++) {
        char *bad = CAT(""), *nonmin = CAT("");
        for (size_t i = 0; i < 8; i++) {
            bad = CAT(bad, tlv("02", i == j ? CAT("80", comp[i]) : comp[i]));
            nonmin = CAT(nonmin, tlv("02", i == j ? CAT("0000", comp[i]) : comp[i]));
        }
        reject(true, rsa, RSA_P8("020100", bad));
        reject(true, rsa, RSA_P8("020100", nonmin));
    }
    /* the PrivateKeyInfo version: 1 (v2) is only for Ed25519/X25519 */
    const char *rsa_key = tlv("30", CAT("020100", body));
    reject(true, rsa, tlv("30", CAT("020101", HEX_RSA_ALG, tlv("04", rsa_key))));
    /* RSAPrivateKey followed by a byte inside the OCTET STRING */
    reject(true, rsa, tlv("30", CAT("020100", HEX_RSA_ALG, tlv("04", CAT(rsa_key, "00")))));
#undef RSA_P8
}

static void test_ec_malformed(void **state) {
    (void)state;
    const webcrypto_algorithm ecdsa = WEBCRYPTO_ALG_ECDSA, ecdh = WEBCRYPTO_ALG_ECDH;
    const char *bits = CAT("034200", P256_PUB);
    const char *alg = tlv("30", CAT(HEX_OID_EC, HEX_OID_P256));
    assert_string_equal(tlv("30", CAT(alg, bits)), P256_SPKI);

    /* id-ecDH: for ECDH only */
    const char *dh_spki = tlv("30", CAT(tlv("30", CAT(HEX_OID_ECDH, HEX_OID_P256)), bits));
    wc_pkey_fields f;
    uint8_t *buf;
    parse_ok(false, ecdh, dh_spki, &f, &buf);
    assert_int_equal(f.curve, WEBCRYPTO_CURVE_P256);
    assert_field(f.point, P256_PUB);
    assert_writes(false, ecdh, &f, P256_SPKI); /* written as id-ecPublicKey */
    free(buf);
    reject(false, ecdsa, dh_spki);

    /* no curve, NULL, specifiedCurve, an unknown curve, two curves */
    const char *bad_algs[] = {
        tlv("30", HEX_OID_EC), tlv("30", CAT(HEX_OID_EC, "0500")),
        tlv("30", CAT(HEX_OID_EC, tlv("30", "020101"))),
        tlv("30", CAT(HEX_OID_EC, HEX_OID_SECP256K1)),
        tlv("30", CAT(HEX_OID_EC, HEX_OID_P256, HEX_OID_P256)),
        tlv("30", CAT(HEX_OID_ECDH)),
        tlv("30", CAT(HEX_OID_EC, "06082a8648ce3d030101")), /* prime192v1 */
    };
    for (size_t i = 0; i < sizeof bad_algs / sizeof bad_algs[0]; i++) {
        reject(false, ecdsa, tlv("30", CAT(bad_algs[i], bits)));
        reject(false, ecdh, tlv("30", CAT(bad_algs[i], bits)));
    }
    /* unused bits; empty key */
    reject(false, ecdsa, tlv("30", CAT(alg, "034201", P256_PUB)));
    reject(false, ecdsa, tlv("30", CAT(alg, "030100")));
    reject(false, ecdsa, tlv("30", CAT(alg, "0300")));

    /* PKCS #8: ECPrivateKey variations around the OpenSSL-written one */
    const char *d = tlv("04", P256_PRIV);
    const char *pub1 = tlv("a1", bits);
#define EC_P8(alg_, inner) tlv("30", CAT("020100", alg_, tlv("04", tlv("30", inner))))
    assert_string_equal(EC_P8(alg, CAT("020101", d, pub1)), P256_PKCS8);
    /* [0] with the same curve: accepted, and written without it (as Node) */
    const char *with_params = EC_P8(alg, CAT("020101", d, tlv("a0", HEX_OID_P256), pub1));
    parse_ok(true, ecdsa, with_params, &f, &buf);
    assert_field(f.d, P256_PRIV);
    assert_field(f.point, P256_PUB);
    assert_writes(true, ecdsa, &f, P256_PKCS8);
    free(buf);
    /* no public key: accepted, point absent; written without [1] */
    parse_ok(true, ecdh, EC_P8(alg, CAT("020101", d)), &f, &buf);
    assert_null(f.point.p);
    assert_writes(true, ecdh, &f, EC_P8(alg, CAT("020101", d)));
    free(buf);
    /* id-ecDH in PKCS #8: ECDH only */
    const char *dh_alg = tlv("30", CAT(HEX_OID_ECDH, HEX_OID_P256));
    parse_ok(true, ecdh, EC_P8(dh_alg, CAT("020101", d, pub1)), &f, &buf);
    assert_int_equal(f.curve, WEBCRYPTO_CURVE_P256);
    free(buf);
    reject(true, ecdsa, EC_P8(dh_alg, CAT("020101", d, pub1)));

    const char *bad[] = {
        CAT("020101", d, tlv("a0", HEX_OID_P384), pub1),     /* [0] names another curve */
        CAT("020101", d, tlv("a0", HEX_OID_SECP256K1), pub1),
        CAT("020101", d, tlv("a0", tlv("30", "020101")), pub1), /* specifiedCurve */
        CAT("020101", d, tlv("a0", CAT(HEX_OID_P256, "00")), pub1),
        CAT("020101", d, pub1, tlv("a0", HEX_OID_P256)), /* out of order */
        CAT("020101", d, pub1, pub1),
        CAT("020100", d, pub1), /* versions */
        CAT("020102", d, pub1),
        CAT("020101", "0400", pub1), /* empty d */
        CAT("020101", tlv("02", P256_PRIV), pub1),
        CAT("020101", d, tlv("a1", CAT("034201", P256_PUB))), /* unused bits */
        CAT("020101", d, tlv("a1", CAT(bits, "00"))),
        CAT("020101", d, tlv("81", CAT("00", P256_PUB))), /* [1] IMPLICIT is not RFC 5915's */
        CAT("020101", d, pub1, "00"),
        CAT("020101"),
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        reject(true, ecdsa, EC_P8(alg, bad[i]));
        reject(true, ecdh, EC_P8(alg, bad[i]));
    }
    for (size_t i = 0; i < sizeof bad_algs / sizeof bad_algs[0]; i++)
        reject(true, ecdsa, EC_P8(bad_algs[i], CAT("020101", d, pub1)));
    /* P-384's [0] in a P-384 key is fine, with a P-256 identifier it is not */
    const char *alg384 = tlv("30", CAT(HEX_OID_EC, HEX_OID_P384));
    reject(true, ecdsa, EC_P8(alg384, CAT("020101", d, tlv("a0", HEX_OID_P256))));
    parse_ok(true, ecdsa, EC_P8(alg384, CAT("020101", d, tlv("a0", HEX_OID_P384))), &f, &buf);
    assert_int_equal(f.curve, WEBCRYPTO_CURVE_P384);
    free(buf);
    /* version 1 (v2) PrivateKeyInfo is not for EC */
    reject(true, ecdsa,
           tlv("30", CAT("020101", alg, tlv("04", tlv("30", CAT("020101", d, pub1))))));
#undef EC_P8
}

static void test_okp_malformed(void **state) {
    (void)state;
    const webcrypto_algorithm ed = WEBCRYPTO_ALG_ED25519, x = WEBCRYPTO_ALG_X25519;
    /* parameters present (RFC 8410: MUST be absent): NULL, or anything */
    reject(false, ed, CAT("302c300706032b65700500032100", ED25519_PUB));
    reject(false, x, CAT("302c300706032b656e0500032100", X25519_PUB));
    reject(false, ed, CAT("302f300a06032b6570", HEX_OID_X25519, "032100", ED25519_PUB));
    reject(true, ed, CAT("3030020100300706032b6570050004220420", ED25519_PRIV));
    reject(true, x, CAT("3030020100300706032b656e050004220420", X25519_PRIV));
    /* unused bits; 31 and 33 byte keys */
    reject(false, ed, CAT("302a300506032b6570032101", ED25519_PUB));
    reject(false, ed, CAT("3029300506032b6570032000", slice(ED25519_PUB, 0, 31)));
    reject(false, ed, CAT("302b300506032b6570032200", ED25519_PUB, "00"));
    reject(true, ed, CAT("302d020100300506032b65700421041f", slice(ED25519_PRIV, 0, 31)));
    reject(true, ed, CAT("302f020100300506032b657004230421", ED25519_PRIV, "00"));
    /* CurvePrivateKey: not wrapped in its OCTET STRING, or followed by a byte */
    reject(true, ed, CAT("302c020100300506032b65700420", "01", slice(ED25519_PRIV, 1, 32)));
    reject(true, ed, CAT("302f020100300506032b657004230420", ED25519_PRIV, "00"));
    /* Ed448 (1.3.101.113) */
    reject(false, ed, CAT("302a300506032b6571032100", ED25519_PUB));
}

/* Each byte of each valid encoding changed, alone: the parser must not crash
 * (ASan/UBSan builds watch) and either refuse, leaving nothing behind, or give
 * fields inside the input. */
static void test_byte_flips(void **state) {
    (void)state;
    static const uint8_t masks[] = {0x01, 0x80, 0xff, 0x7f};
    size_t accepted = 0, rejected = 0;
    for (size_t v = 0; v < NALL; v++) {
        size_t len;
        uint8_t *full = unhex(ALL[v].hex, &len);
        uint8_t *p = malloc(len);
        assert_non_null(p);
        for (size_t i = 0; i < len; i++) {
            for (size_t m = 0; m < sizeof masks; m++) {
                memcpy(p, full, len);
                p[i] ^= masks[m];
                wc_pkey_fields f;
                webcrypto_status st = parse(ALL[v].pkcs8, ALL[v].kind, p, len, &f);
                if (st != WEBCRYPTO_OK) {
                    assert_int_equal(st, WEBCRYPTO_ERR_DATA);
                    assert_true(is_zero(&f));
                    rejected++;
                    continue;
                }
                accepted++;
                const wc_bytes all[] = {f.n,  f.e,  f.d, f.p, f.q,    f.dp,
                                        f.dq, f.qi, f.x, f.y, f.point};
                for (size_t j = 0; j < sizeof all / sizeof all[0]; j++) {
                    if (!all[j].p) continue;
                    assert_true(all[j].p >= p && all[j].p + all[j].n <= p + len);
                }
            }
        }
        free(p);
        free(full);
    }
    /* both outcomes happen: flips inside key material are accepted */
    assert_true(accepted > 0);
    assert_true(rejected > 0);
}


/* ML-KEM and ML-DSA (the LAMPS drafts, RFC 9881): the SubjectPublicKeyInfo
 * holds the encoded public key, parameters absent; the PKCS #8 private key
 * the seed form, [0] IMPLICIT OCTET STRING of the seed. Each is read and
 * written back byte for byte; the expandedKey and both forms are
 * NotSupportedError, a seed or key of another length, a parameter, or
 * another parameter set's OID DataError. */
static void seeded_case(webcrypto_algorithm kind, const char *spki_prefix,
                        const char *pkcs8_prefix, size_t pub_len, size_t seed_len) {
    size_t sp_n, pp_n;
    uint8_t *sp = unhex(spki_prefix, &sp_n), *pp = unhex(pkcs8_prefix, &pp_n);
    size_t spki_n = sp_n + pub_len, pkcs8_n = pp_n + seed_len;
    uint8_t *spki = malloc(spki_n + 4), *pkcs8 = malloc(pkcs8_n + 4);
    memcpy(spki, sp, sp_n);
    for (size_t i = 0; i < pub_len; i++) spki[sp_n + i] = (uint8_t)(i * 13 + 5);
    memcpy(pkcs8, pp, pp_n);
    for (size_t i = 0; i < seed_len; i++) pkcs8[pp_n + i] = (uint8_t)(i + 1);
    wc_pkey_fields f;
    assert_int_equal(wc_der_parse_spki(kind, spki, spki_n, &f), WEBCRYPTO_OK);
    assert_int_equal(f.x.n, pub_len);
    assert_ptr_equal(f.x.p, spki + sp_n);
    uint8_t *out = NULL;
    size_t out_n = 0;
    assert_int_equal(wc_der_write_spki(kind, &f, &out, &out_n), WEBCRYPTO_OK);
    assert_int_equal(out_n, spki_n);
    assert_memory_equal(out, spki, spki_n);
    free(out);
    assert_int_equal(wc_der_parse_pkcs8(kind, pkcs8, pkcs8_n, &f), WEBCRYPTO_OK);
    assert_true(f.is_private);
    assert_int_equal(f.d.n, seed_len);
    assert_ptr_equal(f.d.p, pkcs8 + pp_n);
    assert_int_equal(wc_der_write_pkcs8(kind, &f, &out, &out_n), WEBCRYPTO_OK);
    assert_int_equal(out_n, pkcs8_n);
    assert_memory_equal(out, pkcs8, pkcs8_n);
    free(out);
    /* the public key one byte short (BIT STRING and SEQUENCE lengths fixed up) */
    spki[3]--;
    spki[sp_n - 2]--;
    assert_int_equal(wc_der_parse_spki(kind, spki, spki_n - 1, &f), WEBCRYPTO_ERR_DATA);
    spki[3]++;
    spki[sp_n - 2]++;
    /* another parameter set's OID (the last arc + 1) */
    spki[sp_n - 6]++;
    assert_int_equal(wc_der_parse_spki(kind, spki, spki_n, &f), WEBCRYPTO_ERR_DATA);
    spki[sp_n - 6]--;
    /* the seed one byte short */
    pkcs8[1]--;
    pkcs8[pp_n - 3]--;
    pkcs8[pp_n - 1]--;
    assert_int_equal(wc_der_parse_pkcs8(kind, pkcs8, pkcs8_n - 1, &f), WEBCRYPTO_ERR_DATA);
    assert_non_null(strstr(webcrypto_error_message(), "length"));
    pkcs8[1]++;
    pkcs8[pp_n - 3]++;
    pkcs8[pp_n - 1]++;
    /* expandedKey (an OCTET STRING in the seed's place): NotSupportedError */
    pkcs8[pp_n - 2] = 0x04;
    assert_int_equal(wc_der_parse_pkcs8(kind, pkcs8, pkcs8_n, &f), WEBCRYPTO_ERR_NOT_SUPPORTED);
    assert_non_null(strstr(webcrypto_error_message(), "seed form"));
    /* both (a SEQUENCE): NotSupportedError */
    pkcs8[pp_n - 2] = 0x30;
    assert_int_equal(wc_der_parse_pkcs8(kind, pkcs8, pkcs8_n, &f), WEBCRYPTO_ERR_NOT_SUPPORTED);
    /* [0] constructed: not the seed form, DataError */
    pkcs8[pp_n - 2] = 0xa0;
    assert_int_equal(wc_der_parse_pkcs8(kind, pkcs8, pkcs8_n, &f), WEBCRYPTO_ERR_DATA);
    pkcs8[pp_n - 2] = 0x80;
    /* the writer refuses a seed of another length */
    wc_pkey_fields w = {.is_private = true, .d = {pkcs8 + pp_n, seed_len - 1}};
    assert_int_equal(wc_der_write_pkcs8(kind, &w, &out, &out_n), WEBCRYPTO_ERR_OPERATION);
    free(sp);
    free(pp);
    free(spki);
    free(pkcs8);
}

static void test_seeded_keys(void **state) {
    (void)state;
    seeded_case(WEBCRYPTO_ALG_ML_KEM_768, "308204b2300b0609608648016503040402038204a100",
                "3054020100300b060960864801650304040204428040", 1184, 64);
    seeded_case(WEBCRYPTO_ALG_ML_KEM_512, "30820332300b06096086480165030404010382032100",
                "3054020100300b060960864801650304040104428040", 800, 64);
    seeded_case(WEBCRYPTO_ALG_ML_DSA_65, "308207b2300b0609608648016503040312038207a100",
                "3034020100300b060960864801650304031204228020", 1952, 32);
    seeded_case(WEBCRYPTO_ALG_ML_DSA_87, "30820a32300b060960864801650304031303820a2100",
                "3034020100300b060960864801650304031304228020", 2592, 32);
    /* parameters present (a NULL): DataError */
    size_t n;
    uint8_t *b = unhex("3056020100300d06096086480165030404020500044280400000000000000000000000"
                       "0000000000000000000000000000000000000000000000000000000000000000000000"
                       "000000000000000000000000000000000000",
                       &n);
    wc_pkey_fields f;
    assert_int_equal(n, 88);
    assert_int_equal(wc_der_parse_pkcs8(WEBCRYPTO_ALG_ML_KEM_768, b, n, &f), WEBCRYPTO_ERR_DATA);
    free(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_rsa_round_trip, teardown),
        cmocka_unit_test_teardown(test_ec_round_trip, teardown),
        cmocka_unit_test_teardown(test_okp_round_trip, teardown),
        cmocka_unit_test_teardown(test_one_asymmetric_key_v2, teardown),
        cmocka_unit_test_teardown(test_writer_encoding, teardown),
        cmocka_unit_test_teardown(test_writer_rejects, teardown),
        cmocka_unit_test_teardown(test_truncated_and_trailing, teardown),
        cmocka_unit_test_teardown(test_lengths, teardown),
        cmocka_unit_test_teardown(test_wrong_algorithm, teardown),
        cmocka_unit_test_teardown(test_rsa_malformed, teardown),
        cmocka_unit_test_teardown(test_ec_malformed, teardown),
        cmocka_unit_test_teardown(test_okp_malformed, teardown),
        cmocka_unit_test_teardown(test_byte_flips, teardown),
        cmocka_unit_test_teardown(test_seeded_keys, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
