#!/bin/sh
# check-new-member.sh - does the build name every place a new family member
# touches? (docs/ARCHITECTURE.md, "Adding an algorithm", promises it does.)
#
# In a temporary worktree of REF (default HEAD) it appends a fake member to
# backend.h's wc_aead and wc_okp enums - the enums only, nothing else - builds
# everything (the three backends, the tools, the Node binding, the tests)
# with -DWEBCRYPTO_WERROR=ON and prints each place the compiler stopped,
# once, as "file: function: message". The guide's list should name exactly
# these places; rerun after a merge that adds a dispatch.
#
# So that one stop does not hide the next (a file that fails keeps the
# library, and with it the tools, the binding and the tests, from being
# compiled at all), the switch warnings are left warnings (-Wno-error=switch,
# -Wno-error=switch-enum): everything compiles, and each such warning is
# listed as the stop it is under -Werror. Any other error is listed too.
#
#   tools/check-new-member.sh [--full] [REF]
#   JOBS=N (default 2) builds with N jobs; KEEP=1 keeps the worktree and log.
#
# --full makes the guide's steps 1 to 3 first, as a new algorithm would:
# webcrypto_algorithm values (WEBCRYPTO_ALG_FAKE_AEAD, _FAKE_OKP) and
# WC_ALG_COUNT, the AEAD's table row, and the OKP member's line in
# member_facts.h (its row and backend.h's facts come from it); what is left
# is the dispatch the build names (step 4).
#
# Exit status: 0 when the build stopped at least once and every stop names a
# fake member (or is a compile-time size check); 1 when the build passed (a
# new member would go unnoticed) or stopped for something else; 2 on a
# set-up failure.
set -eu

full=0
if [ "${1:-}" = --full ]; then
    full=1
    shift
fi
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
    sed -i "s/^\( *\)WC_${fam}_COUNT\$/\1WC_${fam}_FAKE_${fam},\n\1WC_${fam}_COUNT/" "$h"
done

if [ "$full" = 1 ]; then
    # 1. the next webcrypto_algorithm values, and WC_ALG_COUNT after them
    last=$(sed -n 's/^#define WC_ALG_COUNT ((unsigned)WEBCRYPTO_ALG_\([A-Z0-9_]*\) + 1u)$/\1/p' \
        "$wt/src/core/core.h")
    if [ -z "$last" ] || ! grep -q "^    WEBCRYPTO_ALG_${last}\$" "$wt/include/webcrypto.h"; then
        echo "check-new-member: cannot find the last webcrypto_algorithm (WC_ALG_COUNT)" >&2
        exit 2
    fi
    sed -i "s/^    WEBCRYPTO_ALG_${last}\$/    WEBCRYPTO_ALG_${last},\n    WEBCRYPTO_ALG_FAKE_AEAD,\n    WEBCRYPTO_ALG_FAKE_OKP/" \
        "$wt/include/webcrypto.h"
    sed -i "s/WEBCRYPTO_ALG_${last} + 1u)/WEBCRYPTO_ALG_FAKE_OKP + 1u)/" "$wt/src/core/core.h"
    # 3. the AEAD's row (designated: its place in the table does not matter)
    # and the OKP member's facts line, from which its row is made
    sed -i 's/^static const wc_alg_info wc_algs\[WC_ALG_COUNT\] = {$/&\
    ROW(FAKE_AEAD, "FakeAEAD", WC_FAMILY_AEAD), .member.aead = WC_AEAD_FAKE_AEAD,\
        .key_types = WC_KEYS_SECRET, .ops = OPS_CIPHER, .secret_usages = WC_AES_USAGES,\
        .key_lens = {16, 0, 32}, .formats = WC_FMT(RAW_SECRET) | WC_FMT(JWK),\
        .jwk_kty = "oct", .jwk_use = "enc", .jwk_alg_by_len = {"F128", NULL, "F256"}},/' \
        "$wt/src/core/algorithms.c"
    sed -i 's/^#define WC_OKP_FACTS(X) *\\$/&\
    X(FAKE_OKP, "FakeOKP", 32, 64, 0x7f, SIGN) \\/' "$wt/src/core/member_facts.h"
    for f in include/webcrypto.h src/core/core.h src/core/algorithms.c src/core/member_facts.h; do
        if ! grep -q FAKE "$wt/$f"; then
            echo "check-new-member: --full could not edit $f" >&2
            exit 2
        fi
    done
fi

echo "configuring $ref with every backend required and -DWEBCRYPTO_WERROR=ON ..." >&2
if ! cmake -S "$wt" -B "$wt/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEBCRYPTO_WERROR=ON \
        -DWEBCRYPTO_REQUIRE_BACKENDS=ON \
        "-DCMAKE_C_FLAGS=-Wno-error=switch -Wno-error=switch-enum" >"$tmp/configure.log" 2>&1; then
    cat "$tmp/configure.log" >&2
    exit 2
fi
# The binding is built only where node_api.h is found: say so when it is not.
grep -q "Node.js binding: Node-API headers" "$tmp/configure.log" ||
    echo "check-new-member: WARNING: the Node binding is not configured; its C is not checked" >&2

echo "building ..." >&2
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
    / (error|warning): / {
        f = $0; sub(/:[0-9]+:[0-9]+: (error|warning): .*/, "", f)
        msg = $0; sub(/^.* (error|warning): /, "", msg)
        where = (f == file && fn != "") ? f ": " fn : f
        print where ": " msg
    }' "$log" | sed 's/ \[-W[a-z=-]*\]$//' | sort -u)

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
others=$(echo "$stops" | grep -v -e "_FAKE_AEAD" -e "_FAKE_OKP" -e "static assertion failed" || true)
echo "$n place(s) stopped the build." >&2
if [ -n "$others" ]; then
    echo "check-new-member: some stops do not name a fake member:" >&2
    echo "$others" >&2
    exit 1
fi
exit 0
