# AES-GCM with IVs that are not 96 bits: the GCM specification's vectors and
# known answers from an independent GHASH (tests/test_gcm_longiv.c), on
# every backend (one without AES-GCM makes it a visible skip).
webcrypto_backend_test(test_gcm_longiv test_gcm_longiv.c)
# The openssl backend's other AES-GCM path (EVP), as test_kat has it.
if("openssl" IN_LIST WEBCRYPTO_TEST_BACKENDS)
  add_test(NAME test_gcm_longiv.openssl-evp COMMAND test_gcm_longiv)
  set_tests_properties(test_gcm_longiv.openssl-evp PROPERTIES
    ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=openssl;WEBCRYPTO_OPENSSL_PROVIDER_DIRECT=0;WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR}"
    SKIP_RETURN_CODE 77)
endif()
