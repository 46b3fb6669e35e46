# The Java-hosted test (the Android path rehearsed on the desktop JVM): the
# `java` launcher starts JavaHostTest, which System.loadLibrary()s
# libwebcrypto_java_host.so (java_host.c, linked with the shared
# libwebcrypto as an app would ship it); its JNI_OnLoad hands the JavaVM to
# libwebcrypto. Included by tests/jca.cmake, whose variables it uses
# (WEBCRYPTO_JCA_JDK, jca_extra_jdks, jca_common_env, webcrypto_jdk_version).
#
# Tests, on the primary JDK and on each further one (@<jdk directory>):
#   java_host            the whole run, plain
#   java_host.checkjni   the same under -Xcheck:jni
# Each fails on a non-zero exit, on a timeout (a JVM that does not exit: a
# thread left attached, a non-daemon thread) and on any line the JVM prints
# about JNI misuse ("WARNING" under -Xcheck:jni), a thread exiting attached,
# an uncaught exception or a fatal error.
set(java_host_dir ${CMAKE_CURRENT_LIST_DIR})

# A test that cannot run here: says why, exit 77; with required, a failure
# under CI=true.
function(java_host_skip_test name why required)
  set(ci "")
  if(required)
    set(ci "if [ \"$CI\" = true ]; then echo 'CI=true: required'; exit 1; fi; ")
  endif()
  add_test(NAME ${name} COMMAND sh -c "echo \"SKIP: ${why}\"; ${ci}exit 77")
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77)
endfunction()

# The class is compiled by the primary JDK's javac (not whichever javac
# find_package(Java) found first for tools/bench), for Java 11 and later, so
# every JDK the tests run on loads it; javac -h writes the JNI header that
# gives java_host.c its prototypes, so a signature mismatch fails the build.
set(java_host_javac "${WEBCRYPTO_JCA_JDK}/bin/javac")
if(WEBCRYPTO_SANITIZE)
  # libwebcrypto.so built with ASan cannot be loaded by the java launcher
  # unless the ASan runtime is preloaded into the whole JVM.
  java_host_skip_test(java_host "not under WEBCRYPTO_SANITIZE: the java launcher would need the ASan runtime preloaded" OFF)
  return()
endif()
if(NOT EXISTS "${java_host_javac}")
  java_host_skip_test(java_host "${WEBCRYPTO_JCA_JDK} has no bin/javac (a JDK, not only its headers, is needed)" ON)
  return()
endif()

set(java_host_classes ${CMAKE_CURRENT_BINARY_DIR}/java_host/classes)
set(java_host_headers ${CMAKE_CURRENT_BINARY_DIR}/java_host/include)
add_custom_command(
  OUTPUT ${java_host_classes}/JavaHostTest.class ${java_host_headers}/JavaHostTest.h
  COMMAND ${CMAKE_COMMAND} -E make_directory ${java_host_classes} ${java_host_headers}
  COMMAND ${java_host_javac} --release 11 -Xlint:all -Werror -d ${java_host_classes}
          -h ${java_host_headers} ${java_host_dir}/JavaHostTest.java
  DEPENDS ${java_host_dir}/JavaHostTest.java
  COMMENT "javac JavaHostTest.java (${WEBCRYPTO_JCA_JDK})")
add_custom_target(java_host_class DEPENDS ${java_host_classes}/JavaHostTest.class
                  ${java_host_headers}/JavaHostTest.h)

add_library(webcrypto_java_host SHARED ${java_host_dir}/java_host.c
            ${java_host_headers}/JavaHostTest.h)
add_dependencies(webcrypto_java_host java_host_class)
set_target_properties(webcrypto_java_host PROPERTIES
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/java_host)
target_include_directories(webcrypto_java_host PRIVATE ${java_host_headers}
  "${WEBCRYPTO_JCA_JDK}/include" "${WEBCRYPTO_JCA_JDK}/include/linux")
target_compile_options(webcrypto_java_host PRIVATE ${WEBCRYPTO_WARNINGS})
# The shared libwebcrypto, as an app ships it (found through the build RPATH).
target_link_libraries(webcrypto_java_host PRIVATE webcrypto PkgConfig::JANSSON Threads::Threads)
target_link_options(webcrypto_java_host PRIVATE -Wl,--no-undefined)

set(java_host_bcprov "")
if(WEBCRYPTO_JCA_BCPROV)
  set(java_host_bcprov "${WEBCRYPTO_JCA_BCPROV}")
endif()

function(java_host_test name jdk)
  set(opts "")
  if(name MATCHES "checkjni")
    set(opts -Xcheck:jni)
  endif()
  webcrypto_jdk_version(${jdk} version)
  # From Java 24 on (JEP 472), loadLibrary prints a WARNING unless the class
  # path's code is allowed native access (the option exists from Java 22).
  string(REGEX MATCH "^[0-9]+" major "${version}")
  if(major GREATER_EQUAL 22)
    list(APPEND opts --enable-native-access=ALL-UNNAMED)
  endif()
  get_filename_component(jdk_name ${jdk} NAME)
  # The class path is the test's classes only: BouncyCastle reaches the
  # test through its own URLClassLoader (argument 1), never the class path.
  add_test(NAME ${name} COMMAND ${jdk}/bin/java ${opts}
           -Djava.library.path=$<TARGET_FILE_DIR:webcrypto_java_host>
           -cp ${java_host_classes} JavaHostTest "${java_host_bcprov}")
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "WEBCRYPTO_TEST_JAVA_VERSION=${version};${jca_common_env}"
    LABELS "jdk=${jdk_name}"
    SKIP_RETURN_CODE 77
    TIMEOUT 180
    FAIL_REGULAR_EXPRESSION "WARNING;not detached;not yet detached;without having called DetachCurrentThread;Exception in thread;A fatal error;hs_err")
endfunction()

java_host_test(java_host ${WEBCRYPTO_JCA_JDK})
java_host_test(java_host.checkjni ${WEBCRYPTO_JCA_JDK})
foreach(jdk ${jca_extra_jdks})
  get_filename_component(jdk_name ${jdk} NAME)
  java_host_test(java_host@${jdk_name} ${jdk})
  java_host_test(java_host.checkjni@${jdk_name} ${jdk})
endforeach()
if(NOT jca_extra_jdks)
  # CI has one JDK: said, not hidden (Temurin 25 on the development machine).
  add_test(NAME java_host@other-jdk COMMAND sh -c
    "echo 'SKIP: no JDK besides ${WEBCRYPTO_JCA_JDK} (under /usr/lib/jvm, or WEBCRYPTO_JCA_TEST_JDKS): java_host ran on the primary JDK only'; exit 77")
  set_tests_properties(java_host@other-jdk PROPERTIES SKIP_RETURN_CODE 77)
endif()
