# The soak program's short form (tools/soak, docs/JCA.md): 5 seconds per
# backend, every result checked against another backend. The 10-minute run is manual.
# jca runs twice: plainly, and under -Xcheck:jni where any JNI warning fails
# (in sanitizer builds too). A backend that cannot
# start here (no JVM, or jca not built) exits 77: a visible skip.
if(NOT TARGET webcrypto-soak)
  add_subdirectory(${PROJECT_SOURCE_DIR}/tools/soak ${CMAKE_CURRENT_BINARY_DIR}/soak-tool)
endif()
set(soak_args --seconds 5 --threads 2 --report 5)
# openssl is checked against another backend of this build (boringssl, else
# jca): against itself only a crash could fail it.
get_property(soak_built GLOBAL PROPERTY WEBCRYPTO_BUILT_BACKENDS)
set(soak_openssl_ref "")
foreach(r boringssl jca)
  if(NOT soak_openssl_ref AND r IN_LIST soak_built)
    set(soak_openssl_ref ${r})
  endif()
endforeach()
set(soak_tests soak.jca)
if(soak_openssl_ref)
  add_test(NAME soak.openssl COMMAND webcrypto-soak --backend openssl --reference ${soak_openssl_ref}
    ${soak_args})
  list(APPEND soak_tests soak.openssl)
else()
  message(STATUS "soak.openssl not registered: no second backend to check openssl against")
endif()
# jca is checked against openssl (the soak program's default reference);
# in a build without it (the jca-only build an Android app ships), against
# BouncyCastle through jca:BC, another implementation.
set(soak_jca_ref "")
if(NOT "openssl" IN_LIST soak_built)
  set(soak_jca_ref --reference jca:BC)
endif()
add_test(NAME soak.jca COMMAND webcrypto-soak --backend jca ${soak_jca_ref} ${soak_args})
add_test(NAME soak.jca-checkjni COMMAND bash ${PROJECT_SOURCE_DIR}/tools/soak/soak_checkjni.sh
  $<TARGET_FILE:webcrypto-soak> --backend jca ${soak_jca_ref} ${soak_args})
list(APPEND soak_tests soak.jca-checkjni)
set_tests_properties(${soak_tests} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180
  ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR}")
# The jca tests' environment (JDK, libjsig, ASan options: tests/jca.cmake).
get_property(soak_jdk GLOBAL PROPERTY WEBCRYPTO_JCA_JDK)
if(soak_jdk AND COMMAND webcrypto_jca_env)
  foreach(t ${soak_tests})
    if(t MATCHES "jca" OR (t STREQUAL "soak.openssl" AND soak_openssl_ref STREQUAL "jca"))
      webcrypto_jca_env(${t} ${soak_jdk})
    endif()
  endforeach()
endif()
