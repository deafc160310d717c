#!/usr/bin/env bash
# Fails when libformwell.so's dynamic symbol table defines anything but the fw_* API (GLOBAL, WEAK or
# LOCAL), or when a function of include/formwell.h is not exported.
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
echo "check_symbols: $count fw_ functions exported, nothing else defined in .dynsym"
