#!/usr/bin/env bash
# Installs the build into a scratch prefix, then compiles and runs the README's
# C example against it through pkg-config, shared and static: the installed
# header, libraries and webcrypto.pc must be enough for a user.
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
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
