# Shared by scripts/fuzz.sh and scripts/tsan_stress.sh (sourced, not run).

# True when $1 is missing or older than any of the remaining files.
stale() {
  local target=$1; shift
  [ -e "$target" ] || return 0
  local f
  for f in "$@"; do [ "$f" -nt "$target" ] && return 0; done
  return 1
}
