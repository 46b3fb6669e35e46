# AES-GCM-SIV (RFC 8452): the public-API test on every backend (a backend
# without GCM-SIV makes it a visible skip), and POLYVAL's own test, which
# compiles the openssl backend's polyval.c directly.
webcrypto_backend_test(test_gcm_siv test_gcm_siv.c)

if(WEBCRYPTO_BACKEND_OPENSSL)
  add_executable(test_polyval test_polyval.c
                 ${PROJECT_SOURCE_DIR}/src/backends/openssl/polyval.c
                 ${PROJECT_SOURCE_DIR}/src/core/util.c)
  target_include_directories(test_polyval PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src
                             ${PROJECT_SOURCE_DIR}/src/backends/openssl)
  target_link_libraries(test_polyval PRIVATE PkgConfig::CMOCKA)
  target_compile_options(test_polyval PRIVATE ${WEBCRYPTO_WARNINGS})
  add_test(NAME polyval COMMAND test_polyval)
  set_tests_properties(polyval PROPERTIES SKIP_RETURN_CODE 77)
endif()

# The openssl backend's AES-GCM-SIV once more with each other POLYVAL forced
# (portable; the 128-bit PCLMULQDQ one, which a CPU without VPCLMULQDQ runs;
# where the CPU lacks it, the default runs again), so that each path is
# covered end to end (long messages included).
if("openssl" IN_LIST WEBCRYPTO_TEST_BACKENDS)
  foreach(_pv portable pclmulqdq)
    add_test(NAME test_gcm_siv.openssl-polyval-${_pv} COMMAND test_gcm_siv)
    set_tests_properties(test_gcm_siv.openssl-polyval-${_pv} PROPERTIES
      ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=openssl;WEBCRYPTO_POLYVAL=${_pv};WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR}"
      SKIP_RETURN_CODE 77)
  endforeach()
endif()
if(TARGET test_polyval)
  add_test(NAME polyval.forced-portable COMMAND test_polyval)
  set_tests_properties(polyval.forced-portable PROPERTIES
    ENVIRONMENT "WEBCRYPTO_POLYVAL=portable" SKIP_RETURN_CODE 77)
endif()

# Ours against OpenSSL 3.2+'s own AES-GCM-SIV and libargon2 against its own
# Argon2, byte for byte (the test runs on 3.5: tests/openssl35.cmake); on the
# system's OpenSSL 3.0, forcing OpenSSL's offers neither.
if("openssl" IN_LIST WEBCRYPTO_TEST_BACKENDS)
  add_executable(test_openssl_native test_openssl_native.c)
  target_link_libraries(test_openssl_native PRIVATE webcrypto_static)
  target_compile_options(test_openssl_native PRIVATE ${WEBCRYPTO_WARNINGS})
  add_test(NAME test_openssl_native.openssl-absent COMMAND test_openssl_native --openssl-absent)
endif()
