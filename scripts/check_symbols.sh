#!/usr/bin/env bash
# Fails when libformwell.so's dynamic symbol table defines anything but the fw_* API (GLOBAL, WEAK or
# LOCAL), when a function of include/formwell.h is not exported, when the library is over 10 MB
# (issue 10: FoundationEssentials' JSON once made it 21.8 MB), or when it needs a Swift toolchain library.
set -euo pipefail
lib=${1:-.build/release/libformwell.so}
exported=$(nm -D --defined-only "$lib" | awk '{print $3}')
others=$(printf '%s\n' "$exported" | grep -v '^fw_' || true)
count=$(printf '%s\n' "$exported" | grep -c '^fw_' || true)
header=$(grep -oE '\bfw_[a-z_]+\(' include/formwell.h | tr -d '(' | sort -u)
missing=$(comm -23 <(printf '%s\n' "$header") <(printf '%s\n' "$exported" | sort -u))
if [ -n "$others" ]; then
  echo "check_symbols: exported symbols outside the fw_ API:" >&2
  printf '  %s\n' $others >&2
  exit 1
fi
if [ -n "$missing" ]; then
  echo "check_symbols: declared in formwell.h but not exported: $missing" >&2
  exit 1
fi
size=$(stat -c %s "$lib")
if [ "$size" -gt 10000000 ]; then
  echo "check_symbols: $lib is $size bytes, over the 10 MB (10,000,000 bytes) budget" >&2
  exit 1
fi
if ldd "$lib" | grep -qiE 'swift|Foundation|dispatch'; then
  echo "check_symbols: $lib needs a Swift toolchain library:" >&2
  ldd "$lib" >&2
  exit 1
fi
echo "check_symbols: $count fw_ functions exported, nothing else defined in .dynsym; $size bytes; ldd lists no Swift library"
