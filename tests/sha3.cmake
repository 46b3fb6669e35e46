# SHA-3 as the hash of the keyed algorithms, KMAC's keys and parameters and
# cSHAKE's parameters, on every backend (a backend without them: a visible
# skip). Known answers: test_kat; Wycheproof: test_wycheproof.
webcrypto_backend_test(test_sha3 test_sha3.c)

# On every further JDK the jca tests run on (tests/jca.cmake: Temurin 25
# beside JDK 17 here), as the other jca tests: test_sha3.<variant>@<jdk>,
# in that JDK's environment (a test that cannot start its JVM exits 77, a
# visible skip). Deferred, as jca.cmake's own extra-JDK tests, so that
# jca.cmake's list of JDKs is known whichever file is included first.
function(webcrypto_sha3_extra_jdk_tests)
  get_property(jdk_primary GLOBAL PROPERTY WEBCRYPTO_JCA_JDK)
  if(NOT jdk_primary OR NOT DEFINED jca_extra_jdks)
    return() # no jca backend, or jca.cmake did not run
  endif()
  foreach(jdk ${jca_extra_jdks})
    get_filename_component(jdk_name ${jdk} NAME)
    foreach(b ${WEBCRYPTO_TEST_BACKENDS})
      if(NOT b MATCHES "^jca(:|$)")
        continue()
      endif()
      string(REPLACE ":" "-" tb ${b})
      add_test(NAME test_sha3.${tb}@${jdk_name} COMMAND test_sha3)
      set_tests_properties(test_sha3.${tb}@${jdk_name} PROPERTIES
        ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=${b};${jca_common_env};${WEBCRYPTO_TEST_ENVIRONMENT}"
        SKIP_RETURN_CODE 77)
      webcrypto_jca_env(test_sha3.${tb}@${jdk_name} ${jdk})
    endforeach()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} CALL webcrypto_sha3_extra_jdk_tests)
