# fork() and exit() while other threads use the library (docs/ROBUSTNESS.md,
# "fork and exit"): per backend, a busy process forking 200 times (20 on
# jca, whose child is refused at once), and 60 processes (8 on jca, each
# starts a JVM) calling exit(0) under busy threads.
add_executable(test_process test_process.c)
target_link_libraries(test_process PRIVATE webcrypto_testutil Threads::Threads)
target_compile_options(test_process PRIVATE ${WEBCRYPTO_WARNINGS})
foreach(b ${WEBCRYPTO_TEST_BACKENDS})
  string(REPLACE ":" "-" tb ${b})
  foreach(mode fork exit)
    add_test(NAME test_process_${mode}.${tb} COMMAND test_process ${mode})
    set_tests_properties(test_process_${mode}.${tb} PROPERTIES
      ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=${b};WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}"
      SKIP_RETURN_CODE 77 TIMEOUT 120)
  endforeach()
endforeach()

# The jca backend's Java-array limit on data a Java engine keeps whole
# (AES-GCM additional data, Ed25519 and ML-DSA messages): refused at once.
webcrypto_backend_test(test_jca_limits test_jca_limits.c)

# HKDF leaves no copy of its PRK on the stack (RFC 5869 test case 1).
webcrypto_backend_test(test_hkdf_residue test_hkdf_residue.c)
target_link_libraries(test_hkdf_residue PRIVATE Threads::Threads)

# A child forked while a thread hands a JavaVM over is not left with the
# core's record of it locked (src/core/jvm.c). Needs no JVM; jca's label.
get_property(jvm_fork_backends GLOBAL PROPERTY WEBCRYPTO_BUILT_BACKENDS)
if("jca" IN_LIST jvm_fork_backends)
  add_executable(test_jvm_fork test_jvm_fork.c)
  target_link_libraries(test_jvm_fork PRIVATE webcrypto_static Threads::Threads)
  target_compile_options(test_jvm_fork PRIVATE ${WEBCRYPTO_WARNINGS})
  add_test(NAME test_jvm_fork.jca COMMAND test_jvm_fork)
  set_tests_properties(test_jvm_fork.jca PROPERTIES TIMEOUT 120)
endif()
