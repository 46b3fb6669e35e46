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
# operations, keys, threads; Wycheproof and the known answers on EVP too;
# which provider calls 3.5 gives the backend (test_provider_direct).
foreach(t test_kat test_wycheproof test_pq test_supports test_pkey test_pkey_errors
          test_errors test_jwk test_wrap test_streaming test_threads)
  webcrypto_openssl35_test(${t}.openssl35 $<TARGET_FILE:${t}>)
endforeach()
webcrypto_openssl35_test(test_provider_direct.openssl35 $<TARGET_FILE:test_provider_direct>)
foreach(t test_kat test_wycheproof test_threads test_provider_direct)
  webcrypto_openssl35_test(${t}.openssl35-evp $<TARGET_FILE:${t}>)
  set_property(TEST ${t}.openssl35-evp APPEND PROPERTY ENVIRONMENT
               "WEBCRYPTO_OPENSSL_PROVIDER_DIRECT=0")
endforeach()
# What 3.5 must offer (tests/capabilities.txt's OpenSSL 3.5 row).
webcrypto_openssl35_test(capabilities.openssl35 bash ${CMAKE_CURRENT_SOURCE_DIR}/capabilities_test.sh
                         $<TARGET_FILE:webcrypto_cli> ${CMAKE_CURRENT_SOURCE_DIR}/capabilities.txt openssl)
# Node 24's crypto.subtle as a peer (tests/interop/): every algorithm both
# have, keys, signatures, ciphertexts and secrets both ways.
webcrypto_openssl35_test(interop.node${_interop_node_major}.openssl35 bash
  ${CMAKE_CURRENT_SOURCE_DIR}/interop/interop_test.sh --node-pinned ${WEBCRYPTO_INTEROP_NODE_VERSION}
  $<TARGET_FILE:interop_peer> openssl)
set_tests_properties(interop.node${_interop_node_major}.openssl35 PROPERTIES TIMEOUT 600)
# ML-KEM-768 and ML-DSA-65 with Node 24's crypto.subtle (OpenSSL 3.5 inside
# Node too), both ways, with the ML-DSA and Ed448 contexts
# (tests/interop/pq_interop_test.sh). Node is statically linked with its own
# OpenSSL, so LD_LIBRARY_PATH reaches only the library's side.
webcrypto_openssl35_test(interop.pq-node${_interop_node_major}.openssl35 bash
  ${CMAKE_CURRENT_SOURCE_DIR}/interop/pq_interop_test.sh ${WEBCRYPTO_INTEROP_NODE_VERSION}
  $<TARGET_FILE:webcrypto_cli> openssl)
set_tests_properties(interop.pq-node${_interop_node_major}.openssl35 PROPERTIES TIMEOUT 300)
# ... and with the library's Node binding on openssl (3.5) as the JS side.
get_property(_o35_node_built GLOBAL PROPERTY WEBCRYPTO_NODE_BUILT)
if(_o35_node_built)
  webcrypto_openssl35_test(interop.pq-binding.node${_interop_node_major}.openssl35 bash
    ${CMAKE_CURRENT_SOURCE_DIR}/interop/pq_interop_test.sh --binding $<TARGET_FILE:webcrypto_node>
    ${WEBCRYPTO_INTEROP_NODE_VERSION} $<TARGET_FILE:webcrypto_cli> openssl)
  set_tests_properties(interop.pq-binding.node${_interop_node_major}.openssl35 PROPERTIES TIMEOUT 300)
endif()

# Every backend against every other on the same inputs (tests/differential.cmake),
# with openssl on 3.5: its ML-KEM and ML-DSA against the JDK's (jca, jca:SunJCE),
# on the JDK the jca tests use and on each further one (Temurin 25 here).
if(TARGET test_differential_modern)
  webcrypto_openssl35_test(differential_modern.openssl35 $<TARGET_FILE:test_differential_modern>)
  set_tests_properties(differential_modern.openssl35 PROPERTIES TIMEOUT 300)
  if(COMMAND webcrypto_jca_env AND WEBCRYPTO_JCA_JDK)
    set_property(TEST differential_modern.openssl35 APPEND PROPERTY ENVIRONMENT
                 "WEBCRYPTO_DIFF_EXTRA=jca:BC,jca:SunJCE")
    webcrypto_jca_env(differential_modern.openssl35 ${WEBCRYPTO_JCA_JDK})
    function(webcrypto_openssl35_jdks)
      foreach(jdk ${jca_extra_jdks})
        get_filename_component(jdk_name ${jdk} NAME)
        webcrypto_openssl35_test(differential_modern.openssl35@${jdk_name}
                                 $<TARGET_FILE:test_differential_modern>)
        set_tests_properties(differential_modern.openssl35@${jdk_name} PROPERTIES TIMEOUT 300)
        set_property(TEST differential_modern.openssl35@${jdk_name} APPEND PROPERTY ENVIRONMENT
                     "WEBCRYPTO_DIFF_EXTRA=jca:BC,jca:SunJCE")
        webcrypto_jca_env(differential_modern.openssl35@${jdk_name} ${jdk})
      endforeach()
    endfunction()
    cmake_language(DEFER DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} CALL webcrypto_openssl35_jdks)
  endif()
endif()

# The other way: the library built against 3.5's headers and library
# (-DWEBCRYPTO_OPENSSL_ROOT), library and CLI only, in a scratch directory (a
# release build of its own: not repeated by the sanitizer build's suite).
if(NOT WEBCRYPTO_SANITIZE)
  webcrypto_openssl35_test(build.openssl35-headers bash
                           ${CMAKE_CURRENT_SOURCE_DIR}/openssl35_build_test.sh ${PROJECT_SOURCE_DIR})
  set_tests_properties(build.openssl35-headers PROPERTIES TIMEOUT 900)
endif()

# The Node binding on 3.5 (tests/node.cmake), on the pinned Node 24: its
# differential test against Node's own crypto.subtle, the hostile-JavaScript
# test, and the WPT WebCryptoAPI suite compared with Node's own.
get_property(_o35_node_built GLOBAL PROPERTY WEBCRYPTO_NODE_BUILT)
if(_o35_node_built)
  foreach(script differential hostile)
    webcrypto_openssl35_test(node.${script}.node${_wc_node_major}.openssl35 bash ${_wc_node_run}
      --node-pinned ${_wc_node_pinned} $<TARGET_FILE:webcrypto_node> ${script}.js openssl)
    set_tests_properties(node.${script}.node${_wc_node_major}.openssl35 PROPERTIES TIMEOUT 300)
  endforeach()
  set(_o35_wpt "${WEBCRYPTO_WPT_DIR}")
  if(NOT _o35_wpt)
    set(_o35_wpt -) # ctest.sh: $WEBCRYPTO_WPT_DIR at test time (an empty argument would vanish)
  endif()
  webcrypto_openssl35_test(node.wpt.node${_wc_node_major}.openssl35 bash
    ${PROJECT_SOURCE_DIR}/bindings/node/test/wpt/ctest.sh ${_o35_wpt}
    --node-pinned ${_wc_node_pinned} $<TARGET_FILE:webcrypto_node> openssl)
  set_tests_properties(node.wpt.node${_wc_node_major}.openssl35 PROPERTIES TIMEOUT 3600 LABELS wpt)
  set_property(TEST node.wpt.node${_wc_node_major}.openssl35 APPEND PROPERTY ENVIRONMENT
               "WEBCRYPTO_WPT_NATIVE_CACHE=${CMAKE_BINARY_DIR}/wpt-native")
endif()


# AES-GCM-SIV and Argon2: the openssl backend's own construction and
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
