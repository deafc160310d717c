#!/usr/bin/env bash
# Fails when libformwell.so's dynamic symbol table defines anything but the fw_* API (GLOBAL, WEAK or
# LOCAL), when a function of include/formwell.h is not exported, when the library stripped is over 8 MB
# (a dependency such as FoundationEssentials' JSON would push it well past that), or when it needs a
# Swift toolchain library.
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
# The budget counts what a stripped install ships: the library without its symbol table. The build
# keeps the table (Swift's mangled names, megabytes of them) so perf and callgrind name functions,
# and it grows with every function, so the unstripped file size mostly measures names.
stripped=$(mktemp)
objcopy --strip-all "$lib" "$stripped"
size=$(stat -c %s "$stripped")
rm -f "$stripped"
if [ "$size" -gt 8000000 ]; then
  echo "check_symbols: $lib is $size bytes stripped, over the 8 MB (8,000,000 bytes) budget" >&2
  exit 1
fi
if ldd "$lib" | grep -qiE 'swift|Foundation|dispatch'; then
  echo "check_symbols: $lib needs a Swift toolchain library:" >&2
  ldd "$lib" >&2
  exit 1
fi
echo "check_symbols: $count fw_ functions exported, nothing else defined in .dynsym; $size bytes; ldd lists no Swift library"
