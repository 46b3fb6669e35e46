#!/usr/bin/env bash
# Installs the build into a scratch prefix, then compiles and runs the README's
# C example against it through pkg-config, shared and static, and through the
# CMake package (find_package(webcrypto CONFIG), target webcrypto::webcrypto):
# the installed header, libraries, webcrypto.pc and CMake files must be enough
# for a user. Checks the shared library's ABI policy (docs/ABI.md): its
# soname, and that it exports exactly the header's webcrypto_* functions,
# each with a version node. Then checks that the installed files name
# nothing in the build tree and that the installed shared library loads the
# installed module.
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
# The webcrypto command and the benchmark it runs for `webcrypto bench`, side
# by side in bin (tools/cli/cmd_bench.c looks next to itself first).
if grep -q '^WEBCRYPTO_BUILD_CLI:BOOL=ON$' "$build/CMakeCache.txt"; then
  bin=$tmp/prefix/$(sed -n 's/^CMAKE_INSTALL_BINDIR:PATH=//p' "$build/CMakeCache.txt")
  check "webcrypto and webcrypto-bench installed in bin" test -x "$bin/webcrypto" -a -x "$bin/webcrypto-bench"
  check "the installed webcrypto bench runs the installed webcrypto-bench" \
    sh -c "env PATH=/nonexistent '$bin/webcrypto' bench --help | head -1 | grep -qx 'usage: webcrypto bench \[options\]'"
fi
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

# The CMake package: a consumer project that only knows the install prefix,
# asking for the header's version; another minor version (before 1.0, the
# soname's rule) is refused.
major=$(sed -n 's/^#define WEBCRYPTO_VERSION_MAJOR \([0-9]*\)$/\1/p' "$tmp/prefix/include/webcrypto.h")
minor=$(sed -n 's/^#define WEBCRYPTO_VERSION_MINOR \([0-9]*\)$/\1/p' "$tmp/prefix/include/webcrypto.h")
consumer() { # dir, version asked for
  mkdir -p "$1"
  cp "$tmp/example.c" "$1/example.c"
  cat > "$1/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(consumer LANGUAGES C)
find_package(webcrypto $2 CONFIG REQUIRED)
add_executable(example example.c)
target_link_libraries(example PRIVATE webcrypto::webcrypto)
CMAKE
}
consumer "$tmp/consumer" "$major.$minor"
check "find_package(webcrypto $major.$minor CONFIG) configures" \
  cmake -S "$tmp/consumer" -B "$tmp/consumer/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
        -DCMAKE_C_FLAGS="-std=c11 -Wall -Werror ${extra[*]}"
check "README example builds (CMake package)" cmake --build "$tmp/consumer/build"
check "README example runs (CMake package)" \
  sh -c "'$tmp/consumer/build/example' | grep -qx 'attack at dawn'"
if [ "$major" = 0 ]; then other=0.$((minor + 1)); else other=$((major + 1)).0; fi
consumer "$tmp/consumer-other" "$other"
check "find_package(webcrypto $other CONFIG) is refused" \
  sh -c "! cmake -S '$tmp/consumer-other' -B '$tmp/consumer-other/build' -DCMAKE_PREFIX_PATH='$tmp/prefix'"

# The ABI policy of the installed shared library (docs/ABI.md).
so=$(ls "$lib"/libwebcrypto.so.*.*.* | head -1)
if [ "$major" = 0 ]; then soname=libwebcrypto.so.0.$minor; else soname=libwebcrypto.so.$major; fi
check "soname is $soname" sh -c "readelf -d '$so' | grep -F 'Library soname: [$soname]'"
# Defined dynamic symbols, as name@@VERSION (the version node's own ABS
# symbol aside).
readelf --dyn-syms -W "$so" | awk '$7 != "UND" && $8 != "" && $4 != "SECTION" && $1 ~ /^[0-9]+:$/ {print $8}' \
  | grep -Ev '^WEBCRYPTO_[0-9.]+$' | sort > "$tmp/exported"
sed -n 's/^WEBCRYPTO_API [^(]*[ *]\(webcrypto_[a-z0-9_]*\)(.*/\1/p; s/^\(webcrypto_[a-z0-9_]*\)(.*/\1/p' \
  "$tmp/prefix/include/webcrypto.h" | sort -u > "$tmp/declared"
check "the header declares the public functions" test "$(wc -l < "$tmp/declared")" -gt 50
check "only webcrypto_* symbols are exported, each versioned" \
  sh -c "! grep -Ev '^webcrypto_[a-z0-9_]+@@WEBCRYPTO_[0-9]+\.[0-9]+$' '$tmp/exported'"
check "exactly the header's functions are exported" \
  sh -c "sed 's/@@.*//' '$tmp/exported' | sort -u | diff - '$tmp/declared'"
check "a program records the version node it needs" \
  sh -c "readelf -V '$tmp/ex_shared' | grep -E 'Name: WEBCRYPTO_[0-9]+\.[0-9]+'"

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
