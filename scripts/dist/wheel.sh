#!/usr/bin/env bash
# The Python wheel and sdist (called by build.sh). The package is ctypes, so the wheel is tagged
# py3-none; `auditwheel repair` then vendors what the manylinux policy does not allow (libpcre2-8)
# into it, sets the RPATHs and gives it the manylinux tag of the symbols actually referenced.
# The sdist carries the Swift package in native/ (its sources, and the test target Package.swift
# declares, without which SwiftPM refuses the package), which its setup.py builds where a toolchain is.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${VERSION:?}" "${STAGE:?}" "${DIST:?}" "${PYTHON:?}" "${STRIPPED_LIB:?}" "${STRIPPED_CLI:?}"

pkg=$STAGE/python
rm -rf "$pkg" && mkdir -p "$pkg"
git ls-files -z --cached --others --exclude-standard bindings/python | while IFS= read -r -d '' f; do
  rel=${f#bindings/python/}; mkdir -p "$pkg/$(dirname "$rel")"; cp -p "$f" "$pkg/$rel"
done
cp LICENSE "$pkg/LICENSE"
mkdir -p "$pkg/native/scripts"
git ls-files -z --cached --others --exclude-standard Package.swift Makefile LICENSE Sources include scripts/exports.map Tests/FormwellTests | while IFS= read -r -d '' f; do
  mkdir -p "$pkg/native/$(dirname "$f")"; cp -p "$f" "$pkg/native/$f"
done

(cd "$pkg" && "$PYTHON" -m build --sdist --no-isolation --outdir "$OLDPWD/$STAGE/sdist" >/dev/null)
FORMWELL_BUILD_LIB=$PWD/$STRIPPED_LIB FORMWELL_BUILD_CLI=$PWD/$STRIPPED_CLI \
  "$PYTHON" -m build --wheel --no-isolation --outdir "$STAGE/wheel" "$pkg" >/dev/null
wheel=$(ls "$STAGE"/wheel/formwell-"$VERSION"-py3-none-linux_x86_64.whl)
"$PYTHON" -m auditwheel repair --wheel-dir "$DIST" "$wheel" >/dev/null
cp "$STAGE/sdist/formwell-$VERSION.tar.gz" "$DIST/"
ls "$DIST"/formwell-"$VERSION"-py3-none-manylinux_*_x86_64.whl >/dev/null
