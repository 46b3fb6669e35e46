# The Node.js binding's tests (bindings/node/README.md), when the addon is
# built (Node-API headers found). Labels: node, and the backend's.
#  - node.differential.<node>.<backend>: the same calls to Node's own
#    crypto.subtle and to the binding on <backend>; outcomes compared
#    (bindings/node/test/differential.js).
#  - node.hostile.<node>.<backend>: every typed-array and buffer kind the
#    Node has against Node's own answers and Web IDL, scripts that replace
#    globals and prototype methods, the addon's handles of one kind passed
#    as another, a dropped key's bytes searched for in the process's memory
#    (bindings/node/test/hostile.js; issue #25).
#  - node.load.<node>.<backend>: thousands of operations in flight, keys
#    collected while their operations run, heap and RSS flat (~25 s).
#  - node.wpt.<node>.<backend>: WPT's WebCryptoAPI suite, given a checkout
#    (WEBCRYPTO_WPT_DIR; tools/test.sh fetches one with tools/fetch-wpt.sh),
#    against the binding and the same Node's own. ~4-8 min each, so by default
#    only on the pinned Node with every backend but jca:SunJCE (jca covers the
#    JDK's providers), and on the machine's Node with openssl;
#    -DWEBCRYPTO_WPT_ALL=ON registers every Node x backend.
# Each on two Nodes: node<major>, the release tools/fetch-node.sh pins (fetched
# once from npm's registry into ~/.cache/libwebcrypto), and node-system, the
# machine's. A Node that cannot be had skips (77, saying why), except under
# CI=true, where it fails.
set(WEBCRYPTO_WPT_DIR "" CACHE PATH
  "A web-platform-tests/wpt checkout for the node.wpt.* tests (empty: $WEBCRYPTO_WPT_DIR when they run)")
option(WEBCRYPTO_WPT_ALL "node.wpt.* on every Node and backend (default: a subset, tests/node.cmake)" OFF)
get_property(_wc_node_built GLOBAL PROPERTY WEBCRYPTO_NODE_BUILT)
if(NOT _wc_node_built)
  return()
endif()
file(STRINGS ${PROJECT_SOURCE_DIR}/tools/fetch-node.sh _wc_node_line REGEX "^version=")
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" _wc_node_pinned "${_wc_node_line}")
string(REGEX MATCH "^[0-9]+" _wc_node_major "${_wc_node_pinned}")
set(_wc_node_run ${PROJECT_SOURCE_DIR}/bindings/node/test/run.sh)
foreach(node node${_wc_node_major} node-system)
  if(node STREQUAL "node-system")
    set(which --node-system)
  else()
    set(which --node-pinned ${_wc_node_pinned})
  endif()
  foreach(b ${WEBCRYPTO_TEST_BACKENDS})
    string(REPLACE ":" "-" tb ${b})
    add_test(NAME node.differential.${node}.${tb}
             COMMAND bash ${_wc_node_run} ${which} $<TARGET_FILE:webcrypto_node> differential.js ${b})
    set_tests_properties(node.differential.${node}.${tb} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
      ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR}")
    add_test(NAME node.hostile.${node}.${tb}
             COMMAND bash ${_wc_node_run} ${which} $<TARGET_FILE:webcrypto_node> hostile.js ${b})
    set_tests_properties(node.hostile.${node}.${tb} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
      ENVIRONMENT "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR}")
    # node.wpt.<node>.<backend>: WPT's WebCryptoAPI suite from a checkout
    # (WEBCRYPTO_WPT_DIR, the cache variable or, at test time, the
    # environment; skips saying so when neither is set or tools/test.sh could
    # not download one, CI too; fails on a download whose sha256 is not the
    # pinned one) on <backend>, failing on any subtest that this Node's own
    # webcrypto passes and the binding does not, but for those "not
    # applicable" to a backend lacking the algorithm
    # (bindings/node/test/wpt/run.js --compare-native).
    if(NOT WEBCRYPTO_WPT_ALL AND (b STREQUAL "jca:SunJCE" OR (node STREQUAL "node-system" AND NOT b STREQUAL "openssl")))
      continue()
    endif()
    add_test(NAME node.wpt.${node}.${tb}
             COMMAND bash ${PROJECT_SOURCE_DIR}/bindings/node/test/wpt/ctest.sh "${WEBCRYPTO_WPT_DIR}"
                     ${which} $<TARGET_FILE:webcrypto_node> ${b})
    set_tests_properties(node.wpt.${node}.${tb} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 3600
      LABELS wpt ENVIRONMENT
      "WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR};WEBCRYPTO_WPT_NATIVE_CACHE=${CMAKE_BINARY_DIR}/wpt-native")
  endforeach()
  # On openssl (else boringssl): a C library's memory, which RSS measures. Not
  # on jca alone (a jca-only build has no load test): the JVM's heap grows
  # as it likes (+126 MB in 6 rounds of a trial) and its calls take 15 s a
  # round. One malloc arena: glibc gives each pool thread its own, whose slow
  # fragmentation would read as growth; a leak still shows with one.
  set(b "")
  foreach(c openssl boringssl)
    if(NOT b AND c IN_LIST WEBCRYPTO_TEST_BACKENDS)
      set(b ${c})
    endif()
  endforeach()
  if(NOT b)
    continue()
  endif()
  set(tb ${b})
  add_test(NAME node.load.${node}.${tb}
           COMMAND bash ${_wc_node_run} ${which} $<TARGET_FILE:webcrypto_node> load.js ${b} 20)
  set_tests_properties(node.load.${node}.${tb} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120
    ENVIRONMENT "MALLOC_ARENA_MAX=1;WEBCRYPTO_MODULE_DIR=${WEBCRYPTO_MODULE_BUILD_DIR}")
endforeach()
