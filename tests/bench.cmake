# webcrypto-bench: its statistics (built from source here, so that the order
# of add_subdirectory calls does not matter) and a smoke run of the harness.
add_executable(test_bench_stats test_bench_stats.c ${PROJECT_SOURCE_DIR}/tools/bench/bench_stats.c)
target_include_directories(test_bench_stats PRIVATE ${PROJECT_SOURCE_DIR}/tools/bench)
target_link_libraries(test_bench_stats PRIVATE PkgConfig::CMOCKA m)
target_compile_options(test_bench_stats PRIVATE ${WEBCRYPTO_WARNINGS})
add_test(NAME bench_stats COMMAND test_bench_stats)
# The raw-boringssl baseline's module is built with the boringssl backend
# (tools/bench/CMakeLists.txt); the smoke test is told, so that a build that
# should have it fails when it does not load. bench_smoke_raw_boringssl runs
# those checks alone, and is reported as skipped by builds without it.
if(TARGET webcrypto-bench-raw-boringssl)
  set(_bench_rawb 1)
else()
  set(_bench_rawb 0)
endif()
add_test(NAME bench_smoke COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bench_smoke.sh $<TARGET_FILE:webcrypto-bench>)
add_test(NAME bench_smoke_raw_boringssl COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bench_smoke.sh
         --raw-boringssl-only $<TARGET_FILE:webcrypto-bench>)
set_tests_properties(bench_smoke bench_smoke_raw_boringssl PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
  ENVIRONMENT "BENCH_SMOKE_RAW_BORINGSSL=${_bench_rawb};WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}")

# `webcrypto bench` runs webcrypto-bench rather than linking it (tools/cli/cmd_bench.c).
if(TARGET webcrypto_cli)
  add_test(NAME bench_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bench_cli_test.sh
           $<TARGET_FILE:webcrypto_cli> $<TARGET_FILE:webcrypto-bench> ${CMAKE_INSTALL_FULL_BINDIR})
  set_tests_properties(bench_cli PROPERTIES SKIP_RETURN_CODE 77)
endif()

# openssl@3.5: the openssl backend on OpenSSL 3.5 in the same run as on the
# system's 3.0, by a worker process the bench starts on 3.5's libcrypto
# (tools/fetch-openssl.sh's cached build; skipped saying why without it,
# fails under CI=true). The bench sets the worker's LD_LIBRARY_PATH itself,
# so this test is not one of tests/openssl35.cmake's; its name gives it the
# labels openssl and openssl35.
if("openssl" IN_LIST WEBCRYPTO_TEST_BACKENDS)
  add_test(NAME bench_smoke.openssl35 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bench_openssl35.sh
           ${PROJECT_SOURCE_DIR} $<TARGET_FILE:webcrypto-bench>)
  set_tests_properties(bench_smoke.openssl35 PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}")
endif()
