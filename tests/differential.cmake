# The cross-backend differential test: registered once (not per backend); it
# compares every pair of backends built in, plus the jca variants when the
# jca backend is built ($WEBCRYPTO_DIFF_EXTRA; set it by hand to add others).
# Exits 77 (skip) with fewer than two backends.
add_library(webcrypto_differential_common STATIC differential_common.c)
target_link_libraries(webcrypto_differential_common PUBLIC webcrypto_static)
target_compile_options(webcrypto_differential_common PRIVATE ${WEBCRYPTO_WARNINGS})
add_executable(test_differential test_differential.c differential_errors.c)
target_link_libraries(test_differential PRIVATE webcrypto_differential_common)
target_compile_options(test_differential PRIVATE ${WEBCRYPTO_WARNINGS})
add_test(NAME differential COMMAND test_differential)
set_tests_properties(differential PROPERTIES
  ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}"
  SKIP_RETURN_CODE 77 TIMEOUT 900)
# With the jca backend built in, this process starts a JVM: it gets the same
# environment as the jca tests (tests/jca.cmake explains each part: the JDK,
# the JVM's signal chaining, ASan options the JVM needs, no leak report for
# the never-destroyed JVM). The jca skip rule is not applied: a JVM that
# cannot start only removes jca from the pairs, which the output says.
# Leak checking of the openssl/boringssl pair stays in boringssl_isolation.
get_property(_diff_jdk GLOBAL PROPERTY WEBCRYPTO_JCA_JDK)
if(_diff_jdk)
  set_property(TEST differential APPEND PROPERTY ENVIRONMENT
    "WEBCRYPTO_DIFF_EXTRA=jca:BC,jca:SunJCE"
    "JAVA_HOME=${_diff_jdk}"
    "LD_PRELOAD=${_diff_jdk}/lib/libjsig.so"
    "ASAN_OPTIONS=handle_segv=0:allow_user_segv_handler=1:detect_leaks=0:verify_asan_link_order=0:abort_on_error=1")
endif()

# The same for the algorithms the drafts added in 0.3 (Ed448, X448, ML-KEM,
# ML-DSA, cSHAKE, KMAC, ChaCha20-Poly1305, AES-OCB, Argon2), with the same
# backends and jca variants in the same JVM environment; and once more on
# every further JDK the jca tests run on (tests/jca.cmake; Temurin 25 here),
# as differential_modern@<jdk>, where the JDK's own ML-KEM and ML-DSA are
# compared. An algorithm fewer than two backends list is a skip it prints.
add_executable(test_differential_modern test_differential_modern.c)
target_link_libraries(test_differential_modern PRIVATE webcrypto_differential_common)
target_compile_options(test_differential_modern PRIVATE ${WEBCRYPTO_WARNINGS})
add_test(NAME differential_modern COMMAND test_differential_modern)
set_tests_properties(differential_modern PROPERTIES
  ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}"
  SKIP_RETURN_CODE 77 TIMEOUT 300)
if(_diff_jdk)
  set_property(TEST differential_modern APPEND PROPERTY ENVIRONMENT
    "WEBCRYPTO_DIFF_EXTRA=jca:BC,jca:SunJCE"
    "JAVA_HOME=${_diff_jdk}"
    "LD_PRELOAD=${_diff_jdk}/lib/libjsig.so"
    "ASAN_OPTIONS=handle_segv=0:allow_user_segv_handler=1:detect_leaks=0:verify_asan_link_order=0:abort_on_error=1")
  # Deferred: jca.cmake's list of further JDKs (jca_extra_jdks) and its
  # webcrypto_jca_env, which also pins the Java version the run must find.
  function(webcrypto_differential_modern_jdks)
    if(NOT DEFINED jca_extra_jdks)
      return()
    endif()
    foreach(jdk ${jca_extra_jdks})
      get_filename_component(jdk_name ${jdk} NAME)
      add_test(NAME differential_modern@${jdk_name} COMMAND test_differential_modern)
      set_tests_properties(differential_modern@${jdk_name} PROPERTIES
        ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};WEBCRYPTO_DIFF_EXTRA=jca:BC,jca:SunJCE;${WEBCRYPTO_TEST_ENVIRONMENT}"
        SKIP_RETURN_CODE 77 TIMEOUT 300)
      webcrypto_jca_env(differential_modern@${jdk_name} ${jdk})
    endforeach()
  endfunction()
  cmake_language(DEFER DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} CALL webcrypto_differential_modern_jdks)
endif()
