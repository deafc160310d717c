#!/usr/bin/env bash
# Installs what building and testing Formwell needs on a fresh Debian machine, from the project's own
# lists: Debian packages in .ci/apt-packages.txt, Python packages in .ci/requirements.txt.
# Installs only what is missing, so it is quick on a machine that is already set up.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
while read -r package; do
  [ -z "$package" ] && continue
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done < .ci/apt-packages.txt
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore -r .ci/requirements.txt; then
  echo "setup: pip install -r .ci/requirements.txt failed" >&2
  exit 1
fi

command -v swift >/dev/null || { echo "setup: swift is not on PATH (expected the Swift 6.3 toolchain)" >&2; exit 1; }
