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
