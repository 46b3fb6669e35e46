#!/usr/bin/env bash
# Installs the build into a scratch prefix, then compiles and runs the README's
# C example against it through pkg-config, shared and static: the installed
# header, libraries and webcrypto.pc must be enough for a user. Then checks
# that the installed files name nothing in the build tree and that the
# installed shared library loads the installed module.
# usage: install_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name, command...
  local name=$1; shift
  if "$@" >"$tmp/out" 2>&1; then echo "ok   $name"; pass=$((pass + 1))
  else echo "FAIL $name"; sed 's/^/     /' "$tmp/out"; fail=$((fail + 1)); fi
}
check "cmake --install" cmake --install "$build" --prefix "$tmp/prefix"
lib=$(ls -d "$tmp"/prefix/lib* | head -1)
export PKG_CONFIG_PATH="$lib/pkgconfig:$lib/x86_64-linux-gnu/pkgconfig"
check "header installed" test -f "$tmp/prefix/include/webcrypto.h"
check "pkg-config knows webcrypto" pkg-config --exists webcrypto
# The README's example is the first ```c block.
awk '/^```c$/{f=1;next} /^```$/{if(f)exit} f' "$src/README.md" > "$tmp/example.c"
check "README example extracted" test -s "$tmp/example.c"
# Sanitizer builds of the library need the sanitizer runtime in the example too.
extra=()
grep -q 'WEBCRYPTO_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && extra=(-fsanitize=address,undefined)
check "README example compiles (shared)" \
  cc -std=c11 -Wall -Werror "${extra[@]}" "$tmp/example.c" -o "$tmp/ex_shared" \
     $(pkg-config --cflags --libs webcrypto) -Wl,-rpath,"$(pkg-config --variable=libdir webcrypto)"
check "README example runs (shared)" sh -c "'$tmp/ex_shared' | grep -qx 'attack at dawn'"
check "README example compiles (static)" \
  cc -std=c11 -Wall -Werror "${extra[@]}" "$tmp/example.c" -o "$tmp/ex_static" \
     $(pkg-config --cflags webcrypto) "$(pkg-config --variable=libdir webcrypto)/libwebcrypto.a" \
     $(pkg-config --static --libs-only-l webcrypto | sed 's/-lwebcrypto//')
check "README example runs (static)" sh -c "'$tmp/ex_static' | grep -qx 'attack at dawn'"

# Nothing is loaded from the build tree: the installed files name no path in
# it (their debug information aside, which records where they were compiled;
# a stripped copy holds what the loader and the code use), and the installed
# shared library finds the installed module by itself, WEBCRYPTO_MODULE_DIR
# unset (src/core/module_dirs.c: <libdir>/webcrypto, beside the library).
libdir=$(cd "$(pkg-config --variable=libdir webcrypto)" && pwd -P) # as the library finds itself
bt=$(cd "$build" && pwd -P)
no_build_path() { # file
  strip --strip-debug -o "$tmp/stripped" "$1" || return 1
  ! strings -a "$tmp/stripped" | grep -F -e "$bt" -e "$build"
}
for f in "$libdir"/libwebcrypto.so.*.*.* "$libdir"/libwebcrypto.a "$libdir"/webcrypto/*.so; do
  [ -e "$f" ] && check "no build-tree path in ${f#"$libdir/"}" no_build_path "$f"
done
if [ -f "$build/modules/webcrypto-boringssl.so" ]; then
  cat > "$tmp/which_module.c" <<'C'
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <webcrypto.h>
/* Starts the backend argv[1] and prints the file webcrypto-<argv[1]>.so was loaded from. */
static char want[64], path[4096];
static int look(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size, (void)data;
    size_t n = strlen(info->dlpi_name), w = strlen(want);
    if (n >= w && strcmp(info->dlpi_name + n - w, want) == 0)
        snprintf(path, sizeof path, "%s", info->dlpi_name);
    return 0;
}
int main(int argc, char **argv) {
    const webcrypto_backend *b;
    if (argc != 2 || webcrypto_backend_get(argv[1], &b) != WEBCRYPTO_OK) {
        printf("%s\n", webcrypto_error_message());
        return 1;
    }
    snprintf(want, sizeof want, "/webcrypto-%s.so", argv[1]);
    dl_iterate_phdr(look, NULL);
    printf("%s\n", path);
    return 0;
}
C
  installed=$libdir/webcrypto/webcrypto-boringssl.so
  check "module probe compiles (shared)" \
    cc -std=c11 -Wall -Werror "${extra[@]}" "$tmp/which_module.c" -o "$tmp/which_module" \
       $(pkg-config --cflags --libs webcrypto) -Wl,-rpath,"$libdir"
  check "the installed library loads the installed module (no WEBCRYPTO_MODULE_DIR)" \
    sh -c "env -u WEBCRYPTO_MODULE_DIR '$tmp/which_module' boringssl | grep -Fx '$installed'"
  mkdir "$tmp/empty"
  check "... and after an empty \$WEBCRYPTO_MODULE_DIR" \
    sh -c "WEBCRYPTO_MODULE_DIR='$tmp/empty' '$tmp/which_module' boringssl | grep -Fx '$installed'"
  # Without the installed module it looks nowhere else: the message lists
  # every path tried, and none is in the build tree.
  mv "$libdir/webcrypto" "$libdir/webcrypto.away"
  check "without it, only the install location is tried" \
    sh -c "! env -u WEBCRYPTO_MODULE_DIR '$tmp/which_module' boringssl >'$tmp/msg'; cat '$tmp/msg';
           grep -Fq 'backend module not found (tried $libdir/webcrypto/webcrypto-boringssl.so)' '$tmp/msg'"
  mv "$libdir/webcrypto.away" "$libdir/webcrypto"
else
  echo "skip installed module checks: this build has no boringssl module"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
