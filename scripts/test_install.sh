#!/usr/bin/env bash
# Installs Formwell into a temporary prefix (through DESTDIR too), then builds and runs every program in
# bindings/c/examples using nothing but `pkg-config --cflags --libs formwell`: as C with gcc, as C++
# with g++, and with clang when one is installed; runs the installed CLI, man pages and Lua module.
# Finally uninstalls and checks nothing is left.
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

# The rest of what `make install` puts under PREFIX: the CLI, the man pages, the LuaJIT module.
[ "$("$prefix/bin/formwell" --version)" = "formwell $version" ] || { echo "installed formwell --version is wrong" >&2; exit 1; }
man -l "$prefix/share/man/man1/formwell.1" | grep -q 'formwell check' || { echo "formwell(1) does not describe check" >&2; exit 1; }
man -l "$prefix/share/man/man3/formwell.3" | grep -q 'fw_form_create' || { echo "formwell(3) does not list fw_form_create" >&2; exit 1; }
(cd "$work" && env -u FORMWELL_LIBRARY -u FORMWELL_FFI_HEADER LUA_PATH="$prefix/share/lua/5.1/?.lua;;" WANT_VERSION="$version" \
  WANT_PREFIX="$prefix/" luajit -e 'local f = require("formwell")
    assert(f.version == os.getenv("WANT_VERSION"), f.version)
    assert(f.library_path:find(os.getenv("WANT_PREFIX"), 1, true) == 1, f.library_path)') \
  || { echo "the installed Lua module does not load the installed library" >&2; exit 1; }
echo "test_install: the installed CLI, man pages and Lua module work from PREFIX"

# DESTDIR staging puts the same files under DESTDIR/PREFIX; uninstall removes exactly them.
make --no-print-directory install DESTDIR="$work/stage" PREFIX=/usr/local >/dev/null
staged=$(cd "$work/stage" && find . \( -type f -o -type l \) | sort)
major=${version%%.*}
expected=$(printf './usr/local/%s\n' include/formwell.h include/formwell_ffi.h lib/libformwell.so \
  "lib/libformwell.so.$major" "lib/libformwell.so.$version" lib/pkgconfig/formwell.pc bin/formwell \
  share/man/man1/formwell.1 share/man/man3/formwell.3 share/lua/5.1/formwell.lua share/lua/5.1/formwell_json.lua \
  share/lua/5.1/formwell_ffi.h | sort)
[ "$staged" = "$expected" ] || { echo "DESTDIR install wrote:"; echo "$staged"; exit 1; } >&2
make --no-print-directory uninstall DESTDIR="$work/stage" PREFIX=/usr/local >/dev/null
left=$(cd "$work/stage" && find . \( -type f -o -type l \))
[ -z "$left" ] || { echo "uninstall left: $left" >&2; exit 1; }
make --no-print-directory uninstall PREFIX="$prefix" >/dev/null
left=$(cd "$prefix" && find . \( -type f -o -type l \))
[ -z "$left" ] || { echo "uninstall from PREFIX left: $left" >&2; exit 1; }
echo "test_install: DESTDIR install wrote exactly $(wc -l <<<"$expected") entries; uninstall removed them"

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
