# The openssl backend on OpenSSL 3.5 (issue #27): the same build, run with
# OpenSSL 3.5's libcrypto (tools/fetch-openssl.sh's cached build) through
# tests/openssl35_run.sh, which skips saying why without it (and fails under
# CI=true) and checks that the backend is on 3.5 before the test runs.
#
# webcrypto_openssl35_test(NAME COMMAND [ARGS...]): the test NAME running
# COMMAND on 3.5 with the openssl backend named in WEBCRYPTO_TEST_BACKEND and
# the usual test environment; further properties may be set on NAME after.
if(NOT "openssl" IN_LIST WEBCRYPTO_TEST_BACKENDS OR NOT WEBCRYPTO_BUILD_CLI)
  return()
endif()
function(webcrypto_openssl35_test name)
  add_test(NAME ${name}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/openssl35_run.sh ${PROJECT_SOURCE_DIR}
                   $<TARGET_FILE:webcrypto_cli> ${ARGN})
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77
    ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=openssl;${WEBCRYPTO_TEST_WYCHEPROOF_ENV};WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}")
endfunction()

# The openssl suite: known answers, Wycheproof, ML-KEM and ML-DSA (test_pq,
# with the Wycheproof ML-KEM and ML-DSA files), supports() against the
# operations, keys, threads; Wycheproof and the known answers on EVP too.
foreach(t test_kat test_wycheproof test_pq test_supports test_pkey test_pkey_errors
          test_errors test_jwk test_wrap test_streaming test_threads)
  webcrypto_openssl35_test(${t}.openssl35 $<TARGET_FILE:${t}>)
endforeach()
foreach(t test_kat test_wycheproof test_threads)
  webcrypto_openssl35_test(${t}.openssl35-evp $<TARGET_FILE:${t}>)
  set_property(TEST ${t}.openssl35-evp APPEND PROPERTY ENVIRONMENT
               "WEBCRYPTO_OPENSSL_PROVIDER_DIRECT=0")
endforeach()
# What 3.5 must offer (tests/capabilities.txt's OpenSSL 3.5 row).
webcrypto_openssl35_test(capabilities.openssl35 bash ${CMAKE_CURRENT_SOURCE_DIR}/capabilities_test.sh
                         $<TARGET_FILE:webcrypto_cli> ${CMAKE_CURRENT_SOURCE_DIR}/capabilities.txt openssl)

# AES-GCM-SIV and Argon2 (H2): the openssl backend's own construction and
# libargon2 against OpenSSL's cipher and KDFs, byte for byte; and their tests
# through OpenSSL's, which the default does not take where the build has its
# own (test_*.openssl35 below).
webcrypto_openssl35_test(test_openssl_native.openssl35 $<TARGET_FILE:test_openssl_native>)
foreach(t test_gcm_siv test_aead_argon2)
  webcrypto_openssl35_test(${t}.openssl35 $<TARGET_FILE:${t}>)
endforeach()
# openssl_offers.sh fails the run, rather than let the test skip, when the
# forced implementation offers nothing.
webcrypto_openssl35_test(test_gcm_siv.openssl35-openssl-siv bash ${CMAKE_CURRENT_SOURCE_DIR}/openssl_offers.sh
                         $<TARGET_FILE:webcrypto_cli> AES-GCM-SIV -- $<TARGET_FILE:test_gcm_siv>)
set_property(TEST test_gcm_siv.openssl35-openssl-siv APPEND PROPERTY ENVIRONMENT
             "WEBCRYPTO_OPENSSL_GCM_SIV=openssl")
webcrypto_openssl35_test(test_aead_argon2.openssl35-openssl-argon2 bash
                         ${CMAKE_CURRENT_SOURCE_DIR}/openssl_offers.sh $<TARGET_FILE:webcrypto_cli>
                         Argon2d Argon2i Argon2id -- $<TARGET_FILE:test_aead_argon2>)
set_property(TEST test_aead_argon2.openssl35-openssl-argon2 APPEND PROPERTY ENVIRONMENT
             "WEBCRYPTO_OPENSSL_ARGON2=openssl")
# Wycheproof's AES-GCM-SIV vectors through OpenSSL's cipher (the rest of the
# run repeats test_wycheproof.openssl35, so PBKDF2's costly cases are capped).
webcrypto_openssl35_test(test_wycheproof.openssl35-openssl-siv bash
                         ${CMAKE_CURRENT_SOURCE_DIR}/openssl_offers.sh $<TARGET_FILE:webcrypto_cli>
                         AES-GCM-SIV -- $<TARGET_FILE:test_wycheproof>)
set_property(TEST test_wycheproof.openssl35-openssl-siv APPEND PROPERTY ENVIRONMENT
             "WEBCRYPTO_OPENSSL_GCM_SIV=openssl" "WEBCRYPTO_PBKDF2_MAX_ITERATIONS=1000")
