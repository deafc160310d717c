#!/usr/bin/env bash
# Installs what building Formwell needs on a fresh Debian machine: PCRE2's headers (libpcre2-dev).
# Does nothing when they are already there.
set -euo pipefail
need=()
pkg-config --exists libpcre2-8 2>/dev/null || need+=(libpcre2-dev)
command -v pkg-config >/dev/null || need+=(pkg-config)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${need[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "setup: swift is not on PATH (expected the Swift 6.3 toolchain)" >&2; exit 1; }
