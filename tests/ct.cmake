# Constant time, checked (docs/ROBUSTNESS.md): the CTest label `ct`.
#
# A copy of the library, webcrypto_ct, is built from the same sources with
# WEBCRYPTO_CT_VALIDATION (src/core/ct.h: declassification points become
# valgrind client requests), and the programs in tests/ct/ run under
# valgrind's memcheck with their secrets marked undefined, so that a branch
# or a memory index that depends on a secret fails them. Only these programs
# run under valgrind (a few seconds in all: `ctest -L ct`).
#
# ct.leak-selftest runs ct_codec built with WEBCRYPTO_CT_SELFTEST_LEAK, which
# puts an `if (secret[0])` into wc_equal_ct (src/core/util.c): it passes
# only if memcheck reports that branch, so every run shows the tool catches
# a leak.
#
# Without valgrind (the program or Debian's valgrind package's
# valgrind/memcheck.h) the tests skip, saying why; under CI=true they fail.
# A sanitizer build's programs cannot run under valgrind: none there (the
# release build of tools/test.sh runs them).
if(WEBCRYPTO_SANITIZE)
  return()
endif()
include(CheckIncludeFile)
check_include_file(valgrind/memcheck.h WEBCRYPTO_HAVE_MEMCHECK_H)
set(_ct_run bash ${CMAKE_CURRENT_SOURCE_DIR}/ct/run.sh)

if(NOT WEBCRYPTO_HAVE_MEMCHECK_H)
  add_test(NAME ct.missing COMMAND ${_ct_run} missing
           "valgrind/memcheck.h not found at configuration (Debian: apt-get install valgrind)")
  set_tests_properties(ct.missing PROPERTIES SKIP_RETURN_CODE 77)
  return()
endif()

# The library's sources (core and built-in backends), as webcrypto_objects has them.
get_target_property(_ct_sources webcrypto_objects SOURCES)
set(_ct_abs "")
foreach(s ${_ct_sources} src/core/module_dirs.c)
  if(NOT IS_ABSOLUTE "${s}")
    set(s "${PROJECT_SOURCE_DIR}/${s}")
  endif()
  list(APPEND _ct_abs "${s}")
endforeach()
add_library(webcrypto_ct STATIC ${_ct_abs})
target_include_directories(webcrypto_ct PUBLIC ${PROJECT_SOURCE_DIR}/include
  PRIVATE ${PROJECT_SOURCE_DIR}/src $<TARGET_PROPERTY:webcrypto_objects,INCLUDE_DIRECTORIES>)
target_compile_definitions(webcrypto_ct PRIVATE
  $<TARGET_PROPERTY:webcrypto_objects,COMPILE_DEFINITIONS>
  "WEBCRYPTO_MODULE_INSTALL_DIR=\"${WEBCRYPTO_MODULE_DIRS}\"" WEBCRYPTO_CT_VALIDATION=1)
target_compile_options(webcrypto_ct PRIVATE ${WEBCRYPTO_WARNINGS})
target_link_libraries(webcrypto_ct PUBLIC ${WEBCRYPTO_PRIVATE_LIBS})
# Headers a backend generates (the jca backend's Java classes, an include
# directory set on its source files for the top directory only).
add_dependencies(webcrypto_ct webcrypto_objects)
target_include_directories(webcrypto_ct PRIVATE ${PROJECT_BINARY_DIR}/src/backends/jca)

# ct_codec: our codecs and compares on their own (base64url, DER, PEM,
# wc_equal_ct, POLYVAL), no backend. The CLI's pem.c is compiled in.
set(_ct_codec_sources ${CMAKE_CURRENT_SOURCE_DIR}/ct/ct_codec.c ${PROJECT_SOURCE_DIR}/tools/cli/pem.c)
set(_ct_codec_includes ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src
    ${PROJECT_SOURCE_DIR}/src/core ${PROJECT_SOURCE_DIR}/tools/cli)
if(WEBCRYPTO_BACKEND_OPENSSL)
  list(APPEND _ct_codec_includes ${PROJECT_SOURCE_DIR}/src/backends/openssl)
endif()
function(webcrypto_ct_codec name)
  add_executable(${name} ${_ct_codec_sources} ${ARGN})
  target_include_directories(${name} PRIVATE ${_ct_codec_includes})
  target_compile_definitions(${name} PRIVATE WEBCRYPTO_CT_VALIDATION=1
    $<$<BOOL:${WEBCRYPTO_BACKEND_OPENSSL}>:WC_CT_HAVE_POLYVAL=1>)
  target_compile_options(${name} PRIVATE ${WEBCRYPTO_WARNINGS})
  target_link_libraries(${name} PRIVATE webcrypto_ct)
endfunction()
webcrypto_ct_codec(ct_codec)
add_test(NAME ct.codec COMMAND ${_ct_run} clean $<TARGET_FILE:ct_codec>)

# The same program with the deliberate leak: util.c compiled once more with
# WEBCRYPTO_CT_SELFTEST_LEAK, linked ahead of the library's util.c.
webcrypto_ct_codec(ct_codec_leaky ${PROJECT_SOURCE_DIR}/src/core/util.c)
target_compile_definitions(ct_codec_leaky PRIVATE WEBCRYPTO_CT_SELFTEST_LEAK=1)
add_test(NAME ct.leak-selftest COMMAND ${_ct_run} leak wc_equal_ct $<TARGET_FILE:ct_codec_leaky>)

# ct_openssl: the operations whose secret-dependent steps are ours, through
# the public API on the openssl backend (OpenSSL's own code runs under
# memcheck too; see tests/ct/run.sh for where its reports go).
if("openssl" IN_LIST WEBCRYPTO_BUILT_BACKENDS)
  add_executable(ct_openssl ${CMAKE_CURRENT_SOURCE_DIR}/ct/ct_openssl.c)
  target_compile_options(ct_openssl PRIVATE ${WEBCRYPTO_WARNINGS})
  target_compile_definitions(ct_openssl PRIVATE WEBCRYPTO_CT_VALIDATION=1)
  target_include_directories(ct_openssl PRIVATE ${PROJECT_SOURCE_DIR}/src/core)
  target_link_libraries(ct_openssl PRIVATE webcrypto_ct)
  add_test(NAME ct.openssl COMMAND ${_ct_run} clean $<TARGET_FILE:ct_openssl>)
endif()

get_property(_ct_tests DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTY TESTS)
foreach(t ${_ct_tests})
  if(t MATCHES "^ct\\.")
    set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77) # labelled ct by webcrypto_label_all
  endif()
endforeach()
