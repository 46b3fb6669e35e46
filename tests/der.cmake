# test_der: the DER codec (src/core/der.c) on its own, built from its sources
# (and the algorithm table it reads) without a backend, so it runs once rather
# than per backend.
add_executable(test_der ${CMAKE_CURRENT_SOURCE_DIR}/test_der.c ${PROJECT_SOURCE_DIR}/src/core/der.c
               ${PROJECT_SOURCE_DIR}/src/core/algorithms.c
               ${PROJECT_SOURCE_DIR}/src/core/error.c ${PROJECT_SOURCE_DIR}/src/core/util.c)
target_include_directories(test_der PRIVATE ${PROJECT_SOURCE_DIR}/include
                           ${PROJECT_SOURCE_DIR}/src/core)
target_compile_options(test_der PRIVATE ${WEBCRYPTO_WARNINGS})
target_link_libraries(test_der PRIVATE PkgConfig::CMOCKA)
add_test(NAME test_der COMMAND test_der)

# test_alg_table: the core's algorithm and curve tables (src/core/algorithms.c)
# checked for consistency, also without a backend.
add_executable(test_alg_table ${CMAKE_CURRENT_SOURCE_DIR}/test_alg_table.c
               ${PROJECT_SOURCE_DIR}/src/core/algorithms.c
               ${PROJECT_SOURCE_DIR}/src/core/error.c ${PROJECT_SOURCE_DIR}/src/core/util.c)
target_include_directories(test_alg_table PRIVATE ${PROJECT_SOURCE_DIR}/include
                           ${PROJECT_SOURCE_DIR}/src/core)
target_compile_options(test_alg_table PRIVATE ${WEBCRYPTO_WARNINGS})
target_link_libraries(test_alg_table PRIVATE PkgConfig::CMOCKA)
add_test(NAME test_alg_table COMMAND test_alg_table)
