# Fuzz targets (libFuzzer) for the code that parses untrusted input:
# tests/fuzz/, documented in docs/FUZZING.md. Off by default; with
#   -DWEBCRYPTO_FUZZ=ON -DCMAKE_C_COMPILER=clang-14
# the library's objects are instrumented for coverage with ASan and UBSan,
# everything that links the library links the sanitizer runtimes, and each
# fuzzer gets a CTest that replays its corpus (no fuzzing).
option(WEBCRYPTO_FUZZ "Build the libFuzzer targets (needs clang)" OFF)
if(NOT WEBCRYPTO_FUZZ)
  return()
endif()
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "WEBCRYPTO_FUZZ needs clang: configure with -DCMAKE_C_COMPILER=clang-14")
endif()

set(WEBCRYPTO_FUZZ_SANITIZERS -fsanitize=address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
target_compile_options(webcrypto_objects PRIVATE -fsanitize=fuzzer-no-link ${WEBCRYPTO_FUZZ_SANITIZERS})
foreach(t webcrypto webcrypto_static)
  target_link_options(${t} INTERFACE -fsanitize=address,undefined)
endforeach()

set(fuzz_dir ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
set(fuzz_seeds ${CMAKE_CURRENT_BINARY_DIR}/fuzz-seeds)

# The seed corpora: valid inputs made by the library at build time.
add_executable(fuzz_make_corpus ${fuzz_dir}/make_corpus.c)
target_compile_options(fuzz_make_corpus PRIVATE ${WEBCRYPTO_WARNINGS} ${WEBCRYPTO_FUZZ_SANITIZERS})
target_link_libraries(fuzz_make_corpus PRIVATE webcrypto_static)
add_custom_command(OUTPUT ${fuzz_seeds}.stamp
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${fuzz_seeds}
  COMMAND fuzz_make_corpus ${fuzz_seeds}
  COMMAND ${CMAKE_COMMAND} -E touch ${fuzz_seeds}.stamp
  DEPENDS fuzz_make_corpus
  COMMENT "Writing the fuzz seed corpora")
add_custom_target(fuzz_seeds ALL DEPENDS ${fuzz_seeds}.stamp)

foreach(f fuzz_import fuzz_unwrap fuzz_der fuzz_decrypt)
  add_executable(${f} ${fuzz_dir}/${f}.c)
  target_include_directories(${f} PRIVATE ${PROJECT_SOURCE_DIR}/src/core)
  target_compile_options(${f} PRIVATE ${WEBCRYPTO_WARNINGS} -fsanitize=fuzzer
                         ${WEBCRYPTO_FUZZ_SANITIZERS})
  target_link_options(${f} PRIVATE -fsanitize=fuzzer)
  target_link_libraries(${f} PRIVATE webcrypto_static)
  add_dependencies(${f} fuzz_seeds)
  # Replays the generated seeds and the committed regression inputs only.
  file(MAKE_DIRECTORY ${fuzz_seeds}/${f})
  set(regressions "")
  if(EXISTS ${fuzz_dir}/corpus/${f})
    set(regressions ${fuzz_dir}/corpus/${f})
  endif()
  add_test(NAME ${f}.corpus COMMAND ${f} -runs=0 -rss_limit_mb=2048 ${fuzz_seeds}/${f}
           ${regressions})
  set_tests_properties(${f}.corpus PROPERTIES LABELS fuzz
    ENVIRONMENT "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1;ASAN_OPTIONS=detect_leaks=1")
endforeach()
