# The soak program's short form (tools/soak, docs/JCA.md): 5 seconds per
# backend, every result checked against openssl. The 10-minute run is manual.
# jca runs twice: plainly, and under -Xcheck:jni where any JNI warning fails
# (not in sanitizer builds, as in tests/jca.cmake). A backend that cannot
# start here (no JVM, or jca not built) exits 77: a visible skip.
if(NOT TARGET webcrypto-soak)
  add_subdirectory(${PROJECT_SOURCE_DIR}/tools/soak ${CMAKE_CURRENT_BINARY_DIR}/soak-tool)
endif()
set(soak_args --seconds 5 --threads 2 --report 5)
set(soak_tests soak.openssl soak.jca)
add_test(NAME soak.openssl COMMAND webcrypto-soak --backend openssl ${soak_args})
add_test(NAME soak.jca COMMAND webcrypto-soak --backend jca ${soak_args})
if(NOT WEBCRYPTO_SANITIZE)
  add_test(NAME soak.jca-checkjni COMMAND bash ${PROJECT_SOURCE_DIR}/tools/soak/soak_checkjni.sh
    $<TARGET_FILE:webcrypto-soak> --backend jca ${soak_args})
  list(APPEND soak_tests soak.jca-checkjni)
endif()
set_tests_properties(${soak_tests} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180
  ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR}")
# The jca tests' environment (JDK, libjsig, ASan options: tests/jca.cmake).
get_property(soak_jdk GLOBAL PROPERTY WEBCRYPTO_JCA_JDK)
if(soak_jdk AND COMMAND webcrypto_jca_env)
  foreach(t ${soak_tests})
    if(t MATCHES "jca")
      webcrypto_jca_env(${t} ${soak_jdk})
    endif()
  endforeach()
endif()
