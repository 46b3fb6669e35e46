#!/usr/bin/env bash
# npm_package_test.sh - the Node binding's npm package, tested as a user gets
# it (tests/npm_package.cmake registers each step as a CTest test).
#
#   npm_package_test.sh version ROOT WANT
#       bindings/node/package.json's version is WANT (CMake's project version).
#   npm_package_test.sh install ROOT WORK EXPECTED [exact|atleast]
#       tools/pack-node.sh packs the package; a new empty project in
#       WORK/project gets it with `npm install --offline <tarball>` (its
#       install step builds the addon); EXPECTED (comma-separated) are the
#       backends the package must report, those this build found: exactly
#       (the default), or at least them where this build turned a backend
#       off (the package builds every backend whose library is there).
#   npm_package_test.sh run ROOT WORK --node-pinned VERSION | --node-system
#       a copy of WORK/project (the package moved: it must find its own
#       modules wherever it is) runs tests/npm_package/example.cjs (require)
#       and example.mjs (import) on that Node.
#   npm_package_test.sh typescript ROOT WORK
#       tsc --noEmit over tests/npm_package/example.ts against the package's
#       types, with lib "dom" and without, TypeScript fetched once by npm
#       (pinned below) into the cache tools/fetch-node.sh uses.
# Exit 77 (a CTest skip, saying why) when a Node, npm or TypeScript cannot be
# had, except under CI=true, where that fails.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# The package finds its addon and modules by itself: nothing of a build
# tree's environment may help it.
unset WEBCRYPTO_MODULE_DIR WEBCRYPTO_NODE_ADDON LD_LIBRARY_PATH

# TypeScript, pinned: the sha512 is the `integrity` of `npm view typescript@VERSION dist`.
TS_VERSION=5.9.3
TS_INTEGRITY='sha512-jl1vZzPDinLr9eUt3J/t7V6FgNEw9QjvBPdysz9KfQDD41fQrC2Y4vKQdiaUpFT4bXlb1RHhLpp8wtm6M5TgSw=='

unavailable() {
    if [ "${CI:-}" = true ]; then
        echo "FAIL - $1 (CI=true: the package tests must run)"
        exit 1
    fi
    echo "skipped: $1"
    exit 77
}
fail() { echo "FAIL - $1"; exit 1; }

cache=${WEBCRYPTO_NODE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/libwebcrypto}
system_node() { # the machine's Node: $WEBCRYPTO_NODE, else node or nodejs on PATH
    local n=${WEBCRYPTO_NODE:-$(command -v node || command -v nodejs)}
    [ -n "$n" ] && command -v "$n" >/dev/null && echo "$n"
}
pinned_node() { # VERSION: the path of that Node, fetched once, or unavailable
    local err out
    err=$(mktemp)
    if ! out=$(bash "$ROOT/tools/fetch-node.sh" "$1" 2>"$err"); then
        local msg; msg=$(tr '\n' ' ' <"$err"); rm -f "$err"
        unavailable "the pinned node $1 could not be fetched: $msg"
    fi
    rm -f "$err"
    echo "$out"
}

cmd=${1:-}
ROOT=${2:-}
[ -n "$cmd" ] && [ -d "$ROOT" ] || { echo "usage: npm_package_test.sh version|install|run|typescript ROOT ..." >&2; exit 2; }
shift 2

case $cmd in
version)
    want=$1
    got=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$ROOT/bindings/node/package.json")
    [ "$got" = "$want" ] || fail "bindings/node/package.json has version '${got}', the library (CMake's project version, include/webcrypto.h) $want"
    echo "ok - package.json's version is the library's, $want"
    ;;

install)
    WORK=$1 EXPECTED=$2 MATCH=${3:-exact}
    command -v npm >/dev/null || unavailable "no npm on PATH (tools/install-deps.sh installs it)"
    # npm runs the install step with the `node` on PATH, whose headers it
    # builds against: the machine's, when it has them (nodesource's nodejs,
    # libnode-dev), else the pinned Node's (the official build has them).
    node=$(system_node) || unavailable "no node on PATH (install nodejs)"
    prefix=$(dirname "$(dirname "$(readlink -f "$node")")")
    if [ ! -f "$prefix/include/node/node_api.h" ] && [ ! -f /usr/include/node/node_api.h ]; then
        version=$(sed -n 's/^version=\${1:-\([0-9.]*\)}$/\1/p' "$ROOT/tools/fetch-node.sh")
        node=$(pinned_node "$version")
    fi
    export PATH="$(dirname "$node"):$PATH"
    echo "# npm $(npm --version) on node $(node --version) ($(command -v node))"
    rm -rf "$WORK"
    mkdir -p "$WORK/project" || fail "cannot make $WORK"
    tgz=$(bash "$ROOT/tools/pack-node.sh" "$WORK") || fail "tools/pack-node.sh failed"
    echo "# packed $tgz ($(du -k "$tgz" | cut -f1) KiB)"
    # The tarball carries the C sources and no build output.
    listing=$(tar -tzf "$tgz") || fail "cannot list $tgz"
    for f in package/csrc/CMakeLists.txt package/csrc/include/webcrypto.h package/csrc/bindings/node/webcrypto_node.c \
             package/index.js package/index.mjs package/index.d.ts package/install.js package/lib/addon.js; do
        grep -qxF "$f" <<<"$listing" || fail "$tgz lacks $f"
    done
    if grep -E '\.(node|so|o|a)$' <<<"$listing"; then fail "$tgz carries built files (above)"; fi
    cd "$WORK/project" || fail "no $WORK/project"
    printf '{ "name": "npm-package-test", "version": "1.0.0", "private": true }\n' >package.json
    start=$(date +%s)
    if ! npm install --offline --foreground-scripts --no-audit --no-fund "$tgz" >npm.log 2>&1; then
        cat npm.log
        fail "npm install --offline $tgz failed"
    fi
    cat npm.log
    echo "# npm install took $(( $(date +%s) - start )) s"
    pkg=$WORK/project/node_modules/libwebcrypto
    [ -f "$pkg/webcrypto.node" ] || fail "the install made no $pkg/webcrypto.node"
    # What the package says it has is what this build found.
    got=$(node -p 'require("libwebcrypto").backends().join(",")') || fail "require('libwebcrypto') failed"
    sorted() { tr ',' '\n' <<<"$1" | sort | tr '\n' ' '; }
    if [ "$MATCH" = atleast ]; then
        for b in $(sorted "$EXPECTED"); do
            case ",$got," in *",$b,"*) ;; *) fail "backends() is '$got', without this build's '$b'" ;; esac
        done
    else
        [ "$(sorted "$got")" = "$(sorted "$EXPECTED")" ] || fail "backends() is '$got', this build has '$EXPECTED'"
    fi
    echo "ok - installed offline into an empty project; backends() = $got"
    ;;

run)
    WORK=$1
    case ${2:-} in
        --node-pinned) node=$(pinned_node "$3") ;;
        --node-system) node=$(system_node) || unavailable "no node on PATH (install nodejs, or set WEBCRYPTO_NODE)" ;;
        *) echo "run: --node-pinned VERSION | --node-system" >&2; exit 2 ;;
    esac
    [ -f "$WORK/project/node_modules/libwebcrypto/webcrypto.node" ] ||
        unavailable "no installed package in $WORK/project (node.package.install skipped or failed)"
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/npm-package.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    cp -a "$WORK/project" "$tmp/project" || fail "cannot copy the project"
    cp "$HERE/npm_package/example.cjs" "$HERE/npm_package/example.mjs" "$HERE/npm_package/checks.cjs" "$tmp/project/"
    cd "$tmp/project" || fail "no $tmp/project"
    echo "# node $("$node" --version) ($node), the package moved to $tmp/project"
    "$node" example.cjs || fail "example.cjs (require) on node $("$node" --version)"
    "$node" example.mjs || fail "example.mjs (import) on node $("$node" --version)"
    ;;

typescript)
    WORK=$1
    node=$(system_node) || unavailable "no node on PATH (install nodejs)"
    [ -f "$WORK/project/node_modules/libwebcrypto/index.d.ts" ] ||
        unavailable "no installed package in $WORK/project (node.package.install skipped or failed)"
    tsdir=$cache/typescript-$TS_VERSION
    if [ ! -f "$tsdir/bin/tsc" ]; then
        command -v npm >/dev/null || unavailable "no npm on PATH to fetch TypeScript $TS_VERSION"
        mkdir -p "$cache" || fail "cannot make $cache"
        exec 9>"$cache/.typescript-$TS_VERSION.lock"
        flock 9
        if [ ! -f "$tsdir/bin/tsc" ]; then
            dl=$(mktemp -d "$cache/.typescript.XXXXXX")
            trap 'rm -rf "$dl"' EXIT
            echo "# npm pack typescript@$TS_VERSION"
            (cd "$dl" && npm pack --silent "typescript@$TS_VERSION" >pack.out 2>pack.err) && [ -f "$dl/typescript-$TS_VERSION.tgz" ] ||
                unavailable "npm could not fetch typescript@$TS_VERSION: $(tail -3 "$dl/pack.err" 2>/dev/null | tr '\n' ' ')"
            want=$(printf '%s' "${TS_INTEGRITY#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')
            got=$(sha512sum "$dl/typescript-$TS_VERSION.tgz" | cut -d' ' -f1)
            [ "$got" = "$want" ] || fail "typescript-$TS_VERSION.tgz has sha512 $got, not the pinned $want"
            tar -xzf "$dl/typescript-$TS_VERSION.tgz" -C "$dl" || fail "cannot unpack TypeScript"
            rm -rf "$tsdir" && mv "$dl/package" "$tsdir" || fail "cannot move TypeScript into $tsdir"
            rm -rf "$dl"
        fi
        exec 9>&-
    fi
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/npm-package-ts.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    # The package as npm installed it (only its types are read).
    mkdir -p "$tmp/node_modules" && cp -a "$WORK/project/node_modules/libwebcrypto" "$tmp/node_modules/" &&
        cp "$HERE/npm_package/example.ts" "$HERE/npm_package/example-dom.ts" "$tmp/" || fail "cannot set up $tmp"
    printf '{ "name": "npm-package-ts", "private": true, "type": "module" }\n' >"$tmp/package.json"
    echo "# tsc $("$node" "$tsdir/bin/tsc" --version) on node $("$node" --version)"
    # A Node project (no lib "dom", no @types/node: "types" empty), then one
    # with lib "dom" (the package's types beside TypeScript's own WebCrypto ones).
    for lib in '"es2022"' '"es2022", "dom"'; do
        files='"example.ts"'
        [ "$lib" = '"es2022"' ] || files='"example.ts", "example-dom.ts"'
        config='{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022", "module": "nodenext", '
        config+='"moduleResolution": "nodenext", "lib": [%s], "types": [] }, "files": [%s] }\n'
        printf "$config" "$lib" "$files" >"$tmp/tsconfig.json"
        if ! (cd "$tmp" && "$node" "$tsdir/bin/tsc" -p tsconfig.json); then
            fail "tsc --noEmit (lib $lib): the examples do not check against the package's types"
        fi
        echo "ok - tsc --noEmit, lib [$lib]: $files"
    done
    ;;

*) echo "npm_package_test.sh: unknown step $cmd" >&2; exit 2 ;;
esac
