# The jca backend's tests: the environment every jca test needs, a run of
# test_kat under -Xcheck:jni, runs on other JDKs, and the multi-threaded
# stress test. Included by tests/CMakeLists.txt.
get_property(WEBCRYPTO_JCA_JDK GLOBAL PROPERTY WEBCRYPTO_JCA_JDK)
if(NOT WEBCRYPTO_JCA_JDK)
  return() # the jca backend is not built
endif()

# Extra JDKs test_kat and test_wycheproof also run on (a JDK 25 takes the
# javax.crypto.KDF path for HKDF).
set(WEBCRYPTO_JCA_TEST_JDKS "" CACHE STRING
    "Further JAVA_HOMEs the jca tests run on (default: /usr/lib/jvm/temurin-25-jdk-amd64 if present)")
set(jca_extra_jdks ${WEBCRYPTO_JCA_TEST_JDKS})
if(NOT jca_extra_jdks AND EXISTS /usr/lib/jvm/temurin-25-jdk-amd64/lib/server/libjvm.so)
  set(jca_extra_jdks /usr/lib/jvm/temurin-25-jdk-amd64)
endif()

# The environment of a jca test on the JDK at `jdk`:
#  - JAVA_HOME: which libjvm the backend loads, fixed so results do not
#    depend on the caller's environment.
#  - LD_PRELOAD=libjsig.so: the JVM handles SIGSEGV itself (safepoint polls,
#    implicit null checks). cmocka installs its own SIGSEGV handler around
#    every test, which would replace the JVM's and turn those into test
#    crashes; the JDK's signal-chaining library keeps the JVM's handler
#    installed and chains the program's behind it (the documented way to
#    mix native handlers with a JVM).
#  - ASAN_OPTIONS (sanitizer builds): the JVM's own SIGSEGV use needs
#    handle_segv=0 and allow_user_segv_handler=1; LeakSanitizer would report
#    the JVM's never-freed allocations (it is never destroyed), so
#    detect_leaks=0 here, while every other test keeps leak checking; libjsig
#    is preloaded ahead of the ASan runtime, hence verify_asan_link_order=0.
#  - The skip rule: if no JVM can start (no JDK), the backend says so and the
#    test is reported as skipped with that reason, never as passed.
function(webcrypto_jca_env test jdk)
  set_property(GLOBAL APPEND PROPERTY WEBCRYPTO_JCA_ENV_DONE ${test})
  set_tests_properties(${test} PROPERTIES
    SKIP_REGULAR_EXPRESSION "jca: no Java VM could be started|jca: provider BC is not available")
  set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
    "JAVA_HOME=${jdk}"
    "LD_PRELOAD=${jdk}/lib/libjsig.so"
    "ASAN_OPTIONS=handle_segv=0:allow_user_segv_handler=1:detect_leaks=0:verify_asan_link_order=0:abort_on_error=1")
endfunction()

# Every test of the suite registered for a jca variant (<test>.jca,
# <test>.jca-BC, <test>.jca-SunJCE), including those other areas' .cmake
# files add after this one: applied once the tests folder is complete.
function(webcrypto_jca_env_all)
  get_property(tests DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTY TESTS)
  get_property(done GLOBAL PROPERTY WEBCRYPTO_JCA_ENV_DONE)
  foreach(t ${tests})
    # Also the tests that start every backend, the JVM included (the CLI's
    # `backends`, the bench smoke run).
    if(t MATCHES "\\.jca(-[A-Za-z0-9]+)?$" OR t MATCHES "^(cli|bench_smoke)$")
      list(FIND done ${t} i)
      if(i EQUAL -1)
        webcrypto_jca_env(${t} ${WEBCRYPTO_JCA_JDK})
      endif()
    endif()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} CALL webcrypto_jca_env_all)

set(jca_common_env
  ${WEBCRYPTO_TEST_WYCHEPROOF_ENV}
  "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR}")

# test_kat, test_pkey and test_pkey_errors (the asymmetric paths, their
# error and invalid-signature branches included) on jca under -Xcheck:jni:
# any JNI misuse the JVM detects (an exception not checked, a JNI call with
# one pending, a local reference overflowing its frame) prints "WARNING",
# which fails the test. (Not under ASan: see above.)
# Deferred: test_pkey's targets are defined by pkey.cmake, after this file.
function(webcrypto_jca_checkjni_tests)
  foreach(b jca jca:BC)
    string(REPLACE ":" "-" tb ${b})
    foreach(t test_kat test_pkey test_pkey_errors)
      if(NOT TARGET ${t})
        continue()
      endif()
      add_test(NAME ${t}.${tb}-checkjni COMMAND ${t})
      set_tests_properties(${t}.${tb}-checkjni PROPERTIES
        ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=${b};WEBCRYPTO_JCA_OPTIONS=-Xcheck:jni;${jca_common_env}"
        FAIL_REGULAR_EXPRESSION "WARNING" SKIP_RETURN_CODE 77)
      webcrypto_jca_env(${t}.${tb}-checkjni ${WEBCRYPTO_JCA_JDK})
    endforeach()
  endforeach()
endfunction()
if(NOT WEBCRYPTO_SANITIZE)
  cmake_language(DEFER DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} CALL webcrypto_jca_checkjni_tests)
endif()

# The same tests on the further JDKs.
foreach(jdk ${jca_extra_jdks})
  get_filename_component(jdk_name ${jdk} NAME)
  foreach(t test_kat test_wycheproof)
    foreach(b jca jca:SunJCE jca:BC)
      string(REPLACE ":" "-" tb ${b})
      add_test(NAME ${t}.${tb}@${jdk_name} COMMAND ${t})
      set_tests_properties(${t}.${tb}@${jdk_name} PROPERTIES
        ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=${b};${jca_common_env}" SKIP_RETURN_CODE 77)
      webcrypto_jca_env(${t}.${tb}@${jdk_name} ${jdk})
    endforeach()
  endforeach()
endforeach()

# Several threads, every algorithm, 0 B .. 3 MiB, checked against openssl;
# also under -Xcheck:jni, which warns if local references pile up.
add_executable(test_jca_stress test_jca_stress.c)
target_include_directories(test_jca_stress PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_jca_stress PRIVATE webcrypto_static Threads::Threads)
target_compile_options(test_jca_stress PRIVATE ${WEBCRYPTO_WARNINGS})
foreach(b jca jca:BC)
  string(REPLACE ":" "-" tb ${b})
  add_test(NAME test_jca_stress.${tb} COMMAND test_jca_stress)
  set_tests_properties(test_jca_stress.${tb} PROPERTIES
    ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=${b};${jca_common_env}" SKIP_RETURN_CODE 77 TIMEOUT 300)
  webcrypto_jca_env(test_jca_stress.${tb} ${WEBCRYPTO_JCA_JDK})
endforeach()
if(NOT WEBCRYPTO_SANITIZE)
  add_test(NAME test_jca_stress.jca-checkjni COMMAND test_jca_stress)
  set_tests_properties(test_jca_stress.jca-checkjni PROPERTIES
    ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=jca;WEBCRYPTO_JCA_OPTIONS=-Xcheck:jni;${jca_common_env}"
    SKIP_RETURN_CODE 77 TIMEOUT 300 FAIL_REGULAR_EXPRESSION "WARNING")
  webcrypto_jca_env(test_jca_stress.jca-checkjni ${WEBCRYPTO_JCA_JDK})
endif()

# The backend's SipHash-2-4 (key-reuse bookkeeping) against published vectors.
add_executable(test_jca_siphash test_jca_siphash.c)
target_link_libraries(test_jca_siphash PRIVATE webcrypto_testutil)
target_compile_options(test_jca_siphash PRIVATE ${WEBCRYPTO_WARNINGS})
add_test(NAME jca_siphash COMMAND test_jca_siphash)
