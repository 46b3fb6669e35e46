# Interoperability with a real peer, Node's crypto.subtle: keys in every format,
# signatures, ciphertexts, MACs, ECDH/X25519 secrets and wrapped keys made on
# each side are checked on the other (tests/interop/). interop_peer is the
# library's side, on the public API only; the test skips (77) without node.
add_executable(interop_peer ${CMAKE_CURRENT_SOURCE_DIR}/interop/interop_peer.c)
target_link_libraries(interop_peer PRIVATE webcrypto_static PkgConfig::JANSSON)
target_compile_options(interop_peer PRIVATE ${WEBCRYPTO_WARNINGS})
add_test(NAME interop COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/interop/interop_test.sh
         $<TARGET_FILE:interop_peer>)
set_tests_properties(interop PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
