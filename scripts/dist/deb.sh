#!/usr/bin/env bash
# The Debian packages (called by build.sh), split the way Debian splits C libraries:
#   libformwell0     the shared library (soname libformwell.so.MAJOR)
#   libformwell-dev  formwell.h, formwell_ffi.h, the development link, formwell.pc, formwell(3)
#   formwell         the CLI and formwell(1)
#   lua-formwell     the LuaJIT module (with the FFI declarations it reads beside it)
# Built with dpkg-deb from trees staged here; dependencies on other libraries come from
# dpkg-shlibdeps, so they name the versions the symbols actually need.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${VERSION:?}" "${SONAME:?}" "${STAGE:?}" "${DIST:?}" "${MAN_DIR:?}" "${STRIPPED_LIB:?}" "${STRIPPED_CLI:?}" "${SOURCE_DATE_EPOCH:?}"

ARCH=$(dpkg --print-architecture)
MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
REVISION=1
DEBVERSION=$VERSION-$REVISION
MAINTAINER="Formwell developers <formwell@lists.example.org>"
HOMEPAGE="https://github.com/formwell/formwell"
ROOT=$STAGE/deb
rm -rf "$ROOT" && mkdir -p "$ROOT"
CHANGELOG_DATE=$(date -u -R -d "@$SOURCE_DATE_EPOCH")

# Files every package carries: the copyright file and a changelog, under /usr/share/doc/PACKAGE.
doc_files() {
  local pkg=$1 dir=$ROOT/$1/usr/share/doc/$1
  install -d "$dir"
  {
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: formwell"
    echo "Source: $HOMEPAGE"
    echo
    echo "Files: *"
    echo "Copyright: $(sed -n 's/^Copyright (c) //p' LICENSE | head -n 1)"
    echo "License: Expat"
    echo
    echo "Files: usr/lib/*/libformwell.so.* usr/bin/formwell"
    echo "Copyright: Apple Inc. and the Swift project authors"
    echo "License: Apache-2.0 with Runtime Library Exception"
    echo " The Swift runtime and standard library are linked statically into these files."
    echo " ."
    echo " On Debian systems, the full text of the Apache License, Version 2.0 can be"
    echo " found in the file '/usr/share/common-licenses/Apache-2.0'. The Runtime"
    echo " Library Exception is at https://swift.org/LICENSE.txt."
    echo
    echo "License: Expat"
    sed -e '1,/^$/d' -e 's/^$/./' -e 's/^/ /' LICENSE
  } > "$dir/copyright"
  printf '%s (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- %s  %s\n' \
    formwell "$DEBVERSION" "$VERSION" "$MAINTAINER" "$CHANGELOG_DATE" | gzip -9n > "$dir/changelog.Debian.gz"
}

# The control file, md5sums and the package itself; $3 is the Depends line (may be empty).
finish() {
  local pkg=$1 arch=$2 depends=$3 section=$4 multiarch=$5 synopsis=$6 description=$7 dir=$ROOT/$1
  doc_files "$pkg"
  install -d "$dir/DEBIAN"
  (cd "$dir" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) > "$dir/DEBIAN/md5sums"
  local size
  size=$(du -sk --exclude=DEBIAN "$dir" | cut -f1)
  {
    echo "Package: $pkg"
    echo "Source: formwell"
    echo "Version: $DEBVERSION"
    echo "Architecture: $arch"
    echo "Maintainer: $MAINTAINER"
    echo "Installed-Size: $size"
    [ -n "$depends" ] && echo "Depends: $depends"
    echo "Section: $section"
    echo "Priority: optional"
    echo "Multi-Arch: $multiarch"
    echo "Homepage: $HOMEPAGE"
    echo "Description: $synopsis"
    printf '%s\n' "$description" | fold -s -w 72 | sed -e 's/ *$//' -e 's/^/ /'
  } > "$dir/DEBIAN/control"
  find "$dir" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
  dpkg-deb --root-owner-group -Zxz --build "$dir" "$DIST/${pkg}_${DEBVERSION}_${arch}.deb" >/dev/null
}

# dpkg-shlibdeps wants a debian/control naming the package; it reads the other libraries' shlibs.
shlibdeps() {
  local work=$STAGE/shlibdeps
  rm -rf "$work" && mkdir -p "$work/debian"
  printf 'Source: formwell\n\nPackage: formwell\nArchitecture: any\n' > "$work/debian/control"
  (cd "$work" && dpkg-shlibdeps -O "$@" 2>/dev/null) | sed -n 's/^shlibs:Depends=//p'
}

ABOUT="Formwell is a headless form-validation engine: forms made of fields, each with a value, \
rules and a state (idle, focused or inactive; empty, valid or invalid), judged leniently while \
typing and strictly on blur, with messages in several languages."

# libformwell0
lib_dir=$ROOT/libformwell0/usr/lib/$MULTIARCH
install -d "$lib_dir"
install -m 644 "$STRIPPED_LIB" "$lib_dir/libformwell.so.$VERSION"
ln -s "libformwell.so.$VERSION" "$lib_dir/$SONAME"
install -d "$ROOT/libformwell0/DEBIAN"
echo "libformwell ${SONAME##*.so.} libformwell0 (>= $VERSION)" > "$ROOT/libformwell0/DEBIAN/shlibs"
echo "activate-noawait ldconfig" > "$ROOT/libformwell0/DEBIAN/triggers"
chmod 644 "$ROOT/libformwell0/DEBIAN/shlibs" "$ROOT/libformwell0/DEBIAN/triggers"
lib_depends=$(shlibdeps "$PWD/$lib_dir/libformwell.so.$VERSION")
finish libformwell0 "$ARCH" "$lib_depends" libs same "form-validation engine (shared library)" \
  "$ABOUT This package holds the shared library, with its C ABI (the fw_ functions)."

# libformwell-dev
dev=$ROOT/libformwell-dev
install -d "$dev/usr/include" "$dev/usr/lib/$MULTIARCH/pkgconfig" "$dev/usr/share/man/man3"
install -m 644 include/formwell.h include/formwell_ffi.h "$dev/usr/include/"
ln -s "$SONAME" "$dev/usr/lib/$MULTIARCH/libformwell.so"
sed -e 's|@PREFIX@|/usr|' -e "s|@LIBDIR@|\${prefix}/lib/$MULTIARCH|" -e "s|@VERSION@|$VERSION|" bindings/c/formwell.pc.in \
  > "$dev/usr/lib/$MULTIARCH/pkgconfig/formwell.pc"
chmod 644 "$dev/usr/lib/$MULTIARCH/pkgconfig/formwell.pc"
gzip -9n < "$MAN_DIR/formwell.3" > "$dev/usr/share/man/man3/formwell.3.gz"
finish libformwell-dev "$ARCH" "libformwell0 (= $DEBVERSION)" libdevel same \
  "form-validation engine (development files)" \
  "$ABOUT This package holds the C headers, the pkg-config file and formwell(3)."

# formwell
cli=$ROOT/formwell
install -d "$cli/usr/bin" "$cli/usr/share/man/man1"
install -m 755 "$STRIPPED_CLI" "$cli/usr/bin/formwell"
gzip -9n < "$MAN_DIR/formwell.1" > "$cli/usr/share/man/man1/formwell.1.gz"
finish formwell "$ARCH" "$(shlibdeps "$PWD/$cli/usr/bin/formwell")" utils foreign \
  "form-validation engine (command-line tool)" \
  "$ABOUT This package holds the formwell command, which checks JSONL and CSV records against a form spec."

# lua-formwell
lua=$ROOT/lua-formwell/usr/share/lua/5.1
install -d "$lua"
install -m 644 bindings/lua/formwell.lua bindings/lua/formwell_json.lua include/formwell_ffi.h "$lua/"
finish lua-formwell all "libformwell0 (>= $VERSION), luajit" interpreters foreign \
  "form-validation engine (LuaJIT module)" \
  "$ABOUT This package holds the LuaJIT module, require(\"formwell\"), over LuaJIT's FFI."
