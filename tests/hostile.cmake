# Hostile inputs (docs/ROBUSTNESS.md): test_hostile per backend; the same
# program with WEBCRYPTO_TEST_SLOW=1 adds the cases over 2^32 bytes, which
# hash 4 GiB several times, under the label "slow" (ctest -L slow; excluded
# with -LE slow).
webcrypto_backend_test(test_hostile test_hostile.c)
foreach(b ${WEBCRYPTO_TEST_BACKENDS})
  string(REPLACE ":" "-" tb ${b})
  add_test(NAME test_hostile_slow.${tb} COMMAND test_hostile)
  set_tests_properties(test_hostile_slow.${tb} PROPERTIES
    ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=${b};WEBCRYPTO_TEST_SLOW=1;WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}"
    LABELS slow SKIP_RETURN_CODE 77 RUN_SERIAL TRUE)
endforeach()

# The command under hostile conditions (closed descriptors, device nodes made
# with mknod in a temporary directory, signals, oversized key files).
if(WEBCRYPTO_BUILD_CLI)
  add_test(NAME cli_hostile COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli_hostile_test.sh $<TARGET_FILE:webcrypto_cli>)
  set_tests_properties(cli_hostile PROPERTIES SKIP_RETURN_CODE 77
    ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}")
  # It starts the JVM (jca checks): the environment tests/jca.cmake gives
  # such tests (libjsig, the sanitizer options a JVM needs).
  if(COMMAND webcrypto_jca_env AND WEBCRYPTO_JCA_JDK)
    webcrypto_jca_env(cli_hostile ${WEBCRYPTO_JCA_JDK})
  endif()
endif()
