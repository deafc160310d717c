#!/usr/bin/env bash
# The tarball as a C or Lua user installs it: unpacked by the README's "tarball" block into a fresh
# HOME, then the README's C program built through PKG_CONFIG_PATH alone and run, the README's Lua
# example run by LuaJIT from the unpacked module, the CLI run from bin/ and its man page read;
# finally the tree moved elsewhere still works (nothing in it names where it was unpacked).
set -euo pipefail
cd "$(dirname "$0")/../.."
TEST_NAME=test_tarball
: "${VERSION:?}" "${CLI:?}"
source scripts/dist/clean_env.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
home=$work/home
assert_clean "$home"

tarball=dist/formwell-$VERSION-linux-x86_64.tar.gz
listing=$(tar -tzf "$tarball")
for entry in bin/formwell lib/libformwell.so lib/libformwell.so.${VERSION%%.*} lib/pkgconfig/formwell.pc \
             include/formwell.h include/formwell_ffi.h share/man/man1/formwell.1 share/man/man3/formwell.3 \
             share/lua/5.1/formwell.lua; do
  grep -qx "formwell-$VERSION-linux-x86_64/$entry" <<<"$listing" || fail "the tarball has no $entry"
done

mkdir -p "$home"
python3 scripts/dist/doc_blocks.py app.c > "$home/app.c"
python3 scripts/dist/doc_blocks.py example.lua > "$home/example.lua"
unpack=$(python3 scripts/dist/doc_blocks.py tarball)
c_block=$(python3 scripts/dist/doc_blocks.py c)

check_tree() {  # check_tree PREFIX: everything through the unpacked tree, in a fresh shell
  local prefix=$1
  run_clean "$home" bash -euo pipefail -c "
    export PATH=$prefix/bin:\$PATH PKG_CONFIG_PATH=$prefix/lib/pkgconfig LD_LIBRARY_PATH=$prefix/lib
    export LUA_PATH=\"$prefix/share/lua/5.1/?.lua;;\"
    [ \"\$(pkg-config --variable=prefix formwell)\" -ef $prefix ] || { echo 'formwell.pc: prefix is not the unpacked tree' >&2; exit 1; }
    cd \"\$HOME\"
    $c_block
    luajit example.lua
    formwell --version
    man -l $prefix/share/man/man1/formwell.1 | grep -q 'check'
    man -l $prefix/share/man/man3/formwell.3 | grep -q 'fw_form_create'
  "
}

# The README's block as written (it exports the paths; the checks run in the same shell).
out=$(run_clean "$home" bash -euo pipefail -c "$unpack
cd \"\$HOME\"
$c_block
luajit example.lua
formwell --version") || fail "the README's tarball block, C program or Lua example failed"
grep -q "^formwell $VERSION\$" <<<"$out" || fail "formwell --version from the tarball printed: $out"
prefix=$home/opt/formwell
for lib in "$prefix/lib/libformwell.so.$VERSION" "$prefix/bin/formwell"; do
  loaded=$(ldd "$lib" | sed -n 's/^[[:space:]]*libpcre2-8\.so\.0 => \([^ ]*\) .*/\1/p')
  [ -n "$loaded" ] && [ "$loaded" -ef "$prefix/lib/libpcre2-8.so.0" ] || fail "$lib does not load the bundled PCRE2 (it loads '$loaded')"
done
set +e
run_clean "$home" "$prefix/bin/formwell" check examples/registration.json examples/signups.jsonl > "$work/got"; got=$?
"$CLI" check examples/registration.json examples/signups.jsonl > "$work/want"; want=$?
set -e
[ "$got" = "$want" ] && cmp -s "$work/got" "$work/want" || fail "the tarball's formwell check differs from the build's CLI"
echo "$TEST_NAME: unpacked as the README says; C program, Lua example, CLI (report identical) and man pages work"

# Moved: the same tree under another name.
mv "$prefix" "$home/elsewhere"
check_tree "$home/elsewhere" >/dev/null || fail "the tree stops working once moved"
echo "$TEST_NAME: moved to another folder: pkg-config's prefix follows it, and everything still works"
