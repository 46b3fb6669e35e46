# The Node binding's npm package, tested as a user gets it
# (tests/npm_package_test.sh; bindings/node/README.md, "Installing the package"):
#  - node.package.version: bindings/node/package.json's version is the library's.
#  - node.package.install: tools/pack-node.sh packs the package; a new empty
#    project gets it with `npm install --offline <tarball>`, whose install step
#    builds the addon from the tarball's C sources (~1 min on 2 cores); its
#    backends() must be the backends this build found. Once per test run, a
#    fixture of the tests below (Node-API is ABI-stable: one build serves every Node).
#  - node.package.<node>: a copy of that project (the package moved) runs an
#    AES-GCM round trip, ECDSA sign/verify and JWK import/export on every
#    backend it has (jca included where it was built), with require and with
#    import, on Node 18 and the Node tools/fetch-node.sh pins (fetched once
#    from npm into ~/.cache/libwebcrypto) and the machine's (node-system).
#  - node.package.typescript: tsc --noEmit over an example against the
#    package's types, with lib "dom" and without (TypeScript pinned in the
#    script, fetched once by npm into the same cache).
# A Node, npm or TypeScript that cannot be had skips (77, saying why), except
# under CI=true, where it fails. Not under WEBCRYPTO_SANITIZE (as the addon).
if(WEBCRYPTO_SANITIZE)
  return()
endif()
set(_wc_pkg_script ${PROJECT_SOURCE_DIR}/tests/npm_package_test.sh)
set(_wc_pkg_work ${CMAKE_BINARY_DIR}/npm-package)
add_test(NAME node.package.version
         COMMAND bash ${_wc_pkg_script} version ${PROJECT_SOURCE_DIR} ${PROJECT_VERSION})

# The backends the package must report: those built here, without the jca
# variants; exactly, unless this build turned a backend off (the jca-only
# build): the package builds every backend whose library is there.
get_property(_wc_pkg_backends GLOBAL PROPERTY WEBCRYPTO_BUILT_BACKENDS)
list(FILTER _wc_pkg_backends EXCLUDE REGEX ":")
string(REPLACE ";" "," _wc_pkg_backends "${_wc_pkg_backends}")
set(_wc_pkg_match exact)
foreach(o WEBCRYPTO_BACKEND_OPENSSL WEBCRYPTO_BACKEND_BORINGSSL WEBCRYPTO_BACKEND_JCA)
  if(NOT ${o})
    set(_wc_pkg_match atleast)
  endif()
endforeach()
add_test(NAME node.package.install
         COMMAND bash ${_wc_pkg_script} install ${PROJECT_SOURCE_DIR} ${_wc_pkg_work} ${_wc_pkg_backends}
                 ${_wc_pkg_match})
set_tests_properties(node.package.install PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900
  FIXTURES_SETUP npm_package)

# The Nodes: each pinned in tools/fetch-node.sh whose major is 18 or the
# default's, and the machine's.
file(STRINGS ${PROJECT_SOURCE_DIR}/tools/fetch-node.sh _wc_pkg_lines REGEX "^(version=|  [0-9]+\\.[0-9]+\\.[0-9]+\\))")
set(_wc_pkg_nodes "")
foreach(line ${_wc_pkg_lines})
  string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" v "${line}")
  if(line MATCHES "^version=" OR v MATCHES "^18\\.")
    list(APPEND _wc_pkg_nodes ${v})
  endif()
endforeach()
list(REMOVE_DUPLICATES _wc_pkg_nodes)
foreach(v ${_wc_pkg_nodes} system)
  if(v STREQUAL "system")
    set(node node-system)
    set(which --node-system)
  else()
    string(REGEX MATCH "^[0-9]+" major ${v})
    set(node node${major})
    set(which --node-pinned ${v})
  endif()
  add_test(NAME node.package.${node}
           COMMAND bash ${_wc_pkg_script} run ${PROJECT_SOURCE_DIR} ${_wc_pkg_work} ${which})
  set_tests_properties(node.package.${node} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    FIXTURES_REQUIRED npm_package)
endforeach()
add_test(NAME node.package.typescript
         COMMAND bash ${_wc_pkg_script} typescript ${PROJECT_SOURCE_DIR} ${_wc_pkg_work})
set_tests_properties(node.package.typescript PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
  FIXTURES_REQUIRED npm_package)
