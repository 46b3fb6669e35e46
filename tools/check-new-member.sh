#!/bin/sh
# check-new-member.sh - does the build name every place a new family member
# touches? (docs/ARCHITECTURE.md, "Adding an algorithm", promises it does.)
#
# In a temporary worktree of REF (default HEAD) it appends a fake member to
# backend.h's wc_aead and wc_okp enums - the enums only, nothing else - builds
# everything (the three backends, the tools, the Node binding, the tests)
# with -DWEBCRYPTO_WERROR=ON, keeping going past errors, and prints each
# place the compiler stopped, once, as "file: function: message". The guide's
# list should name exactly these places; rerun after a merge that adds a
# dispatch.
#
#   tools/check-new-member.sh [REF]
#   JOBS=N (default 2) builds with N jobs; KEEP=1 keeps the worktree and log.
#
# Exit status: 0 when the build stopped at least once and every stop names a
# fake member (or is a compile-time size check); 1 when the build passed (a
# new member would go unnoticed) or stopped for something else; 2 on a
# set-up failure.
set -eu

ref=${1:-HEAD}
repo=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wc-new-member.XXXXXX")
wt="$tmp/wt"
log="$tmp/build.log"

cleanup() {
    if [ "${KEEP:-0}" = 1 ]; then
        echo "kept: $wt (log: $log)" >&2
        return
    fi
    git -C "$repo" worktree remove --force "$wt" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

git -C "$repo" worktree add --detach -q "$wt" "$ref" || exit 2

# The fake members, appended before each family's _COUNT (as the guide says a
# new member is). The _COUNT lines stand alone in backend.h.
h="$wt/src/core/backend.h"
for fam in AEAD OKP; do
    if ! grep -q "^ *WC_${fam}_COUNT\$" "$h"; then
        echo "check-new-member: no line 'WC_${fam}_COUNT' alone in backend.h" >&2
        exit 2
    fi
    sed -i "s/^\( *\)WC_${fam}_COUNT\$/\1WC_${fam}_FAKE_MEMBER,\n\1WC_${fam}_COUNT/" "$h"
done

echo "configuring $ref with every backend required and -DWEBCRYPTO_WERROR=ON ..." >&2
if ! cmake -S "$wt" -B "$wt/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEBCRYPTO_WERROR=ON \
        -DWEBCRYPTO_REQUIRE_BACKENDS=ON >"$tmp/configure.log" 2>&1; then
    cat "$tmp/configure.log" >&2
    exit 2
fi
# The binding is built only where node_api.h is found: say so when it is not.
grep -q "Node.js binding: Node-API headers" "$tmp/configure.log" ||
    echo "check-new-member: WARNING: the Node binding is not configured; its C is not checked" >&2

echo "building (this keeps going past errors) ..." >&2
LC_ALL=C nice cmake --build "$wt/build" -j"${JOBS:-2}" -- -k >"$log" 2>&1 && built=1 || built=0

# GCC writes "FILE: In function 'F':" before a function's diagnostics and
# "FILE:LINE:COL: error: MESSAGE" for each; a header's inline function is
# reported once per file that includes it, hence the sort -u.
stops=$(awk -v root="$wt/" '
    { sub("^" root, "") }
    /: In function / {
        fn = $0; sub(/^.*: In function ./, "", fn); sub(/.:$/, "", fn); file = $0; sub(/: In function.*/, "", file); next
    }
    /: At top level:/ { fn = ""; next }
    / error: / {
        f = $0; sub(/:[0-9]+:[0-9]+: error: .*/, "", f)
        msg = $0; sub(/^.* error: /, "", msg)
        where = (f == file && fn != "") ? f ": " fn : f
        print where ": " msg
    }' "$log" | sed 's/ \[-Werror=[a-z-]*\]$//' | sort -u)

if [ "$built" = 1 ] && [ -z "$stops" ]; then
    echo "check-new-member: the build PASSED with the fake members: nothing names where they go" >&2
    exit 1
fi
if [ -z "$stops" ]; then
    echo "check-new-member: the build failed without a compiler error; the end of its log:" >&2
    tail -n 30 "$log" >&2
    exit 1
fi

echo "$stops"
n=$(echo "$stops" | wc -l)
others=$(echo "$stops" | grep -v -e "_FAKE_MEMBER" -e "static assertion failed" || true)
echo "$n place(s) stopped the build." >&2
if [ -n "$others" ]; then
    echo "check-new-member: some stops do not name a fake member:" >&2
    echo "$others" >&2
    exit 1
fi
exit 0
