/*
 * test_gcm_siv.c - AES-GCM-SIV (RFC 8452) through the public API, on the
 * backend named by WEBCRYPTO_TEST_BACKEND. A backend without GCM-SIV makes
 * the whole program a visible skip (exit 77), not a pass.
 *
 * Known answers: every vector of RFC 8452 Appendix C (C.1, C.2 and the C.3
 * counter-wrap ones), typed in from the RFC and checked against BoringSSL's
 * EVP_aead_aes_*_gcm_siv; and SHA-256 digests of long outputs (several
 * keystream batches, the counter wrapping mid-message) computed with
 * BoringSSL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define ENC_DEC (WEBCRYPTO_USAGE_ENCRYPT | WEBCRYPTO_USAGE_DECRYPT)

typedef struct siv_vector {
    const char *key, *nonce, *aad, *pt, *result; /* result: ciphertext || tag */
} siv_vector;

#define K128 "01000000000000000000000000000000"
#define K256 "0100000000000000000000000000000000000000000000000000000000000000"
#define N03 "030000000000000000000000"

/* BEGIN RFC 8452 VECTORS */
/* C.1 AEAD_AES_128_GCM_SIV */
static const siv_vector rfc_c1[] = {
    {K128, N03, "", "", "dc20e2d83f25705bb49e439eca56de25"},
    {K128, N03, "", "0100000000000000", "b5d839330ac7b786578782fff6013b815b287c22493a364c"},
    {K128, N03, "", "010000000000000000000000",
     "7323ea61d05932260047d942a4978db357391a0bc4fdec8b0d106639"},
    {K128, N03, "", "01000000000000000000000000000000",
     "743f7c8077ab25f8624e2e948579cf77303aaf90f6fe21199c6068577437a0c4"},
    {K128, N03, "", "01000000000000000000000000000000 02000000000000000000000000000000",
     "84e07e62ba83a6585417245d7ec413a9fe427d6315c09b57ce45f2e3936a9445"
     "1a8e45dcd4578c667cd86847bf6155ff"},
    {K128, N03, "",
     "01000000000000000000000000000000 02000000000000000000000000000000"
     "03000000000000000000000000000000",
     "3fd24ce1f5a67b75bf2351f181a475c7b800a5b4d3dcf70106b1eea82fa1d64d"
     "f42bf7226122fa92e17a40eeaac1201b5e6e311dbf395d35b0fe39c2714388f8"},
    {K128, N03, "",
     "01000000000000000000000000000000 02000000000000000000000000000000"
     "03000000000000000000000000000000 04000000000000000000000000000000",
     "2433668f1058190f6d43e360f4f35cd8e475127cfca7028ea8ab5c20f7ab2af0"
     "2516a2bdcbc08d521be37ff28c152bba36697f25b4cd169c6590d1dd39566d3f"
     "8a263dd317aa88d56bdf3936dba75bb8"},
    {K128, N03, "01", "0200000000000000", "1e6daba35669f4273b0a1a2560969cdf790d99759abd1508"},
    {K128, N03, "01", "020000000000000000000000",
     "296c7889fd99f41917f4462008299c5102745aaa3a0c469fad9e075a"},
    {K128, N03, "01", "02000000000000000000000000000000",
     "e2b0c5da79a901c1745f700525cb335b8f8936ec039e4e4bb97ebd8c4457441f"},
    {K128, N03, "01", "02000000000000000000000000000000 03000000000000000000000000000000",
     "620048ef3c1e73e57e02bb8562c416a319e73e4caac8e96a1ecb2933145a1d71"
     "e6af6a7f87287da059a71684ed3498e1"},
    {K128, N03, "01",
     "02000000000000000000000000000000 03000000000000000000000000000000"
     "04000000000000000000000000000000",
     "50c8303ea93925d64090d07bd109dfd9515a5a33431019c17d93465999a8b005"
     "3201d723120a8562b838cdff25bf9d1e6a8cc3865f76897c2e4b245cf31c51f2"},
    {K128, N03, "01",
     "02000000000000000000000000000000 03000000000000000000000000000000"
     "04000000000000000000000000000000 05000000000000000000000000000000",
     "2f5c64059db55ee0fb847ed513003746aca4e61c711b5de2e7a77ffd02da42fe"
     "ec601910d3467bb8b36ebbaebce5fba30d36c95f48a3e7980f0e7ac299332a80"
     "cdc46ae475563de037001ef84ae21744"},
    {K128, N03, "010000000000000000000000", "02000000",
     "a8fe3e8707eb1f84fb28f8cb73de8e99e2f48a14"},
    {K128, N03, "01000000000000000000000000000000 0200",
     "03000000000000000000000000000000 04000000",
     "6bb0fecf5ded9b77f902c7d5da236a4391dd029724afc9805e976f451e6d87f6fe106514"},
    {K128, N03, "01000000000000000000000000000000 02000000",
     "03000000000000000000000000000000 0400",
     "44d0aaf6fb2f1f34add5e8064e83e12a2adabff9b2ef00fb47920cc72a0c0f13b9fd"},
    {"e66021d5eb8e4f4066d4adb9c33560e4", "f46e44bb3da0015c94f70887", "", "",
     "a4194b79071b01a87d65f706e3949578"},
    {"36864200e0eaf5284d884a0e77d31646", "bae8e37fc83441b16034566b", "46bb91c3c5", "7a806c",
     "af60eb711bd85bc1e4d3e0a462e074eea428a8"},
    {"aedb64a6c590bc84d1a5e269e4b47801", "afc0577e34699b9e671fdd4f", "fc880c94a95198874296",
     "bdc66f146545", "bb93a3e34d3cd6a9c45545cfc11f03ad743dba20f966"},
    {"d5cc1fd161320b6920ce07787f86743b", "275d1ab32f6d1f0434d8848c",
     "046787f3ea22c127aaf195d1894728", "1177441f195495860f",
     "4f37281f7ad12949d01d02fd0cd174c84fc5dae2f60f52fd2b"},
    {"b3fed1473c528b8426a582995929a149", "9e9ad8780c8d63d0ab4149c0",
     "c9882e5386fd9f92ec489c8fde2be2cf97e74e93", "9f572c614b4745914474e7c7",
     "f54673c5ddf710c745641c8bc1dc2f871fb7561da1286e655e24b7b0"},
    {"2d4ed87da44102952ef94b02b805249b", "ac80e6f61455bfac8308a2d4",
     "2950a70d5a1db2316fd568378da107b52b0da55210cc1c1b0a", "0d8c8451178082355c9e940fea2f58",
     "c9ff545e07b88a015f05b274540aa183b3449b9f39552de99dc214a1190b0b"},
    {"bde3b2f204d1e9f8b06bc47f9745b3d1", "ae06556fb6aa7890bebc18fe",
     "1860f762ebfbd08284e421702de0de18baa9c9596291b08466f37de21c7f",
     "6b3db4da3d57aa94842b9803a96e07fb6de7",
     "6298b296e24e8cc35dce0bed484b7f30d5803e377094f04709f64d7b985310a4db84"},
    {"f901cfe8a69615a93fdf7a98cad48179", "6245709fb18853f68d833640",
     "7576f7028ec6eb5ea7e298342a94d4b202b370ef9768ec6561c4fe6b7e7296fa859c21",
     "e42a3c02c25b64869e146d7b233987bddfc240871d",
     "391cc328d484a4f46406181bcd62efd9b3ee197d052d15506c84a9edd65e13e9d24a2a6e70"},
};

/* C.2 AEAD_AES_256_GCM_SIV */
static const siv_vector rfc_c2[] = {
    {K256, N03, "", "", "07f5f4169bbf55a8400cd47ea6fd400f"},
    {K256, N03, "", "0100000000000000", "c2ef328e5c71c83b843122130f7364b761e0b97427e3df28"},
    {K256, N03, "", "010000000000000000000000",
     "9aab2aeb3faa0a34aea8e2b18ca50da9ae6559e48fd10f6e5c9ca17e"},
    {K256, N03, "", "01000000000000000000000000000000",
     "85a01b63025ba19b7fd3ddfc033b3e76c9eac6fa700942702e90862383c6c366"},
    {K256, N03, "", "01000000000000000000000000000000 02000000000000000000000000000000",
     "4a6a9db4c8c6549201b9edb53006cba821ec9cf850948a7c86c68ac7539d027f"
     "e819e63abcd020b006a976397632eb5d"},
    {K256, N03, "",
     "01000000000000000000000000000000 02000000000000000000000000000000"
     "03000000000000000000000000000000",
     "c00d121893a9fa603f48ccc1ca3c57ce7499245ea0046db16c53c7c66fe717e3"
     "9cf6c748837b61f6ee3adcee17534ed5790bc96880a99ba804bd12c0e6a22cc4"},
    {K256, N03, "",
     "01000000000000000000000000000000 02000000000000000000000000000000"
     "03000000000000000000000000000000 04000000000000000000000000000000",
     "c2d5160a1f8683834910acdafc41fbb1632d4a353e8b905ec9a5499ac34f96c7"
     "e1049eb080883891a4db8caaa1f99dd004d80487540735234e3744512c6f90ce"
     "112864c269fc0d9d88c61fa47e39aa08"},
    {K256, N03, "01", "0200000000000000", "1de22967237a813291213f267e3b452f02d01ae33e4ec854"},
    {K256, N03, "01", "020000000000000000000000",
     "163d6f9cc1b346cd453a2e4cc1a4a19ae800941ccdc57cc8413c277f"},
    {K256, N03, "01", "02000000000000000000000000000000",
     "c91545823cc24f17dbb0e9e807d5ec17b292d28ff61189e8e49f3875ef91aff7"},
    {K256, N03, "01", "02000000000000000000000000000000 03000000000000000000000000000000",
     "07dad364bfc2b9da89116d7bef6daaaf6f255510aa654f920ac81b94e8bad365"
     "aea1bad12702e1965604374aab96dbbc"},
    {K256, N03, "01",
     "02000000000000000000000000000000 03000000000000000000000000000000"
     "04000000000000000000000000000000",
     "c67a1f0f567a5198aa1fcc8e3f21314336f7f51ca8b1af61feac35a86416fa47"
     "fbca3b5f749cdf564527f2314f42fe2503332742b228c647173616cfd44c54eb"},
    {K256, N03, "01",
     "02000000000000000000000000000000 03000000000000000000000000000000"
     "04000000000000000000000000000000 05000000000000000000000000000000",
     "67fd45e126bfb9a79930c43aad2d36967d3f0e4d217c1e551f59727870beefc9"
     "8cb933a8fce9de887b1e40799988db1fc3f91880ed405b2dd298318858467c89"
     "5bde0285037c5de81e5b570a049b62a0"},
    {K256, N03, "010000000000000000000000", "02000000",
     "22b3f4cd1835e517741dfddccfa07fa4661b74cf"},
    {K256, N03, "01000000000000000000000000000000 0200",
     "03000000000000000000000000000000 04000000",
     "43dd0163cdb48f9fe3212bf61b201976067f342bb879ad976d8242acc188ab59cabfe307"},
    {K256, N03, "01000000000000000000000000000000 02000000",
     "03000000000000000000000000000000 0400",
     "462401724b5ce6588d5a54aae5375513a075cfcdf5042112aa29685c912fc2056543"},
    {"e66021d5eb8e4f4066d4adb9c33560e4f46e44bb3da0015c94f7088736864200",
     "e0eaf5284d884a0e77d31646", "", "", "169fbb2fbf389a995f6390af22228a62"},
    {"bae8e37fc83441b16034566b7a806c46bb91c3c5aedb64a6c590bc84d1a5e269",
     "e4b47801afc0577e34699b9e", "4fbdc66f14", "671fdd",
     "0eaccb93da9bb81333aee0c785b240d319719d"},
    {"6545fc880c94a95198874296d5cc1fd161320b6920ce07787f86743b275d1ab3",
     "2f6d1f0434d8848c1177441f", "6787f3ea22c127aaf195", "195495860f04",
     "a254dad4f3f96b62b84dc40c84636a5ec12020ec8c2c"},
    {"d1894728b3fed1473c528b8426a582995929a1499e9ad8780c8d63d0ab4149c0",
     "9f572c614b4745914474e7c7", "489c8fde2be2cf97e74e932d4ed87d", "c9882e5386fd9f92ec",
     "0df9e308678244c44bc0fd3dc6628dfe55ebb0b9fb2295c8c2"},
    {"a44102952ef94b02b805249bac80e6f61455bfac8308a2d40d8c845117808235",
     "5c9e940fea2f582950a70d5a", "0da55210cc1c1b0abde3b2f204d1e9f8b06bc47f",
     "1db2316fd568378da107b52b", "8dbeb9f7255bf5769dd56692404099c2587f64979f21826706d497d5"},
    {"9745b3d1ae06556fb6aa7890bebc18fe6b3db4da3d57aa94842b9803a96e07fb",
     "6de71860f762ebfbd08284e4", "f37de21c7ff901cfe8a69615a93fdf7a98cad481796245709f",
     "21702de0de18baa9c9596291b08466",
     "793576dfa5c0f88729a7ed3c2f1bffb3080d28f6ebb5d3648ce97bd5ba67fd"},
    {"b18853f68d833640e42a3c02c25b64869e146d7b233987bddfc240871d7576f7",
     "028ec6eb5ea7e298342a94d4", "9c2159058b1f0fe91433a5bdc20e214eab7fecef4454a10ef0657df21ac7",
     "b202b370ef9768ec6561c4fe6b7e7296fa85",
     "857e16a64915a787637687db4a9519635cdd454fc2a154fea91f8363a39fec7d0a49"},
    {"3c535de192eaed3822a2fbbe2ca9dfc88255e14a661b8aa82cc54236093bbc23",
     "688089e55540db1872504e1c",
     "734320ccc9d9bbbb19cb81b2af4ecbc3e72834321f7aa0f70b7282b4f33df23f167541",
     "ced532ce4159b035277d4dfbb7db62968b13cd4eec",
     "626660c26ea6612fb17ad91e8e767639edd6c9faee9d6c7029675b89eaf4ba1ded1a286594"},
};

/* C.3 counter wrap (AEAD_AES_256_GCM_SIV): the tag makes the initial
 * counter ffffffff, so the second block's counter wraps to 0. */
static const siv_vector rfc_c3[] = {
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", "",
     "00000000000000000000000000000000 4db923dc793ee6497c76dcc03a98e108",
     "f3f80f2cf0cb2dd9c5984fcda908456cc537703b5ba70324a6793a7bf218d3ea"
     "ffffffff000000000000000000000000"},
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", "", "eb3640277c7ffd1303c7a542d02d3e4c 0000000000000000",
     "18ce4f0b8cb4d0cac65fea8f79257b20888e53e72299e56d"
     "ffffffff000000000000000000000000"},
};
/* END RFC 8452 VECTORS */

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- helpers ---- */

static webcrypto_key *import_raw(const uint8_t *key, size_t len) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_AES_GCM_SIV;
    webcrypto_key *k = NULL;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, key, len, &p, true,
                                          ENC_DEC, &k),
                     WEBCRYPTO_OK);
    return k;
}

static webcrypto_params siv_params(const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                                   size_t aad_len) {
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_AES_GCM_SIV;
    p.iv = nonce;
    p.iv_len = nonce_len;
    p.additional_data = aad;
    p.additional_data_len = aad_len;
    return p;
}

/* Encrypts and decrypts one vector (separate buffers, then in place). */
static void run_vector(const char *set, size_t idx, const siv_vector *v) {
    size_t key_len, nonce_len, aad_len, pt_len, res_len;
    uint8_t *key = tu_unhex(v->key, &key_len), *nonce = tu_unhex(v->nonce, &nonce_len);
    uint8_t *aad = tu_unhex(v->aad, &aad_len), *pt = tu_unhex(v->pt, &pt_len);
    uint8_t *res = tu_unhex(v->result, &res_len);
    assert_int_equal(res_len, pt_len + 16);
    webcrypto_key *k = import_raw(key, key_len);
    webcrypto_params p = siv_params(nonce, nonce_len, aad, aad_len);

    uint8_t *buf = malloc(res_len);
    assert_non_null(buf);
    size_t got = 0;
    tu_assert_status(webcrypto_encrypt(&p, k, pt, pt_len, buf, res_len, &got), WEBCRYPTO_OK);
    if (got != res_len || memcmp(buf, res, res_len) != 0)
        fail_msg("%s vector %zu: encrypt gave a wrong result", set, idx);
    tu_assert_status(webcrypto_decrypt(&p, k, res, res_len, buf, res_len, &got), WEBCRYPTO_OK);
    if (got != pt_len || (pt_len && memcmp(buf, pt, pt_len) != 0))
        fail_msg("%s vector %zu: decrypt gave a wrong plaintext", set, idx);

    /* In place: out == data. */
    memcpy(buf, pt, pt_len);
    tu_assert_status(webcrypto_encrypt(&p, k, buf, pt_len, buf, res_len, &got), WEBCRYPTO_OK);
    if (memcmp(buf, res, res_len) != 0)
        fail_msg("%s vector %zu: in-place encrypt gave a wrong result", set, idx);
    tu_assert_status(webcrypto_decrypt(&p, k, buf, res_len, buf, res_len, &got), WEBCRYPTO_OK);
    if (got != pt_len || (pt_len && memcmp(buf, pt, pt_len) != 0))
        fail_msg("%s vector %zu: in-place decrypt gave a wrong plaintext", set, idx);

    webcrypto_key_free(k);
    free(buf); free(key); free(nonce); free(aad); free(pt); free(res);
}

static void test_rfc8452_c1(void **state) {
    (void)state;
    for (size_t i = 0; i < COUNT(rfc_c1); i++) run_vector("C.1", i, &rfc_c1[i]);
}

static void test_rfc8452_c2(void **state) {
    (void)state;
    for (size_t i = 0; i < COUNT(rfc_c2); i++) run_vector("C.2", i, &rfc_c2[i]);
}

static void test_rfc8452_c3_counter_wrap(void **state) {
    (void)state;
    for (size_t i = 0; i < COUNT(rfc_c3); i++) run_vector("C.3", i, &rfc_c3[i]);
}

/* ---- long messages ----
 * Key 00 01 .. 1f (first key_len bytes), nonce 00 .. 0b, AAD of aad_len
 * bytes (i * 7 + 3) & 0xff, plaintext of len bytes (i * 13 + 5) & 0xff; the
 * digest is SHA-256 of ciphertext || tag, from BoringSSL. These cross the
 * backends' internal batch sizes (and the AAD's and plaintext's padding). */
typedef struct long_vector {
    size_t key_len, aad_len, len;
    const char *sha256;
} long_vector;

static const long_vector long_vectors[] = {
    /* BEGIN LONG VECTORS */
    {16, 0, 4095, "f133453a305926294640954ad136941a5d63197ac1cbb7fd063656ce64d99b48"},
    {16, 33, 4096, "e72f6fab2b11fdb8e7cfc17f81f7f55051243968e29bea66811eeb15278394ca"},
    {32, 0, 4097, "b9c5e59f3c1cc85485a296d156b33d0bca9bc14a2132e9eb13331db87c502d19"},
    {32, 17, 65536 + 5, "66197684822b464391b99a14de7f60ede15d9c3dc68aa634a0d73f899270aeb6"},
    {32, 1000, 1048576, "72eb3c7b1d970a03934be52225ae63d2f0af11f740c6d4d27e6affed8d2dc13c"},
    {16, 70000, 300001, "b9e48e86d7f3c99cf689db2ebc1ef7dc74c993319a579575491674c34cf56663"},
    /* END LONG VECTORS */
};

static uint8_t *pattern(size_t len, unsigned mul, unsigned add) {
    uint8_t *p = malloc(len ? len : 1);
    assert_non_null(p);
    for (size_t i = 0; i < len; i++) p[i] = (uint8_t)((i * mul + add) & 0xff);
    return p;
}

static void test_long_messages(void **state) {
    (void)state;
    for (size_t v = 0; v < COUNT(long_vectors); v++) {
        const long_vector *lv = &long_vectors[v];
        uint8_t key[32], nonce[12];
        for (int i = 0; i < 32; i++) key[i] = (uint8_t)i;
        for (int i = 0; i < 12; i++) nonce[i] = (uint8_t)i;
        uint8_t *aad = pattern(lv->aad_len, 7, 3), *pt = pattern(lv->len, 13, 5);
        uint8_t *ct = malloc(lv->len + 16), *back = malloc(lv->len + 1);
        assert_non_null(ct);
        assert_non_null(back);
        webcrypto_key *k = import_raw(key, lv->key_len);
        webcrypto_params p = siv_params(nonce, 12, aad, lv->aad_len);
        size_t got = 0;
        tu_assert_status(webcrypto_encrypt(&p, k, pt, lv->len, ct, lv->len + 16, &got),
                         WEBCRYPTO_OK);
        assert_int_equal(got, lv->len + 16);
        uint8_t md[32];
        size_t md_len = 0;
        tu_assert_status(webcrypto_digest(tu_backend(), WEBCRYPTO_ALG_SHA_256, ct, got, md,
                                          sizeof md, &md_len),
                         WEBCRYPTO_OK);
        tu_assert_hex(md, md_len, lv->sha256);
        tu_assert_status(webcrypto_decrypt(&p, k, ct, got, back, lv->len, &got), WEBCRYPTO_OK);
        assert_int_equal(got, lv->len);
        assert_memory_equal(back, pt, lv->len);
        webcrypto_key_free(k);
        free(aad); free(pt); free(ct); free(back);
    }
}

/* ---- failures ---- */

static bool all_zero(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (p[i] != 0) return false;
    }
    return true;
}

/* Decrypting (ct, with the given changes) must fail with OperationError and
 * leave the output buffer zeroed. */
static void expect_open_fails(const webcrypto_params *p, const webcrypto_key *k,
                              const uint8_t *ct, size_t ct_len, const char *what) {
    uint8_t out[128];
    assert_true(ct_len - 16 <= sizeof out);
    memset(out, 0xA5, sizeof out);
    size_t got = 0;
    webcrypto_status st = webcrypto_decrypt(p, k, ct, ct_len, out, sizeof out, &got);
    if (st != WEBCRYPTO_ERR_OPERATION)
        fail_msg("%s: expected OperationError, got %s (%s)", what, webcrypto_status_name(st),
                 webcrypto_error_message());
    if (!all_zero(out, ct_len - 16)) fail_msg("%s: the output buffer was not wiped", what);
}

static void test_bad_tag_and_tampering(void **state) {
    (void)state;
    const siv_vector *v = &rfc_c2[15]; /* 18 bytes, 20 bytes of AAD */
    size_t key_len, nonce_len, aad_len, pt_len, ct_len;
    uint8_t *key = tu_unhex(v->key, &key_len), *nonce = tu_unhex(v->nonce, &nonce_len);
    uint8_t *aad = tu_unhex(v->aad, &aad_len), *pt = tu_unhex(v->pt, &pt_len);
    uint8_t *ct = tu_unhex(v->result, &ct_len);
    webcrypto_key *k = import_raw(key, key_len);
    webcrypto_params p = siv_params(nonce, nonce_len, aad, aad_len);

    for (size_t i = 0; i < ct_len; i++) {
        for (unsigned bit = 0; bit < 8; bit += 7) {
            ct[i] ^= (uint8_t)(1u << bit);
            expect_open_fails(&p, k, ct, ct_len, i < pt_len ? "altered ciphertext" : "altered tag");
            ct[i] ^= (uint8_t)(1u << bit);
        }
    }
    aad[0] ^= 1;
    expect_open_fails(&p, k, ct, ct_len, "altered additional data");
    aad[0] ^= 1;
    webcrypto_params no_aad = siv_params(nonce, nonce_len, NULL, 0);
    expect_open_fails(&no_aad, k, ct, ct_len, "missing additional data");
    nonce[11] ^= 0x80;
    expect_open_fails(&p, k, ct, ct_len, "altered nonce");
    nonce[11] ^= 0x80;

    /* A different key of the same size. */
    key[0] ^= 1;
    webcrypto_key *k2 = import_raw(key, key_len);
    expect_open_fails(&p, k2, ct, ct_len, "wrong key");
    webcrypto_key_free(k2);

    /* Unchanged, it still opens. */
    uint8_t out[64];
    size_t got = 0;
    tu_assert_status(webcrypto_decrypt(&p, k, ct, ct_len, out, sizeof out, &got), WEBCRYPTO_OK);
    assert_int_equal(got, pt_len);
    assert_memory_equal(out, pt, pt_len);

    webcrypto_key_free(k);
    free(key); free(nonce); free(aad); free(pt); free(ct);
}

/* A message longer than the openssl backend's keystream batch (4096 bytes):
 * when only its first block or its tag is altered, the later batches decrypt
 * to the right bytes before the tag is checked, and must be wiped all the
 * same, out of place and in place. */
static void test_long_tampered(void **state) {
    (void)state;
    enum { LEN = 5000 };
    uint8_t key[32], nonce[12] = {7, 6, 5};
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 13 + 1);
    webcrypto_key *k = import_raw(key, sizeof key);
    webcrypto_params p = siv_params(nonce, sizeof nonce, NULL, 0);
    uint8_t *pt = malloc(LEN), *ct = malloc(LEN + 16), *out = malloc(LEN + 16);
    assert_non_null(pt);
    assert_non_null(ct);
    assert_non_null(out);
    for (size_t i = 0; i < LEN; i++) pt[i] = (uint8_t)(i * 31 + 7);
    size_t n = 0, got = 0;
    tu_assert_status(webcrypto_encrypt(&p, k, pt, LEN, ct, LEN + 16, &n), WEBCRYPTO_OK);
    assert_int_equal(n, LEN + 16);
    const size_t flip[] = {0, LEN + 15}; /* the first ciphertext byte; the tag's last */
    for (size_t f = 0; f < COUNT(flip); f++) {
        ct[flip[f]] ^= 1;
        memset(out, 0xA5, LEN + 16);
        tu_assert_status(webcrypto_decrypt(&p, k, ct, LEN + 16, out, LEN + 16, &got),
                         WEBCRYPTO_ERR_OPERATION);
        if (!all_zero(out, LEN)) fail_msg("byte %zu altered: the output was not wiped", flip[f]);
        /* in place: the ciphertext buffer is the output */
        memcpy(out, ct, LEN + 16);
        tu_assert_status(webcrypto_decrypt(&p, k, out, LEN + 16, out, LEN + 16, &got),
                         WEBCRYPTO_ERR_OPERATION);
        if (!all_zero(out, LEN))
            fail_msg("byte %zu altered, in place: the buffer was not wiped", flip[f]);
        ct[flip[f]] ^= 1;
    }
    /* Unaltered, both ways give the message back. */
    tu_assert_status(webcrypto_decrypt(&p, k, ct, LEN + 16, out, LEN + 16, &got), WEBCRYPTO_OK);
    assert_int_equal(got, LEN);
    assert_memory_equal(out, pt, LEN);
    memcpy(out, ct, LEN + 16);
    tu_assert_status(webcrypto_decrypt(&p, k, out, LEN + 16, out, LEN + 16, &got), WEBCRYPTO_OK);
    assert_memory_equal(out, pt, LEN);
    webcrypto_key_free(k);
    free(pt);
    free(ct);
    free(out);
}

static void test_short_input(void **state) {
    (void)state;
    uint8_t key[16] = {1}, nonce[12] = {3}, ct[16] = {0}, out[16];
    webcrypto_key *k = import_raw(key, sizeof key);
    webcrypto_params p = siv_params(nonce, 12, NULL, 0);
    size_t got = 0;
    for (size_t n = 0; n < 16; n++)
        tu_assert_status(webcrypto_decrypt(&p, k, n ? ct : NULL, n, out, sizeof out, &got),
                         WEBCRYPTO_ERR_OPERATION);
    /* 16 bytes is an empty message with a (here wrong) tag. */
    tu_assert_status(webcrypto_decrypt(&p, k, ct, 16, out, sizeof out, &got),
                     WEBCRYPTO_ERR_OPERATION);
    webcrypto_key_free(k);
}

static void test_key_sizes(void **state) {
    (void)state;
    uint8_t key[64] = {0};
    webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
    p.name = WEBCRYPTO_ALG_AES_GCM_SIV;
    const size_t bad[] = {0, 1, 8, 15, 17, 24, 31, 33, 64};
    for (size_t i = 0; i < COUNT(bad); i++) {
        webcrypto_key *k = NULL;
        webcrypto_status st = webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_RAW, key,
                                                   bad[i], &p, true, ENC_DEC, &k);
        if (st != WEBCRYPTO_ERR_DATA)
            fail_msg("import of a %zu-byte key: expected DataError, got %s", bad[i],
                     webcrypto_status_name(st));
        assert_null(k);
    }
    const size_t bad_bits[] = {64, 192, 255, 512};
    for (size_t i = 0; i < COUNT(bad_bits); i++) {
        webcrypto_key *k = NULL;
        p.length = bad_bits[i];
        webcrypto_status st = webcrypto_generate_key(tu_backend(), &p, true, ENC_DEC, &k);
        if (st != WEBCRYPTO_ERR_OPERATION)
            fail_msg("generate with length %zu: expected OperationError, got %s", bad_bits[i],
                     webcrypto_status_name(st));
        assert_null(k);
    }
    /* A 24-byte JWK is refused too. */
    const char *jwk192 = "{\"kty\":\"oct\",\"k\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}";
    webcrypto_key *k = NULL;
    p.length = 0;
    tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK,
                                          (const uint8_t *)jwk192, strlen(jwk192), &p, true,
                                          ENC_DEC, &k),
                     WEBCRYPTO_ERR_DATA);
    assert_null(k);
}

static void test_nonce_and_tag_params(void **state) {
    (void)state;
    uint8_t key[32] = {1}, nonce[32] = {3}, pt[8] = {0}, out[64];
    webcrypto_key *k = import_raw(key, sizeof key);
    size_t got = 0;
    const size_t bad_nonce[] = {0, 1, 8, 11, 13, 16, 32};
    for (size_t i = 0; i < COUNT(bad_nonce); i++) {
        webcrypto_params p = siv_params(bad_nonce[i] ? nonce : NULL, bad_nonce[i], NULL, 0);
        tu_assert_status(webcrypto_encrypt(&p, k, pt, sizeof pt, out, sizeof out, &got),
                         WEBCRYPTO_ERR_OPERATION);
        uint8_t ct[24] = {0};
        tu_assert_status(webcrypto_decrypt(&p, k, ct, sizeof ct, out, sizeof out, &got),
                         WEBCRYPTO_ERR_OPERATION);
    }
    webcrypto_params p = siv_params(nonce, 12, NULL, 0);
    const size_t bad_tag[] = {32, 64, 96, 120, 256};
    for (size_t i = 0; i < COUNT(bad_tag); i++) {
        p.tag_length = bad_tag[i];
        tu_assert_status(webcrypto_encrypt(&p, k, pt, sizeof pt, out, sizeof out, &got),
                         WEBCRYPTO_ERR_OPERATION);
    }
    p.tag_length = 128; /* the only tag size, and the same as leaving it 0 */
    tu_assert_status(webcrypto_encrypt(&p, k, pt, sizeof pt, out, sizeof out, &got),
                     WEBCRYPTO_OK);
    uint8_t out0[64];
    p.tag_length = 0;
    tu_assert_status(webcrypto_encrypt(&p, k, pt, sizeof pt, out0, sizeof out0, &got),
                     WEBCRYPTO_OK);
    assert_int_equal(got, sizeof pt + 16);
    assert_memory_equal(out, out0, got);
    /* Output buffer rules: a size query, then a short buffer. */
    size_t need = 0;
    tu_assert_status(webcrypto_encrypt(&p, k, pt, sizeof pt, NULL, 0, &need), WEBCRYPTO_OK);
    assert_int_equal(need, sizeof pt + 16);
    tu_assert_status(webcrypto_encrypt(&p, k, pt, sizeof pt, out, need - 1, &got),
                     WEBCRYPTO_ERR_INVALID_ARGUMENT);
    webcrypto_key_free(k);
}

/* ---- keys: generate, export, import ---- */

static void round_trip(const webcrypto_key *a, const webcrypto_key *b) {
    uint8_t nonce[12] = {9, 8, 7}, aad[5] = {1, 2, 3, 4, 5}, pt[40], ct[56], back[40];
    for (size_t i = 0; i < sizeof pt; i++) pt[i] = (uint8_t)(i * 3);
    webcrypto_params p = siv_params(nonce, sizeof nonce, aad, sizeof aad);
    size_t got = 0;
    tu_assert_status(webcrypto_encrypt(&p, a, pt, sizeof pt, ct, sizeof ct, &got), WEBCRYPTO_OK);
    assert_int_equal(got, sizeof ct);
    tu_assert_status(webcrypto_decrypt(&p, b, ct, sizeof ct, back, sizeof back, &got),
                     WEBCRYPTO_OK);
    assert_int_equal(got, sizeof pt);
    assert_memory_equal(back, pt, sizeof pt);
}

static void test_generate_export_import(void **state) {
    (void)state;
    const size_t sizes[] = {128, 256};
    for (size_t s = 0; s < COUNT(sizes); s++) {
        webcrypto_params p = WEBCRYPTO_PARAMS_INIT;
        p.name = WEBCRYPTO_ALG_AES_GCM_SIV;
        p.length = sizes[s];
        webcrypto_key *k = NULL;
        tu_assert_status(webcrypto_generate_key(tu_backend(), &p, true, ENC_DEC, &k),
                         WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_algorithm(k), WEBCRYPTO_ALG_AES_GCM_SIV);
        assert_int_equal(webcrypto_key_get_length(k), sizes[s]);

        /* raw */
        uint8_t *raw = NULL;
        size_t raw_len = 0;
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, k, &raw, &raw_len),
                         WEBCRYPTO_OK);
        assert_int_equal(raw_len, sizes[s] / 8);
        webcrypto_key *k_raw = import_raw(raw, raw_len);
        round_trip(k, k_raw);
        round_trip(k_raw, k);

        /* jwk */
        uint8_t *jwk = NULL;
        size_t jwk_len = 0;
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_JWK, k, &jwk, &jwk_len),
                         WEBCRYPTO_OK);
        char *text = malloc(jwk_len + 1);
        assert_non_null(text);
        memcpy(text, jwk, jwk_len);
        text[jwk_len] = '\0';
        const char *alg = sizes[s] == 128 ? "\"A128GCMSIV\"" : "\"A256GCMSIV\"";
        if (!strstr(text, alg)) fail_msg("exported JWK lacks alg %s: %s", alg, text);
        if (!strstr(text, "\"oct\"")) fail_msg("exported JWK lacks kty oct: %s", text);
        p.length = 0;
        webcrypto_key *k_jwk = NULL;
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK, jwk, jwk_len,
                                              &p, true, ENC_DEC, &k_jwk),
                         WEBCRYPTO_OK);
        assert_int_equal(webcrypto_key_get_length(k_jwk), sizes[s]);
        round_trip(k, k_jwk);
        round_trip(k_jwk, k);
        /* the re-imported key exports the same bytes */
        uint8_t *raw2 = NULL;
        size_t raw2_len = 0;
        tu_assert_status(webcrypto_export_key(WEBCRYPTO_FORMAT_RAW, k_jwk, &raw2, &raw2_len),
                         WEBCRYPTO_OK);
        assert_int_equal(raw2_len, raw_len);
        assert_memory_equal(raw2, raw, raw_len);

        /* A JWK whose alg names the other size is refused (DataError). */
        const char *other = sizes[s] == 128 ? "A256GCMSIV" : "A128GCMSIV";
        char *wrong = malloc(jwk_len + 8);
        assert_non_null(wrong);
        char *at = strstr(text, alg);
        size_t pre = (size_t)(at - text);
        snprintf(wrong, jwk_len + 8, "%.*s\"%s\"%s", (int)pre, text, other,
                 at + strlen(alg));
        webcrypto_key *k_bad = NULL;
        tu_assert_status(webcrypto_import_key(tu_backend(), WEBCRYPTO_FORMAT_JWK,
                                              (const uint8_t *)wrong, strlen(wrong), &p, true,
                                              ENC_DEC, &k_bad),
                         WEBCRYPTO_ERR_DATA);
        assert_null(k_bad);

        webcrypto_buffer_free(raw, raw_len);
        webcrypto_buffer_free(raw2, raw2_len);
        webcrypto_buffer_free(jwk, jwk_len);
        free(text);
        free(wrong);
        webcrypto_key_free(k);
        webcrypto_key_free(k_raw);
        webcrypto_key_free(k_jwk);
    }
}

/* Two messages under one nonce: equal plaintexts give equal outputs, and
 * different ones differ (the misuse-resistance property, not a proof). */
static void test_deterministic(void **state) {
    (void)state;
    uint8_t key[16] = {7}, nonce[12] = {0}, a[33] = {0}, b[33] = {0};
    b[32] = 1;
    webcrypto_key *k = import_raw(key, sizeof key);
    webcrypto_params p = siv_params(nonce, 12, NULL, 0);
    uint8_t ca[49], ca2[49], cb[49];
    size_t got = 0;
    tu_assert_status(webcrypto_encrypt(&p, k, a, sizeof a, ca, sizeof ca, &got), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_encrypt(&p, k, a, sizeof a, ca2, sizeof ca2, &got), WEBCRYPTO_OK);
    tu_assert_status(webcrypto_encrypt(&p, k, b, sizeof b, cb, sizeof cb, &got), WEBCRYPTO_OK);
    assert_memory_equal(ca, ca2, sizeof ca);
    /* The tag and hence the whole keystream differ: the first blocks too. */
    assert_memory_not_equal(ca, cb, 16);
    assert_memory_not_equal(ca + 33, cb + 33, 16);
    webcrypto_key_free(k);
}

int main(void) {
    const char *name = getenv("WEBCRYPTO_TEST_BACKEND");
    if (name && !*name) name = NULL;
    const webcrypto_backend *b = NULL;
    if (webcrypto_backend_get(name, &b) != WEBCRYPTO_OK) {
        printf("FAIL: backend %s unavailable: %s\n", name ? name : "(default)",
               webcrypto_error_message());
        return 1;
    }
    if (!webcrypto_backend_supports(b, WEBCRYPTO_ALG_AES_GCM_SIV)) {
        printf("SKIP: backend %s (%s) has no AES-GCM-SIV; nothing tested.\n",
               webcrypto_backend_name(b), webcrypto_backend_description(b));
        return 77;
    }
    printf("AES-GCM-SIV on backend %s (%s)\n", webcrypto_backend_name(b),
           webcrypto_backend_description(b));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc8452_c1),
        cmocka_unit_test(test_rfc8452_c2),
        cmocka_unit_test(test_rfc8452_c3_counter_wrap),
        cmocka_unit_test(test_long_messages),
        cmocka_unit_test(test_bad_tag_and_tampering),
        cmocka_unit_test(test_long_tampered),
        cmocka_unit_test(test_short_input),
        cmocka_unit_test(test_key_sizes),
        cmocka_unit_test(test_nonce_and_tag_params),
        cmocka_unit_test(test_generate_export_import),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests_name("gcm_siv", tests, NULL, NULL);
}
