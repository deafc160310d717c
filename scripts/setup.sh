#!/usr/bin/env bash
# Prepares a Debian machine for building Formwell, from the project's own lists, before anything is built:
#   scripts/setup.sh          checks the Swift toolchain, then installs the build's Debian packages
#                             (.ci/apt-packages.txt): what `make lib`, `make cli` and `make demo` need.
#   scripts/setup.sh --test   the same, plus the test suite's Debian packages (.ci/apt-test-packages.txt).
# Python packages never go into the system Python or the caller's environment: `make test` and
# `make dist` put theirs into the project's own venv, .venv (.ci/requirements*.txt).
# Installs only what is missing, so it is quick on a machine that is already set up.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT_WANTED="6.3"
lists=(.ci/apt-packages.txt)
case "${1:-}" in
  "") ;;
  --test) lists+=(.ci/apt-test-packages.txt) ;;
  *) echo "usage: scripts/setup.sh [--test]" >&2; exit 2 ;;
esac

# The toolchain first: nothing is installed on a machine that cannot build the project anyway.
swift_bin="${SWIFT:-swift}"
if ! command -v "$swift_bin" >/dev/null; then
  cat >&2 <<EOF
setup: no Swift toolchain: '$swift_bin' is not on PATH.
  Formwell builds with Swift $SWIFT_WANTED.x. Install it from https://www.swift.org/install/linux/
  (a tarball for Debian 12 / Ubuntu), or with swiftly (https://www.swift.org/swiftly/):
      swiftly install $SWIFT_WANTED
  then put its usr/bin on PATH. Prebuilt packages need no toolchain: see docs/install.md.
EOF
  exit 1
fi
swift_version=$("$swift_bin" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1)
case "$swift_version" in
  "$SWIFT_WANTED" | "$SWIFT_WANTED".*) ;;
  *)
    echo "setup: found Swift '${swift_version:-unknown}' at $(command -v "$swift_bin"); Formwell needs Swift $SWIFT_WANTED.x" \
         "(https://www.swift.org/install/linux/ or \`swiftly install $SWIFT_WANTED\`)" >&2
    exit 1 ;;
esac

missing=()
for list in "${lists[@]}"; do
  while read -r package; do
    [ -z "$package" ] && continue
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done < "$list"
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
