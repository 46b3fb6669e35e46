# Backend modules: the handshake on both sides, and registry variant slots.
# Included by tests/CMakeLists.txt.

# The module's side (src/core/module_shim.c, called directly as a core of
# another version would call it).
add_executable(test_module_shim test_module_shim.c ${PROJECT_SOURCE_DIR}/src/core/module_shim.c)
target_include_directories(test_module_shim PRIVATE ${PROJECT_SOURCE_DIR}/include
                           ${PROJECT_SOURCE_DIR}/src/core)
target_compile_definitions(test_module_shim PRIVATE WC_MODULE_OPS=shim_test_ops)
target_compile_options(test_module_shim PRIVATE ${WEBCRYPTO_WARNINGS})
add_test(NAME module_shim COMMAND test_module_shim)

# The core's side, through the real loader: each case's fake module
# (module_fake.c) is built as webcrypto-boringssl.so in a directory of its
# own, which the case's WEBCRYPTO_MODULE_DIR names, so that the registry
# loads it in place of the boringssl backend (hence only with that backend).
get_property(_mod_built GLOBAL PROPERTY WEBCRYPTO_BUILT_BACKENDS)
if("boringssl" IN_LIST _mod_built)
  add_executable(test_module_abi test_module_abi.c)
  target_include_directories(test_module_abi PRIVATE ${PROJECT_SOURCE_DIR}/src/core)
  target_link_libraries(test_module_abi PRIVATE webcrypto_static)
  target_compile_options(test_module_abi PRIVATE ${WEBCRYPTO_WARNINGS})
  foreach(case ok abi abi5 abi2 ops refuse v1 zero)
    string(TOUPPER ${case} upper)
    set(dir ${CMAKE_CURRENT_BINARY_DIR}/module_abi/${case})
    add_library(module_fake_${case} MODULE module_fake.c)
    set_target_properties(module_fake_${case} PROPERTIES PREFIX "" OUTPUT_NAME webcrypto-boringssl
                          LIBRARY_OUTPUT_DIRECTORY ${dir})
    target_include_directories(module_fake_${case} PRIVATE ${PROJECT_SOURCE_DIR}/include
                               ${PROJECT_SOURCE_DIR}/src/core)
    target_compile_definitions(module_fake_${case} PRIVATE FAKE_CASE_${upper}=1)
    target_compile_options(module_fake_${case} PRIVATE ${WEBCRYPTO_WARNINGS} -fvisibility=hidden)
    add_dependencies(test_module_abi module_fake_${case})
    add_test(NAME module_abi.${case} COMMAND test_module_abi ${case})
    set_tests_properties(module_abi.${case} PROPERTIES SKIP_RETURN_CODE 77
      ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${dir};${WEBCRYPTO_TEST_ENVIRONMENT}")
  endforeach()
endif()

# Variant slots: needs the jca backend (a JVM); the ".jca" suffix gives it the
# jca tests' environment (tests/jca.cmake) and their skip rule.
if("jca" IN_LIST _mod_built)
  add_executable(test_registry_variants test_registry_variants.c)
  target_link_libraries(test_registry_variants PRIVATE webcrypto_static Threads::Threads)
  target_compile_options(test_registry_variants PRIVATE ${WEBCRYPTO_WARNINGS})
  add_test(NAME registry_variants.jca COMMAND test_registry_variants)
  set_tests_properties(registry_variants.jca PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
