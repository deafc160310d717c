#!/usr/bin/env bash
# Fails when libformwell.so exports (as GLOBAL or WEAK dynamic symbols) anything but the fw_* API.
# LOCAL entries that remain in .dynsym cannot be bound by other objects and are not exports.
set -euo pipefail
lib=${1:-.build/release/libformwell.so}
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[A-Z]$/ {print $3}')
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
echo "check_symbols: $count fw_ functions exported, nothing else ($(nm -D --defined-only "$lib" | awk '$2 ~ /^[a-z]$/' | wc -l) local dynsym entries, not bindable)"
