# The jca backend's tests: the environment every jca test needs, runs under
# -Xcheck:jni, runs on every JDK found, and the multi-threaded stress test. Included by tests/CMakeLists.txt.
get_property(WEBCRYPTO_JCA_JDK GLOBAL PROPERTY WEBCRYPTO_JCA_JDK)
if(NOT WEBCRYPTO_JCA_JDK)
  return() # the jca backend is not built
endif()

# The JDKs the jca tests run on: the primary one (the backend's build JDK,
# chosen explicitly in src/backends/jca/CMakeLists.txt; CI's JDK 17), then
# every other JDK found under /usr/lib/jvm (a directory with
# lib/server/libjvm.so, symlinks folded by real path), or the list given in
# WEBCRYPTO_JCA_TEST_JDKS (OFF: none). Tests on a further JDK are named
# <test>.<variant>@<jdk directory>; the primary JDK's keep the plain name
# <test>.<variant>. Every jca test prints the JVM it ran on and fails if it
# is not the version of the JDK it was registered for
# (WEBCRYPTO_TEST_JAVA_VERSION, from the JDK's release file), so a JAVA_HOME
# that does not take effect cannot pass unnoticed.
set(WEBCRYPTO_JCA_TEST_JDKS "" CACHE STRING
    "Further JAVA_HOMEs the jca tests run on (default: every other JDK under /usr/lib/jvm; OFF: none)")

# out = the Java version of the JDK at jdk (JAVA_VERSION in its release
# file), empty if it has none.
# The release file is a configure dependency: after a JDK package update the
# next build re-runs configure and the tests expect the new version.
function(webcrypto_jdk_version jdk out)
  set(v "")
  if(EXISTS "${jdk}/release")
    set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
      "${jdk}/release")
    file(STRINGS "${jdk}/release" line REGEX "^JAVA_VERSION=")
    string(REGEX REPLACE "^JAVA_VERSION=\"?([^\"]*)\"?$" "\\1" v "${line}")
  endif()
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

webcrypto_jdk_version(${WEBCRYPTO_JCA_JDK} jca_primary_version)
if(NOT jca_primary_version)
  message(FATAL_ERROR "jca tests: no JAVA_VERSION in ${WEBCRYPTO_JCA_JDK}/release: cannot tell "
          "which Java the tests must run on")
endif()
file(REAL_PATH "${WEBCRYPTO_JCA_JDK}" jca_primary_real)
set(jca_extra_jdks "")
if(WEBCRYPTO_JCA_TEST_JDKS STREQUAL "OFF")
  set(jca_candidates "")
elseif(WEBCRYPTO_JCA_TEST_JDKS)
  set(jca_candidates ${WEBCRYPTO_JCA_TEST_JDKS})
else()
  file(GLOB jca_candidates LIST_DIRECTORIES true /usr/lib/jvm/*)
endif()
set(jca_seen "${jca_primary_real}")
foreach(jdk ${jca_candidates})
  if(NOT EXISTS "${jdk}/lib/server/libjvm.so")
    if(WEBCRYPTO_JCA_TEST_JDKS)
      message(FATAL_ERROR "WEBCRYPTO_JCA_TEST_JDKS: ${jdk} has no lib/server/libjvm.so")
    endif()
    continue()
  endif()
  file(REAL_PATH "${jdk}" real)
  list(FIND jca_seen "${real}" i)
  if(NOT i EQUAL -1)
    continue()
  endif()
  list(APPEND jca_seen "${real}")
  webcrypto_jdk_version(${real} v)
  if(NOT v)
    message(WARNING "jca tests: ${real} has no JAVA_VERSION in its release file; not tested on")
    continue()
  endif()
  list(APPEND jca_extra_jdks "${real}")
endforeach()
set(jca_jdk_summary "${WEBCRYPTO_JCA_JDK} (Java ${jca_primary_version})")
foreach(jdk ${jca_extra_jdks})
  webcrypto_jdk_version(${jdk} v)
  string(APPEND jca_jdk_summary ", ${jdk} (Java ${v})")
endforeach()
message(STATUS "jca tests run on: ${jca_jdk_summary}")

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
#  - The skip rule: exit code 77 only (no output pattern, which one stray
#    line could match). A cmocka test exits 77 itself where no libjvm or no
#    BouncyCastle is installed (tests/testutil.c's tu_backend), saying so,
#    and never under CI=true.
#  - WEBCRYPTO_TEST_JAVA_VERSION: the version the test must find itself on
#    (tests/testutil.c's tu_java_check), and a label jdk=<directory name>.
function(webcrypto_jca_env test jdk)
  set_property(GLOBAL APPEND PROPERTY WEBCRYPTO_JCA_ENV_DONE ${test})
  webcrypto_jdk_version(${jdk} version)
  get_filename_component(jdk_name ${jdk} NAME)
  set_property(TEST ${test} APPEND PROPERTY LABELS "jdk=${jdk_name}")
  set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
    "WEBCRYPTO_TEST_JAVA_VERSION=${version}"
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
# which fails the test. Also in sanitizer builds (the ASan options of
# webcrypto_jca_env let the JVM keep its signal handlers there).
# Deferred: test_pkey's targets are defined by pkey.cmake, after this file.
function(webcrypto_jca_checkjni_tests)
  foreach(b jca jca:BC)
    string(REPLACE ":" "-" tb ${b})
    foreach(t test_kat test_pkey test_pkey_errors test_pq)
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
cmake_language(DEFER DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} CALL webcrypto_jca_checkjni_tests)

# The backend tests of every jca variant, and the stress test, on each
# further JDK. Deferred: test_pkey's targets are defined by pkey.cmake, after
# this file.
function(webcrypto_jca_extra_jdk_tests)
  foreach(jdk ${jca_extra_jdks})
    get_filename_component(jdk_name ${jdk} NAME)
    foreach(t test_kat test_errors test_jwk test_streaming test_wrap test_threads test_wycheproof
              test_pkey test_pkey_errors test_gcm_siv test_pq)
      if(NOT TARGET ${t})
        continue()
      endif()
      foreach(b ${WEBCRYPTO_TEST_BACKENDS})
        if(NOT b MATCHES "^jca(:|$)")
          continue()
        endif()
        string(REPLACE ":" "-" tb ${b})
        add_test(NAME ${t}.${tb}@${jdk_name} COMMAND ${t})
        set_tests_properties(${t}.${tb}@${jdk_name} PROPERTIES
          ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=${b};${jca_common_env};${WEBCRYPTO_TEST_ENVIRONMENT}"
          SKIP_RETURN_CODE 77)
        webcrypto_jca_env(${t}.${tb}@${jdk_name} ${jdk})
      endforeach()
    endforeach()
    # The pinned capabilities (tests/capabilities.txt) on this JDK too.
    if(TARGET webcrypto_cli)
      foreach(b ${WEBCRYPTO_TEST_BACKENDS})
        if(NOT b MATCHES "^jca(:|$)")
          continue()
        endif()
        string(REPLACE ":" "-" tb ${b})
        add_test(NAME capabilities.${tb}@${jdk_name} COMMAND bash
                 ${CMAKE_CURRENT_SOURCE_DIR}/capabilities_test.sh $<TARGET_FILE:webcrypto_cli>
                 ${CMAKE_CURRENT_SOURCE_DIR}/capabilities.txt ${b})
        set_tests_properties(capabilities.${tb}@${jdk_name} PROPERTIES
          ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR}")
        webcrypto_jca_env(capabilities.${tb}@${jdk_name} ${jdk})
      endforeach()
    endif()
    foreach(b jca jca:BC)
      string(REPLACE ":" "-" tb ${b})
      add_test(NAME test_jca_stress.${tb}@${jdk_name} COMMAND test_jca_stress)
      set_tests_properties(test_jca_stress.${tb}@${jdk_name} PROPERTIES
        ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=${b};${jca_common_env}" SKIP_RETURN_CODE 77 TIMEOUT 300)
      webcrypto_jca_env(test_jca_stress.${tb}@${jdk_name} ${jdk})
    endforeach()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} CALL webcrypto_jca_extra_jdk_tests)

# Several threads, every algorithm, 0 B .. 3 MiB, checked against openssl;
# also under -Xcheck:jni, which warns if local references pile up.
add_executable(test_jca_stress test_jca_stress.c)
target_include_directories(test_jca_stress PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_jca_stress PRIVATE webcrypto_testutil Threads::Threads)
target_compile_options(test_jca_stress PRIVATE ${WEBCRYPTO_WARNINGS})
foreach(b jca jca:BC)
  string(REPLACE ":" "-" tb ${b})
  add_test(NAME test_jca_stress.${tb} COMMAND test_jca_stress)
  set_tests_properties(test_jca_stress.${tb} PROPERTIES
    ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=${b};${jca_common_env}" SKIP_RETURN_CODE 77 TIMEOUT 300)
  webcrypto_jca_env(test_jca_stress.${tb} ${WEBCRYPTO_JCA_JDK})
endforeach()
add_test(NAME test_jca_stress.jca-checkjni COMMAND test_jca_stress)
set_tests_properties(test_jca_stress.jca-checkjni PROPERTIES
  ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=jca;WEBCRYPTO_JCA_OPTIONS=-Xcheck:jni;${jca_common_env}"
  SKIP_RETURN_CODE 77 TIMEOUT 300 FAIL_REGULAR_EXPRESSION "WARNING")
webcrypto_jca_env(test_jca_stress.jca-checkjni ${WEBCRYPTO_JCA_JDK})

# AES-GCM encryption with its JCA calls made from C, as where the backend's
# WebcryptoAead class cannot be defined (Android): WEBCRYPTO_JCA_AEAD_HELPER=0.
# (Without it, messages over 256 KiB take that path too: test_jca_stress.)
foreach(t test_kat test_wycheproof)
  add_test(NAME ${t}.jca-nohelper COMMAND ${t})
  set_tests_properties(${t}.jca-nohelper PROPERTIES LABELS "jca"
    ENVIRONMENT "WEBCRYPTO_TEST_BACKEND=jca;WEBCRYPTO_JCA_AEAD_HELPER=0;${jca_common_env}"
    SKIP_RETURN_CODE 77)
  webcrypto_jca_env(${t}.jca-nohelper ${WEBCRYPTO_JCA_JDK})
endforeach()

# The backend's SipHash-2-4 (key-reuse bookkeeping) against published vectors.
add_executable(test_jca_siphash test_jca_siphash.c)
target_link_libraries(test_jca_siphash PRIVATE webcrypto_testutil)
target_compile_options(test_jca_siphash PRIVATE ${WEBCRYPTO_WARNINGS})
add_test(NAME jca_siphash COMMAND test_jca_siphash)

# The Java-hosted test: java starts a test class that loads libwebcrypto
# through a JNI library, as an Android app does (tests/java_host).
include(${CMAKE_CURRENT_SOURCE_DIR}/java_host/java_host.cmake)
