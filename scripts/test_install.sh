#!/usr/bin/env bash
# Installs Formwell into a temporary prefix (through DESTDIR too), then builds and runs every program in
# bindings/c/examples using nothing but `pkg-config --cflags --libs formwell`: as C with gcc, as C++
# with g++, and with clang when one is installed. Finally uninstalls and checks nothing is left.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

make --no-print-directory install PREFIX="$prefix" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs formwell)
version=$(pkg-config --modversion formwell)
soname=$(readelf -d "$prefix/lib/libformwell.so.$version" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
echo "test_install: formwell $version, soname $soname, flags: $flags"
[ "$soname" = "libformwell.so.${version%%.*}" ] || { echo "unexpected soname '$soname'" >&2; exit 1; }
[ "$(readlink "$prefix/lib/libformwell.so")" = "$soname" ] || { echo "libformwell.so does not point to the soname" >&2; exit 1; }

compilers=("gcc -std=c99 -Wall -Wextra -Wpedantic -Werror -x c" "g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -x c++")
if command -v clang >/dev/null; then
  compilers+=("clang -std=c99 -Wall -Wextra -Wpedantic -Werror -x c")
fi
built=0
for example in bindings/c/examples/*.c; do
  name=$(basename "$example" .c)
  for compiler in "${compilers[@]}"; do
    out="$work/$name-${compiler%% *}"
    # shellcheck disable=SC2086
    $compiler "$example" -o "$out" $flags
    LD_LIBRARY_PATH="$prefix/lib" "$out" >/dev/null
    built=$((built + 1))
  done
done
echo "test_install: built and ran $built example binaries (${#compilers[@]} compilers)"

# DESTDIR staging puts the same files under DESTDIR/PREFIX; uninstall removes exactly them.
make --no-print-directory install DESTDIR="$work/stage" PREFIX=/usr/local >/dev/null
staged=$(cd "$work/stage" && find . \( -type f -o -type l \) | sort)
expected=$(printf '%s\n' ./usr/local/include/formwell.h ./usr/local/include/formwell_ffi.h ./usr/local/lib/libformwell.so \
  "./usr/local/lib/libformwell.so.${version%%.*}" "./usr/local/lib/libformwell.so.$version" \
  ./usr/local/lib/pkgconfig/formwell.pc | sort)
[ "$staged" = "$expected" ] || { echo "DESTDIR install wrote:"; echo "$staged"; exit 1; } >&2
make --no-print-directory uninstall DESTDIR="$work/stage" PREFIX=/usr/local >/dev/null
left=$(cd "$work/stage" && find . \( -type f -o -type l \))
[ -z "$left" ] || { echo "uninstall left: $left" >&2; exit 1; }
make --no-print-directory uninstall PREFIX="$prefix" >/dev/null
echo "test_install: DESTDIR install wrote exactly 6 entries; uninstall removed them"

# The complete program shown in bindings/c/README.md is the example built above, verbatim.
python3 - <<'PY'
import re, sys
readme = open("bindings/c/README.md").read()
program = next(b for b in re.findall(r"```c\n(.*?)```", readme, re.S) if "int main" in b)
example = open("bindings/c/examples/unique_username.c").read()
if program not in example:
    sys.exit("test_install: bindings/c/README.md's program differs from bindings/c/examples/unique_username.c")
print("test_install: README program == examples/unique_username.c")
PY
