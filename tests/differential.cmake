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
