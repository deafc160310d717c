# Sourced by the install tests: run_clean runs a command the way a user on a machine without Swift
# would, with none of the repository's paths in the environment: a fresh HOME, PATH holding only the
# system's folders (plus $EXTRA_PATH when set), and no PYTHONPATH, LD_LIBRARY_PATH, PKG_CONFIG_PATH,
# FORMWELL_LIBRARY or LUA_PATH. pip keeps its download cache (outside the repository).
SYSTEM_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
PIP_CACHE=${PIP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pip}

run_clean() {  # run_clean HOME_DIR COMMAND...
  local home=$1; shift
  mkdir -p "$home"
  env -i HOME="$home" PATH="${EXTRA_PATH:+$EXTRA_PATH:}$SYSTEM_PATH" LANG=C.UTF-8 TERM=dumb \
    PIP_CACHE_DIR="$PIP_CACHE" PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore "$@"
}

# Runs a named block of the docs (scripts/dist/doc_blocks.py) in the repository's root, under bash -e.
run_block() {  # run_block HOME_DIR NAME
  local script
  script=$(python3 scripts/dist/doc_blocks.py "$2")
  run_clean "$1" bash -euo pipefail -c "$script"
}

fail() { echo "$TEST_NAME: FAILED: $*" >&2; exit 1; }

# Neither swift nor anything of the repository can be reached in the clean environment.
assert_clean() {
  if run_clean "$1" bash -c 'command -v swift' >/dev/null; then fail "swift is on the clean PATH"; fi
}
